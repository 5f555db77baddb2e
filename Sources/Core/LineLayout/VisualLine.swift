import Threads
import MarkdownModel
import Styling

/// What a span of a visual line is, semantically. The theme (in Pager) maps it to colours;
/// with no colour, structure must still show through text decorations and bold/underline.
public struct SpanStyle: Hashable, Sendable {
    public enum Role: Hashable, Sendable {
        case body
        /// Text of a heading of the given level (1...6), including its marker decoration.
        case heading(Int)
        /// Verbatim text of a code block.
        case codeBlock
        /// The info-string label of a code block (`rust`, `sh`…).
        case codeLabel
        /// The mark drawn where a code line wraps (`↩`/`↪`).
        case continuation
        case quoteBar
        case listMarker
        case taskBox(checked: Bool)
        /// Thematic break, and heading underlines.
        case rule
        case tableBorder
        case tableHeader
        /// Raw HTML, shown as written, dimmed.
        case html
        /// A URL shown as text: `(url)` after a link in plain output, an image's URL.
        case url
        /// Image label `[image: alt]`.
        case image
        /// The bar of a GitHub alert (`> [!NOTE]`), coloured by its kind.
        case alertBar(AlertKind)
        /// An alert's title row (`ℹ Note`).
        case alertTitle(AlertKind)
        /// The summary line of an HTML `<details>`, with its `▼` mark.
        case summary
        /// Front matter lines (YAML/TOML metadata), shown dim.
        case frontMatter
    }

    public struct Emphasis: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let emphasis = Emphasis(rawValue: 1 << 0)
        public static let strong = Emphasis(rawValue: 1 << 1)
        public static let code = Emphasis(rawValue: 1 << 2)
        public static let strikethrough = Emphasis(rawValue: 1 << 3)
    }

    public var role: Role
    public var emphasis: Emphasis
    /// Destination of the link this span is part of (for OSC 8 and following links).
    public var link: String?
    /// What a syntax highlighter says this piece of code is (code blocks, highlighted text).
    public var syntax: SyntaxRole?
    /// Colours and attributes written in a text document itself (SGR, overstrike): shown as
    /// written, on top of the role's style.
    public var literal: TextAttributes?

    public init(role: Role = .body, emphasis: Emphasis = [], link: String? = nil,
                syntax: SyntaxRole? = nil, literal: TextAttributes? = nil) {
        self.role = role; self.emphasis = emphasis; self.link = link
        self.syntax = syntax; self.literal = literal
    }
}

/// A run of text with one style on one visual line.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: SpanStyle
    /// Display width in terminal columns.
    public var width: Int
    /// UTF-8 offset in the block's content text (`BlockLayout.text`) of this span's first
    /// character, or nil when the span is decoration (bars, bullets, borders, padding).
    public var contentOffset: Int?

    public init(text: String, style: SpanStyle, width: Int, contentOffset: Int? = nil) {
        self.text = text; self.style = style; self.width = width; self.contentOffset = contentOffset
    }
}

/// One row of the rendered document at a given width.
public struct VisualLine: Hashable, Sendable {
    public var spans: [Span]
    /// The leaf block this row belongs to. Blank separator rows belong to the block above them.
    public var block: BlockID
    /// UTF-8 offsets into the block's content text of the characters shown on this row;
    /// empty (at the offset where it stands) for rows that show no content text. Lower bounds
    /// never decrease within a block. The rows of one table row (which show pieces of several
    /// cells) all have that table row's whole range, told apart by `Anchor.ordinal`.
    public var range: Range<Int>
    /// 1-based source line of the Markdown this row comes from.
    public var sourceLine: Int
    /// Display width in columns; never more than the layout width.
    public var width: Int
    /// A row of a picture (`LayoutOptions.pictures`): which, and where on the row; a graphics
    /// protocol draws it over the row's blank cells.
    public var picture: PictureRow?

    public init(spans: [Span], block: BlockID, range: Range<Int>, sourceLine: Int, width: Int,
                picture: PictureRow? = nil) {
        self.spans = spans; self.block = block; self.range = range
        self.sourceLine = sourceLine; self.width = width; self.picture = picture
    }

    /// The row as plain text (decorations included), as the reader sees it.
    public var plainText: String { spans.map(\.text).joined() }
}

/// A link inside a block's content text.
public struct LinkTarget: Hashable, Sendable {
    public var destination: String
    /// UTF-8 range of the link's text within the block's content text.
    public var range: Range<Int>
    public init(destination: String, range: Range<Int>) { self.destination = destination; self.range = range }
}

