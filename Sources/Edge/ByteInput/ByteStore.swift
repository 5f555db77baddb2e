#if canImport(Glibc)
import Glibc
#endif
import LineLayout
import Threads

/// The bytes of one input, growing at the end: a regular file, read where asked (`pread`,
/// nothing copied ahead; its pages belong to the page cache, not to folio), or, for pipes,
/// chunks in memory appended by a reader thread.
///
/// A file is read, not mapped: a file that shrinks while folio reads it (logrotate's
/// `copytruncate`, `: > app.log`, an editor writing in place) would kill a mapping's reader
/// with SIGBUS, as it killed folio. A read past the new end comes back short, and so do the
/// store's reads: `count` stays what was attached (the lines found so far keep their
/// offsets), but the bytes the file no longer has are not there — never made up (they read
/// as NULs once, shown as rows of `^@`) — until the run loop notices the shorter file and
/// starts over. Reads go through one aligned 1 MB window, so the line-by-line reads of
/// layout and search cost a copy, not a system call, each.
///
/// Thread-safe: a reader thread appends, the run loop reads. Reads copy out under the lock, so
/// a chunk directory that grows (or a file that grew) never moves under a reader.
public final class ByteStore: ByteSource {
    static let chunkSize = 1 << 20
    /// The first read of a file's window (`State.windowed`).
    static let firstWindowRead = 64 << 10
    private let state = Locked(State())

    /// What changes, behind the lock.
    private struct State {
        var chunks: [UnsafeMutableRawPointer] = []
        /// The file read (a descriptor of its own), or -1.
        var fileFD: Int32 = -1
        /// The window of the file last read: `windowStart..<windowStart + windowCount`.
        var window: UnsafeMutableRawPointer?
        var windowStart = 0
        var windowCount = 0
        /// The window came back short (the file shrank): read it again next time, the file
        /// may have grown back.
        var windowShort = false
        /// All bytes as one array, once `consolidate` made them so (the chunks are gone then).
        var whole: [UInt8]?
        var count = 0
        /// Set when an ended stream's bytes were let go (`letGoOfBytes`): a fingerprint of
        /// them that its owner chose (the reading position's content hash).
        var keptTag: UInt64?

        mutating func freeChunks() {
            for c in chunks { c.deallocate() }
            chunks = []
        }

        /// Reads up to `count` bytes at `offset` of the file into `to`; returns how many it
        /// read: fewer when the file no longer has them (it shrank).
        func readFile(_ to: UnsafeMutableRawPointer, at offset: Int, count: Int) -> Int {
            var done = 0
            while done < count {
                let n = pread(fileFD, to + done, count - done, off_t(offset + done))
                if n > 0 { done += n; continue }
                if n < 0 && errno == EINTR { continue }
                break
            }
            return done
        }

        /// The window holding `offset` (read if it is not the current one); it ends early,
        /// before `offset` even, where the file ends now. A window is read as far as it is
        /// asked for, 64 KB at first and twice as much each time it is asked for more: the
        /// first screen of a 1 GB log reads the 64 KB it shows, not the 1 MB window around it
        /// (256 fresh pages), and line-by-line reads still cost a copy, not a system call.
        mutating func windowed(_ offset: Int) -> (base: UnsafeRawPointer, start: Int, count: Int) {
            let size = ByteStore.chunkSize
            let start = offset / size * size
            if window == nil { window = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16) }
            if windowStart != start || windowShort {
                windowStart = start
                windowCount = 0
                windowShort = false
            }
            let available = min(size, count - start)
            if offset - start >= windowCount && windowCount < available {
                let want = min(available, max(offset - start + 1, 2 * windowCount, ByteStore.firstWindowRead))
                let got = readFile(window! + windowCount, at: start + windowCount, count: want - windowCount)
                windowShort = got < want - windowCount
                windowCount += got
            }
            return (UnsafeRawPointer(window!), windowStart, windowCount)
        }

