import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a pipe (or any non-regular input: a FIFO, a character device) on its own thread
/// into a `ByteStore`, never blocking the run loop.
///
/// Bounded like less: it reads ahead at most `readAhead` bytes past what the pager asked for
/// (`demand`), then waits; `readToEnd` lifts the bound until `stop`. So `yes | folio` holds a
/// few MB while the reader reads, and `G` reads on until Ctrl-C.
public final class StreamReader: Sendable {
    /// What the reader thread tells its owner: more bytes are in the store, or the input ended
    /// (`error`: why, if it ended early).
    public enum News: Sendable {
        case grew(doc: Int)
        case ended(doc: Int, error: String?)
    }

    /// Bytes read beyond the last demand before the thread waits (documented in README).
    public static let readAhead = 4 << 20
    /// The document whose bytes these are (what deliveries name).
    public var doc: Int { number.load(ordering: .relaxed) }
    private let number: Atomic<Int>
    public let store: ByteStore
    private let fd: Int32
    /// Called on the reader's thread (or whoever ends the input) with its news.
    private let tell: @Sendable (News) -> Void
    /// How far the thread may read: `limit` bytes, or on to the end (`toEnd`).
    private let flow: Conditioned<(limit: Int, toEnd: Bool)>
    /// Written by the thread that sees the end, read by the run loop: an atomic (it was a
    /// plain property read across threads without synchronisation, a data race). `endError`
    /// is written before `ended` is released, so whoever sees the end sees why.
    private let ended = Atomic<Bool>(false)
    public var finished: Bool { ended.load(ordering: .acquiring) }
    /// Why the input ended early, once it has ended (a read error, or what `whenEnded` said).
    public var endError: String? { why.withLock { $0 } }
    private let why = Locked<String?>(nil)
    /// Told once when the input has ended (on whichever thread saw the end); returns why the
    /// maker of the stream stopped early, if it did (a decompressor's error), and cleans up
    /// after it (reaps a preprocessor).
    private let whenEnded: (@Sendable () -> String?)?

    /// `unbounded`: read everything (Markdown, which is parsed whole).
    public init(fd: Int32, doc: Int, store: ByteStore, unbounded: Bool,
                whenEnded: (@Sendable () -> String?)? = nil, tell: @escaping @Sendable (News) -> Void) {
        self.fd = fd
        number = Atomic(doc)
        self.store = store
        self.tell = tell
        flow = Conditioned((StreamReader.readAhead, unbounded))
        self.whenEnded = whenEnded
    }

    /// The document is now number `doc` (documents before it were left out). Before `start`.
    public func renumber(_ doc: Int) { number.store(doc, ordering: .relaxed) }

    /// The input ended while it was sniffed: the thread only reports that.
    public func markFinished(readError: String? = nil) { end(readError: readError); close(fd) }

    /// Notes the end of the input (once): `readError`, else what `whenEnded` says, is why.
    @discardableResult
    private func end(readError: String?) -> String? {
        guard !finished else { return endError }
        let reported = whenEnded?()
        let error = readError ?? reported
        why.withLock { $0 = error }
        ended.store(true, ordering: .releasing)
        return error
    }

    public func start() {
        startThread(stackSize: 1 << 20) { [self] in run() }
    }

    /// The pager needs bytes up to `bytes` (plus the read-ahead).
    public func demand(_ bytes: Int) {
        let target = bytes + StreamReader.readAhead
        flow.withLock { if target > $0.limit { $0.limit = target } }
    }

    public func readToEnd(_ on: Bool) {
        let held = store.count
        flow.withLock { flow in
            flow.toEnd = on
            if !on { flow.limit = held + StreamReader.readAhead / 4 }
        }
    }

    /// Reads everything now (print mode, `-F`): blocks the caller until end of input or until
    /// `maxBytes` are held.
    public func readSynchronously(maxBytes: Int = .max) -> String? {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while store.count < maxBytes {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n > 0 {
                store.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return end(readError: n < 0 ? String(cString: strerror(errno)) : nil)
            }
        }
        return nil
    }

    /// Print mode: hands every chunk read from here on to `body` instead of keeping it, so
    /// an endless input (`folio /dev/zero > out`, `yes | folio | head`) streams through in
    /// bounded memory, as through cat. Stops when `body` returns false; returns a read error.
    public func forward(_ body: (UnsafeRawBufferPointer) -> Bool) -> String? {
        guard !finished else { return endError }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n > 0 {
                if !body(UnsafeRawBufferPointer(rebasing: chunk[0..<n])) { return nil }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return end(readError: n < 0 ? String(cString: strerror(errno)) : nil)
            }
        }
    }

    private func run() {
        if finished { tell(.ended(doc: doc, error: endError)); return }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let store = store
            flow.wait { $0.toEnd || store.count < $0.limit }
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n > 0 {
                store.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                tell(.grew(doc: doc))
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                let error = end(readError: n < 0 ? String(cString: strerror(errno)) : nil)
                close(fd)
                tell(.ended(doc: doc, error: error))
                return
            }
        }
    }
}