/// The rows of one leaf block at one width.
public struct BlockLayout: Sendable {
    public var block: BlockID
    /// The block's content text: what the reader reads, without Markdown syntax or decoration.
    /// Link text (not URL), image alt text, code verbatim (lines joined by `\n`, TABs expanded
    /// to the next multiple of 4 columns), table cells separated by `\t` and rows by `\n`,
    /// soft breaks as a space, hard breaks as `\n`. Control characters appear in the caret
    /// notation that is shown (`^[`, `^?`, `M-^[`). Search matches against this; anchors are
    /// offsets into it.
    public var text: String
    public var links: [LinkTarget]
    public var lines: [VisualLine]

    public init(block: BlockID, text: String, links: [LinkTarget], lines: [VisualLine]) {
        self.block = block; self.text = text; self.links = links; self.lines = lines
    }
}

/// A position in the document that survives re-layout at another width: the leaf block, the
/// UTF-8 offset (in the block's content text) of the first character on the row, and, among
/// rows of the block that start at that same offset (decoration rows, separators, table rows),
/// which one (0-based).
public struct Anchor: Hashable, Sendable, Codable {
    public var block: BlockID
    public var offset: Int
    public var ordinal: Int
    public init(block: BlockID, offset: Int, ordinal: Int = 0) {
        self.block = block; self.offset = offset; self.ordinal = ordinal
    }
}

/// How a document is laid out.
public struct LayoutOptions: Hashable, Sendable {
    /// Columns available; at least 1.
    public var width: Int
    /// Plain-text output (no escape sequences): show a link's URL as ` (url)` after its text,
    /// unless the URL equals the text, and keep `~~` around struck-out text (decoration, not
    /// content), which plain text cannot otherwise show.
    public var inlineLinkURLs: Bool
    /// Text documents: cut long lines at the width instead of wrapping them (less's `-S`).
    /// Markdown prose is always wrapped; a table too wide for the width keeps its natural
    /// grid, cut at the width (`TableLayouter.chop`), instead of narrowing.
    public var chopLongLines: Bool
    /// With chopped lines (text) or tables (Markdown): columns scrolled to the right (`→`, `←`).
    public var horizontalShift: Int
    /// Syntax highlighting of fenced code (nil: code as written, one style). Never changes
    /// rows or their text, only the spans' `syntax`.
    public var highlighter: CodeHighlighter?

    /// Markdown prose (paragraphs, headings, lists, quotes, rules) at most this many columns
    /// (`--max-width`); nil or 0: the whole width. Top-level code blocks, tables, HTML blocks
    /// and front matter may still use the whole width from the prose's left edge.
    public var maxProseWidth: Int?
    /// With `maxProseWidth`: centre the reading column in the width (`--align center`)
    /// instead of starting it at the left edge.
    public var centerProse: Bool
    /// Output without colour (`NO_COLOR`, `--color=never`, `--plain`, a pipe): inline code
    /// keeps its backticks (decoration, not content), as GitHub's plain view shows it; in one
    /// style with the prose it could not be told apart.
    public var markInlineCode: Bool
    /// Images as pictures (nil: each image is its placeholder, `[image: alt]`). Changes rows.
    public var pictures: PictureShow?
    /// The threads layout may use for many units (passed in by the edge; never changes rows).
    public var executor: Executor

    public init(width: Int, inlineLinkURLs: Bool = false, chopLongLines: Bool = false, horizontalShift: Int = 0,
                maxProseWidth: Int? = nil, centerProse: Bool = false, highlighter: CodeHighlighter? = nil,
                markInlineCode: Bool = false, pictures: PictureShow? = nil, executor: Executor = .machine) {
        self.pictures = pictures
        self.executor = executor
        self.width = max(1, width); self.inlineLinkURLs = inlineLinkURLs; self.markInlineCode = markInlineCode
        self.chopLongLines = chopLongLines; self.horizontalShift = max(0, horizontalShift)
        self.maxProseWidth = maxProseWidth; self.centerProse = centerProse
        self.highlighter = highlighter
    }

    /// These options without the highlighter and the executor, which never change rows: two
    /// options with the same `rowsKey` give every unit the same row count.
    public var rowsKey: LayoutOptions { var o = self; o.highlighter = nil; o.executor = .serial; return o }

    /// Where a Markdown unit's column starts (`margin`) and how wide it is: prose is capped at
    /// `maxProseWidth`, `wide` units (top-level code, tables) run to the right edge.
    public func column(wide: Bool) -> (margin: Int, width: Int) {
        guard let cap = maxProseWidth, cap > 0, cap < width else { return (0, width) }
        let margin = centerProse ? (width - cap) / 2 : 0
        return (margin, wide ? width - margin : cap)
    }
}
