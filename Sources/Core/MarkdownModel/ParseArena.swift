#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A region allocator for one cmark parse (see `CmarkBridge`).
///
/// cmark allocates and frees millions of small blocks (nodes, delimiters, strings) per
/// megabyte; with glibc's malloc that costs more than the parsing itself (an arena parses
/// faster, with a lower peak of memory). The arena hands out
/// small blocks from chunks of up to 1 MiB, recycles freed ones through per-size free lists, passes
/// large ones to malloc, and releases all chunks at once in `destroy`.
///
/// Once the parse is done (`startReleasing`), nothing is recycled any more and a chunk goes
/// back to malloc as soon as its last block is freed: the bridge frees each top-level block's
/// nodes once it is converted, so the Swift model grows into the memory the tree gives back
/// instead of beside the whole tree (several times the source).
///
/// Layout of every block: a 16-byte header (payload `size`, then `1` for a large block or the
/// address of its chunk) then the payload, so payloads keep malloc's 16-byte alignment. A chunk
/// starts with a 32-byte header: the next (older) and previous chunk, the blocks alive in it.
/// The state lives behind a pointer (no Swift class): the allocator runs once per cmark
/// allocation and must not pay for reference counting or exclusivity checks.
struct ParseArena {
    private static let headerSize = 16
    private static let chunkHeaderSize = 32
    private static let smallLimit = 512
    private static let classCount = smallLimit / 16 + 1
    /// Chunks grow from 64 KiB (a table's cells need little) to 1 MiB.
    private static let firstChunkSize = 1 << 16
    private static let maxChunkSize = 1 << 20
    private var nextChunkSize = firstChunkSize

    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0
    /// The chunk `cursor` is in (never freed early: allocations may still come from it).
    private var currentChunk: UnsafeMutableRawPointer?
    /// The newest chunk: the head of the list of chunks alive.
    private var lastChunk: UnsafeMutableRawPointer?
    /// Free lists by size class (payload size / 16); each free block stores the next one.
    private let freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// After `startReleasing`: no recycling, empty chunks are freed at once.
    private var releasing = false

    private init() {
        freeLists = .allocate(capacity: Self.classCount)
        freeLists.initialize(repeating: nil, count: Self.classCount)
    }

    static func create() -> UnsafeMutablePointer<ParseArena> {
        let arena = UnsafeMutablePointer<ParseArena>.allocate(capacity: 1)
        arena.initialize(to: ParseArena())
        return arena
    }

    /// Frees every chunk and the arena itself. Large blocks still alive are not tracked:
    /// cmark frees them when the tree is freed, before this runs.
    static func destroy(_ arena: UnsafeMutablePointer<ParseArena>) {
        var chunk = arena.pointee.lastChunk
        while let current = chunk {
            chunk = next(current)
            Glibc.free(current)
        }
        arena.pointee.freeLists.deallocate()
        arena.deinitialize(count: 1)
        arena.deallocate()
    }

    // MARK: chunk headers

