/// The bytes of one input as a text document reads them: a count that only grows (until the
/// input starts over), and ranges of it read in place or copied. The edge owns where the
/// bytes come from and how they arrive (`ByteInput.ByteStore`: a file read where asked, or a
/// pipe's chunks); layout only reads.
///
/// Reads may come from any thread while the source grows: a conforming type makes each read
/// see one consistent state. A range past what the source holds now (a file that shrank)
/// reads only the bytes it still has: pieces stop early, copies come back short.
public protocol ByteSource: Sendable {
    /// Bytes held.
    var count: Int { get }

    /// Calls `body` with the bytes of `range` in contiguous pieces, in order, each with the
    /// offset it starts at; a piece is valid only during its call. `body` returns false to stop.
    func forEachPiece(in range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) -> Bool)

    /// A copy of the bytes of `range` (shorter when the source no longer has them all).
    func bytes(_ range: Range<Int>) -> [UInt8]
}

extension ByteSource {
    public func bytes(_ range: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        forEachPiece(in: range) { piece, _ in out.append(contentsOf: piece); return true }
        return out
    }
}

/// Bytes held whole in memory, complete: a document made in the core (a status screen's empty
/// text) or a test's input.
public struct FixedBytes: ByteSource {
    public let all: [UInt8]

    public init(_ all: [UInt8] = []) { self.all = all }

    public var count: Int { all.count }

    public func forEachPiece(in range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) -> Bool) {
        let range = range.clamped(to: 0..<all.count)
        guard !range.isEmpty else { return }
        all.withUnsafeBytes { _ = body(UnsafeRawBufferPointer(rebasing: $0[range]), range.lowerBound) }
    }
}
