/// An append-only array kept as full chunks of `chunkSize` elements, never changed once
/// full, and a tail being filled: the storage of a text's line index (`TextLineIndex`), which
/// the edge advances while the pager holds snapshots of it.
///
/// Why chunks: a snapshot is a copy of the value, and a plain array shared with a snapshot
/// is copied whole by the next append (copy on write). 1 GB of short lines keeps millions of
/// group starts, so each of the four snapshots a second would copy tens of megabytes. Here
/// the next append after a snapshot copies only the tail (at most `chunkSize` elements) and,
/// when a chunk fills, the array of chunk references (one per `chunkSize` elements): the
/// full chunks themselves are shared by every snapshot and never copied. A value type, so
/// snapshots are plain immutable values that any thread reads, with no lock and a `Sendable`
/// the compiler checks (a shared append-only buffer read up to each snapshot's count would
/// need a lock or a conformance it cannot check, which only `Threads` may declare, and its
/// growth would have to keep every buffer a reader might still hold).
struct ChunkedArray<Element: Sendable>: Sendable {
    static var chunkShift: Int { 12 }
    /// Elements per full chunk.
    static var chunkSize: Int { 1 << chunkShift }

    private(set) var chunks: [ContiguousArray<Element>] = []
    private var tail: ContiguousArray<Element> = []

    init() {}

    var count: Int { chunks.count << Self.chunkShift + tail.count }
    var isEmpty: Bool { count == 0 }
    var last: Element? { tail.last ?? chunks.last?.last }

    subscript(i: Int) -> Element {
        let c = i >> Self.chunkShift
        return c == chunks.count ? tail[i & (Self.chunkSize - 1)] : chunks[c][i & (Self.chunkSize - 1)]
    }

    mutating func append(_ element: Element) {
        if tail.isEmpty { tail.reserveCapacity(Self.chunkSize) }
        tail.append(element)
        guard tail.count == Self.chunkSize else { return }
        // Sealed at its exact size (a tail copied on write may have grown beyond it).
        chunks.append(tail.capacity == Self.chunkSize ? tail : ContiguousArray(tail))
        tail = []
    }

    /// Bytes held (for tests and the benchmark's account).
    var bytesHeld: Int {
        (chunks.count * Self.chunkSize + tail.capacity) * MemoryLayout<Element>.stride
            + chunks.capacity * MemoryLayout<ContiguousArray<Element>>.stride
    }
}
