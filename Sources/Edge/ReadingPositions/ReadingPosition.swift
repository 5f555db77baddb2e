import LineLayout
import MarkdownModel

/// Where the reader was, described by facts that survive re-wrapping and (most) edits.
/// Never a row: rows are only valid for one width.
///
/// `resolve(_:storedContentHash:in:)` turns it back into an `Anchor`, using the most exact
/// fact that still holds in the current document.
public struct ReadingPosition: Hashable, Sendable {
    /// The exact place in the document the position was captured in.
    public var anchor: Anchor
    /// Index of the anchor's block among the leaf blocks (0-based), the "old place" that
    /// the fingerprint search measures distance from.
    public var leafIndex: Int
    /// `StableHash.fingerprint(of:)` of the anchor block's content text.
    public var fingerprint: StableHash
    /// Titles of the enclosing headings, outermost first (a heading's own path ends with its
    /// own title). Whitespace-normalised.
    public var headingPath: [String]
    /// Which leaf of its section (leaves with the same heading path) the anchor block was,
    /// 0-based: the "old place" inside a section when only the heading path still holds.
    public var sectionIndex: Int
    /// 1-based Markdown source line of the anchor.
    public var sourceLine: Int
    /// How far through the document, 0...1.
    public var fraction: Double
    /// Large text documents (see `LargeText`): the byte offset where the anchor's line starts
    /// in the input. Nil for everything else.
    public var byteOffset: Int?

    /// Every count and offset is clamped to `0...valueLimit` (the source line to `1...`), the
    /// fraction to `0...1`: positions are read back from a file anything may have written.
    public init(anchor: Anchor, leafIndex: Int, fingerprint: StableHash, headingPath: [String],
                sectionIndex: Int, sourceLine: Int, fraction: Double, byteOffset: Int? = nil) {
        let clamp = ReadingPosition.clamp
        self.byteOffset = byteOffset.map { clamp($0, 0) }
        self.anchor = Anchor(block: BlockID(clamp(anchor.block.rawValue, 0)), offset: clamp(anchor.offset, 0),
                             ordinal: clamp(anchor.ordinal, 0))
        self.leafIndex = clamp(leafIndex, 0)
        self.fingerprint = fingerprint
        self.headingPath = headingPath
        self.sectionIndex = clamp(sectionIndex, 0)
        self.sourceLine = clamp(sourceLine, 1)
        self.fraction = ReadingPosition.clampFraction(fraction)
    }

    /// The largest count or offset a position keeps: 2^48, past any document folio can hold,
    /// and far enough below `Int.max` that the sums which place a position (a row plus an
    /// ordinal, a byte offset plus a window of lines) cannot overflow.
    public static let valueLimit = 1 << 48

    static func clamp(_ value: Int, _ lowest: Int) -> Int { min(max(lowest, value), valueLimit) }

    static func clampFraction(_ f: Double) -> Double {
        f.isNaN ? 0 : min(1, max(0, f))
    }
}

/// What folio remembers about one document.
public struct DocumentEntry: Hashable, Sendable {
    /// `DocumentKey.file(canonicalPath:)` or `DocumentKey.stdin(contentHash:)`.
    public var key: String
    /// `StableHash(bytes:)` of the document's bytes when `position` was captured.
    public var contentHash: StableHash
    /// Seconds since the epoch of the last save; newest wins when two folios merge.
    public var timestamp: Double
    public var position: ReadingPosition
    /// The position before the last jump (`''`), if any.
    public var previous: ReadingPosition?
    /// Marks set with `m<letter>`; only ASCII letters a–z, A–Z are kept.
    public var marks: [Character: ReadingPosition]

    public init(key: String, contentHash: StableHash, timestamp: Double, position: ReadingPosition,
                previous: ReadingPosition? = nil, marks: [Character: ReadingPosition] = [:]) {
        self.key = key
        self.contentHash = contentHash
        self.timestamp = timestamp
        self.position = position
        self.previous = previous
        self.marks = marks.filter { DocumentEntry.isMarkLetter($0.key) }
    }

    /// ASCII letters only: the keys `m` and `'` accept.
    public static func isMarkLetter(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return (a >= 0x61 && a <= 0x7a) || (a >= 0x41 && a <= 0x5a)
    }
}

/// How documents are named in the store.
public enum DocumentKey {
    /// A file, by its canonical absolute path (the caller resolves symlinks and `..`).
    public static func file(canonicalPath: String) -> String { canonicalPath }
    /// A piped document has no name: it is known by its content, so two different pipes
    /// never share a position and the same content piped again resumes.
    public static func stdin(contentHash: StableHash) -> String { "stdin:\(contentHash.hex)" }
}