        /// The first `total` bytes of a file (fewer if it shrank), read straight into a new array.
        func readPrefix(_ total: Int) -> [UInt8] {
            let total = min(total, count)
            return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                initialized = total > 0 ? readFile(buffer.baseAddress!, at: 0, count: total) : 0
            }
        }

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            var from = 0
            while from < bytes.count {
                let within = count % ByteStore.chunkSize
                if within == 0 && count / ByteStore.chunkSize == chunks.count {
                    chunks.append(UnsafeMutableRawPointer.allocate(byteCount: ByteStore.chunkSize, alignment: 16))
                }
                let n = min(ByteStore.chunkSize - within, bytes.count - from)
                (chunks[count / ByteStore.chunkSize] + within).copyMemory(from: bytes.baseAddress! + from, byteCount: n)
                count += n
                from += n
            }
        }
    }

    public init() {}

    deinit {
        state.withLock { state in
            state.freeChunks()
            state.window?.deallocate()
            if state.fileFD >= 0 { close(state.fileFD) }
        }
    }

    /// Bytes held.
    public var count: Int { state.withLock { $0.count } }

    /// The tag given to `letGoOfBytes`, once the bytes are gone.
    public var tagOfBytesLetGo: UInt64? { state.withLock { $0.keptTag } }

    /// An ended stream's bytes let go, its count kept, `tag` kept in their place: the parse
    /// of a piped Markdown document lets them go as soon as it has hashed them (they are 20
    /// MB of the peak of `cat big.md | folio` while the content is built), and a save
    /// meanwhile takes its hash from the tag. Reads then find nothing (`forEachPiece` calls
    /// nothing, `bytes` and `consolidate` are empty). A file's store holds no bytes to let
    /// go: nothing happens.
    public func letGoOfBytes(keeping tag: UInt64) {
        state.withLock { state in
            guard state.fileFD < 0 else { return }
            state.freeChunks()
            state.whole = nil
            state.keptTag = tag
        }
    }

    /// Reads `length` bytes of a regular file from now on (a descriptor of its own: the caller
    /// keeps or closes `fd`). A later call, when the file grew, reads the new length (and the
    /// new file, after a rename). False when the descriptor cannot be duplicated (then
    /// append the file's bytes instead).
    public func attachFile(fd: Int32, length: Int) -> Bool {
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return false }
        _ = posix_fadvise(own, 0, 0, POSIX_FADV_SEQUENTIAL)
        state.withLock { state in
            if state.fileFD >= 0 { close(state.fileFD) }
            state.fileFD = own
            state.windowCount = 0
            state.windowShort = false
            state.count = max(0, length)
        }
        return true
    }

    /// Whether the bytes are read from a file (which can read them again: `consolidate`
    /// makes a new array each time), not kept from a stream.
    public var readsFromFile: Bool { state.withLock { $0.fileFD >= 0 } }

    /// All the bytes as one array that the store keeps as its own storage from then on (its
    /// chunks are freed): a caller that needs the whole input as an array (the Markdown parse
    /// of an ended stream) shares the store's copy instead of holding a second one. (A file's
    /// bytes are read into a new array each time.)
    public func consolidate() -> [UInt8] {
        state.withLock { state in
            if let whole = state.whole { return whole }
            if state.fileFD >= 0 { return state.readPrefix(state.count) }
            if state.keptTag != nil { return [] }
            var out: [UInt8] = []
            out.reserveCapacity(state.count)
            var at = 0
            for c in state.chunks {  // each freed once copied: the pages filled replace the pages freed
                let n = min(Self.chunkSize, state.count - at)
                out.append(contentsOf: UnsafeRawBufferPointer(start: c, count: n))
                at += n
                c.deallocate()
            }
            state.chunks = []
            state.whole = out
            return out
        }
    }

    /// Appends bytes (pipe input).
    public func append(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            precondition(state.fileFD < 0, "a file's store does not take appends")
            // After `letGoOfBytes` (only ever of an ended stream) there is nothing to append to.
            guard state.keptTag == nil else { state.count += bytes.count; return }
            if let kept = state.whole {
                // Back to chunks (nothing appends after the end of input today; stay correct).
                state.whole = nil
                state.count = 0
                kept.withUnsafeBytes { state.append($0) }
            }
            state.append(bytes)
        }
    }

    /// Forgets everything (a followed file was truncated: start over).
    public func reset() {
        state.withLock { state in
            state.freeChunks()
            state.whole = nil
            state.keptTag = nil
            if state.fileFD >= 0 { close(state.fileFD) }
            state.fileFD = -1
            state.windowCount = 0
            state.count = 0
        }
    }

    /// Calls `body` with the bytes of `range` in contiguous pieces, in order, under the lock
    /// (keep `body` short; a piece is valid only during its call). `body` returns false to stop.
    /// A file that shrank gives only the bytes it still has: the pieces stop at its end.
    public func forEachPiece(in range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) -> Bool) {
        state.withLock { state in
            let range = range.clamped(to: 0..<state.count)
            guard !range.isEmpty else { return }
            if state.fileFD >= 0 {
                var at = range.lowerBound
                while at < range.upperBound {
                    let w = state.windowed(at)
                    guard at < w.start + w.count else { return }  // the file ends before `at` now
                    let n = min(w.start + w.count, range.upperBound) - at
                    if !body(UnsafeRawBufferPointer(start: w.base + (at - w.start), count: n), at) { return }
                    at += n
                }
                return
            }
            if let whole = state.whole {
                whole.withUnsafeBytes { _ = body(UnsafeRawBufferPointer(rebasing: $0[range]), range.lowerBound) }
                return
            }
            if state.keptTag != nil { return }
            var at = range.lowerBound
            while at < range.upperBound {
                let c = at / Self.chunkSize, within = at % Self.chunkSize
                let n = min(Self.chunkSize - within, range.upperBound - at)
                if !body(UnsafeRawBufferPointer(start: state.chunks[c] + within, count: n), at) { return }
                at += n
            }
        }
    }

    /// A copy of the first `count` bytes (a file's read straight into the array, not through
    /// the window: the full parse of a 100 MB file).
    public func copyPrefix(_ count: Int) -> [UInt8] {
        if let prefix = state.withLock({ $0.fileFD >= 0 ? $0.readPrefix(count) : nil }) { return prefix }
        return bytes(0..<count)
    }

    /// A copy of the bytes of `range`, of a file read straight from it whatever the size, the
    /// window left where it is: for a few bytes far from where the reading is (the last bytes
    /// of a file, sampled to notice a change), which through the window would read up to 1 MB
    /// there and then the window's bytes again where the screen is.
    public func sample(_ range: Range<Int>) -> [UInt8] {
        let direct: [UInt8]? = state.withLock { state in
            guard state.fileFD >= 0 else { return nil }
            let r = range.clamped(to: 0..<state.count)
            return [UInt8](unsafeUninitializedCapacity: r.count) { buffer, initialized in
                initialized = r.isEmpty ? 0 : state.readFile(buffer.baseAddress!, at: r.lowerBound, count: r.count)
            }
        }
        return direct ?? bytes(range)
    }

    /// A copy of the bytes of `range` (of a file that shrank, only those it still has: the
    /// copy is shorter). A file's read of 4 KB or more outside the window is read straight into
    /// the copy: the samples a large text's position hash reads (64 of 4 KB) would otherwise
    /// read 64 windows of 1 MB.
    public func bytes(_ range: Range<Int>) -> [UInt8] {
        let direct: [UInt8]? = state.withLock { state in
            guard state.fileFD >= 0 else { return nil }
            let r = range.clamped(to: 0..<state.count)
            let inWindow = state.windowCount > 0 && r.lowerBound >= state.windowStart
                && r.upperBound <= state.windowStart + state.windowCount
            guard !inWindow && r.count >= 4096 else { return nil }
            return [UInt8](unsafeUninitializedCapacity: r.count) { buffer, initialized in
                initialized = state.readFile(buffer.baseAddress!, at: r.lowerBound, count: r.count)
            }
        }
        if let direct { return direct }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        forEachPiece(in: range) { piece, _ in out.append(contentsOf: piece); return true }
        return out
    }
}
