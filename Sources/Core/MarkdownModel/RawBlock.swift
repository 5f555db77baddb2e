/// A block exactly as cmark reports it, before the GitHub extensions are applied.
///
/// The bridge produces these in pre-order; `DocumentBuilder` turns them into `Block`s
/// (a raw paragraph may become a paragraph plus a table).
struct RawBlock {
    enum Kind {
        case document
        case blockQuote
        case list(ListInfo)
        case item
        case paragraph(Inlines)
        case heading(level: Int, Inlines)
        case codeBlock(info: String, literal: String)
        case htmlBlock(String)
        case thematicBreak
    }

    var kind: Kind
    /// Index of the parent in the raw pre-order array; -1 for the root.
    var parent: Int
    /// cmark's positions: 1-based lines, 1-based UTF-8 byte columns (0 = quirk, see NOTES).
    var startLine: Int
    var startColumn: Int
    var endLine: Int
    var endColumn: Int
}
