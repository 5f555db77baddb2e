import MarkdownModel

extension Document {
    /// The leaf blocks (paragraphs, headings, code, HTML, breaks, tables) in document order:
    /// the blocks that the layout turns into rows.
    var leafBlocks: [BlockID] { blocks.compactMap { $0.kind.isLeaf ? $0.id : nil } }
}