    private static func next(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        chunk.load(as: UnsafeMutableRawPointer?.self)
    }
    private static func previous(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        chunk.load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self)
    }
    private static func live(_ chunk: UnsafeMutableRawPointer) -> Int {
        chunk.load(fromByteOffset: 16, as: Int.self)
    }
    private static func addLive(_ chunk: UnsafeMutableRawPointer, _ delta: Int) {
        chunk.storeBytes(of: live(chunk) + delta, toByteOffset: 16, as: Int.self)
    }

    /// Takes `chunk` out of the list and frees it.
    private mutating func freeChunk(_ chunk: UnsafeMutableRawPointer) {
        let older = Self.next(chunk), newer = Self.previous(chunk)
        if let newer { newer.storeBytes(of: older, as: UnsafeMutableRawPointer?.self) } else { lastChunk = older }
        if let older { older.storeBytes(of: newer, toByteOffset: 8, as: UnsafeMutableRawPointer?.self) }
        Glibc.free(chunk)
    }

    /// The parse is over: from now on blocks are only freed (the tree, top-level block by
    /// top-level block), and each chunk is given back when its last block goes.
    mutating func startReleasing() {
        releasing = true
        for c in 0..<Self.classCount { freeLists[c] = nil }
        var chunk = lastChunk
        while let current = chunk {
            chunk = Self.next(current)
            if Self.live(current) == 0 && current != currentChunk { freeChunk(current) }
        }
    }

    // MARK: blocks

    mutating func allocate(_ count: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
        let size = max(16, (count + 15) & ~15)
        if size > Self.smallLimit {
            guard let base = zeroed ? Glibc.calloc(1, size + Self.headerSize) : Glibc.malloc(size + Self.headerSize) else { return nil }
            base.storeBytes(of: size, as: Int.self)
            base.storeBytes(of: 1, toByteOffset: 8, as: Int.self)
            return base + Self.headerSize
        }
        let sizeClass = size >> 4
        let payload: UnsafeMutableRawPointer
        if !releasing, let free = freeLists[sizeClass] {
            freeLists[sizeClass] = free.load(as: UnsafeMutableRawPointer?.self)
            payload = free
            Self.addLive((free - Self.headerSize).load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self), 1)
        } else {
            if remaining < size + Self.headerSize {
                let chunkSize = nextChunkSize
                nextChunkSize = min(Self.maxChunkSize, chunkSize * 2)
                guard let chunk = Glibc.malloc(chunkSize) else { return nil }
                chunk.storeBytes(of: lastChunk, as: UnsafeMutableRawPointer?.self)
                chunk.storeBytes(of: nil, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
                chunk.storeBytes(of: 0, toByteOffset: 16, as: Int.self)
                if let lastChunk { lastChunk.storeBytes(of: chunk, toByteOffset: 8, as: UnsafeMutableRawPointer?.self) }
                lastChunk = chunk
                currentChunk = chunk
                cursor = chunk + Self.chunkHeaderSize
                remaining = chunkSize - Self.chunkHeaderSize
            }
            let base = cursor!
            cursor = base + size + Self.headerSize
            remaining -= size + Self.headerSize
            base.storeBytes(of: size, as: Int.self)
            base.storeBytes(of: currentChunk!, toByteOffset: 8, as: UnsafeMutableRawPointer.self)
            Self.addLive(currentChunk!, 1)
            payload = base + Self.headerSize
        }
        if zeroed { payload.initializeMemory(as: UInt8.self, repeating: 0, count: size) }
        return payload
    }

    mutating func reallocate(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(count, zeroed: false) }
        let base = pointer - Self.headerSize
        let size = base.load(as: Int.self)
        if base.load(fromByteOffset: 8, as: Int.self) == 1, count > Self.smallLimit {
            let newSize = (count + 15) & ~15
            guard let grown = Glibc.realloc(base, newSize + Self.headerSize) else { return nil }
            grown.storeBytes(of: newSize, as: Int.self)
            return grown + Self.headerSize
        }
        if count <= size { return pointer }
        guard let moved = allocate(count, zeroed: false) else { return nil }
        moved.copyMemory(from: pointer, byteCount: size)
        release(pointer)
        return moved
    }

    mutating func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let base = pointer - Self.headerSize
        if base.load(fromByteOffset: 8, as: Int.self) == 1 {
            Glibc.free(base)
            return
        }
        let chunk = base.load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
        Self.addLive(chunk, -1)
        if releasing {
            if Self.live(chunk) == 0 && chunk != currentChunk { freeChunk(chunk) }
            return
        }
        let sizeClass = base.load(as: Int.self) >> 4
        pointer.storeBytes(of: freeLists[sizeClass], as: UnsafeMutableRawPointer?.self)
        freeLists[sizeClass] = pointer
    }
}

/// The arena of the parse running on this thread (cmark's allocator callbacks take no context).
enum CurrentArena {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    static var arena: UnsafeMutablePointer<ParseArena> {
        pthread_getspecific(key).unsafelyUnwrapped.assumingMemoryBound(to: ParseArena.self)
    }

    /// Runs `body` with a fresh arena installed for this thread, then destroys the arena.
    /// Nests: the previous arena is restored.
    static func withNewArena<R>(_ body: () -> R) -> R {
        let arena = ParseArena.create()
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, arena)
        defer {
            pthread_setspecific(key, previous)
            ParseArena.destroy(arena)
        }
        return body()
    }
}
