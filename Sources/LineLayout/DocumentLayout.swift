import MarkdownModel

/// The whole document laid out at one width: every leaf block's rows, with a row index.
///
/// Immutable once built. Row lookups are O(log blocks); nothing here walks the whole document
/// per call except `init`. (STUB: the layout engine fills this in.)
public final class DocumentLayout: Sendable {
    public let document: Document
    public let options: LayoutOptions
    /// Leaf blocks in document order, with their rows.
    public let blocks: [BlockLayout]

    public init(document: Document, options: LayoutOptions) {
        fatalError("stub")
    }

    public var width: Int { options.width }
    /// Total number of visual rows.
    public var rowCount: Int { fatalError("stub") }
    public func line(at row: Int) -> VisualLine { fatalError("stub") }
    /// Index into `blocks` of the block that owns `row`.
    public func blockIndex(atRow row: Int) -> Int { fatalError("stub") }
    /// Index into `blocks` of a leaf block, nil for container blocks.
    public func blockIndex(of block: BlockID) -> Int? { fatalError("stub") }
    /// Rows of a block; for a container block, the rows of all its leaf descendants.
    public func rows(of block: BlockID) -> Range<Int> { fatalError("stub") }
    /// Rows that show any of `contentRange` of a leaf block.
    public func rows(showing contentRange: Range<Int>, in block: BlockID) -> Range<Int> { fatalError("stub") }
    public func anchor(atRow row: Int) -> Anchor { fatalError("stub") }
    /// The row an anchor stands on at this width; a stale anchor maps to the nearest row.
    public func row(for anchor: Anchor) -> Int { fatalError("stub") }
    /// First row showing source line `line` (or the nearest line after it).
    public func row(forSourceLine line: Int) -> Int { fatalError("stub") }
}
