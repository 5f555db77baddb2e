import LineLayout
import MarkdownModel
import Pager
import TerminalScreen

/// Print mode: a laid-out document as text for standard output, the way less acts like cat.
public enum PrintRenderer {
    /// Print mode for a whole Markdown source: parse, lay out, render. The output is the
    /// concatenation of the returned byte arrays (not joined, which would copy it once more).
    ///
    /// A large source is cut by `ChunkPlan` and each piece is parsed, laid out and rendered on
    /// its own, on all cores; only the rendered bytes are kept. The output is byte for byte
    /// the output of one parse (tested); when a piece cannot be proven to parse as it does in
    /// the whole source, the whole source is done in one piece.
    public static func render(source: [UInt8], options: LayoutOptions, theme: Theme?) -> [[UInt8]] {
        let theme = theme.map { printTheme($0, width: options.width) }
        if source.count >= MarkdownParser.piecewiseBytes,
           let plan = ChunkPlan(source, targetBytes: MarkdownParser.pieceBytes) {
            let whole = plan.hasFootnotes || plan.hasFrontMatter
            if !whole, let pieces = renderPieces(source, plan: plan, options: options, theme: theme) {
                return pieces
            }
            // Footnotes are numbered and gathered over the whole document, and front matter is
            // a block in front of the pieces: parsed in pieces, then laid out and rendered as
            // one document (on all cores too).
            if whole, let document = plan.document(of: source, packed: false, executor: options.executor) {
                return renderRuns(document, options: options, theme: theme)
            }
        }
        let document = MarkdownParser.parse(source, options: ParseOptions(inPieces: false, packed: false, executor: options.executor)).document
        return renderRuns(document, options: options, theme: theme)
    }

    /// The pieces of `plan` parsed, laid out and rendered (all cores, refused cuts healed by
    /// `ChunkPlan.run`), or nil when the source must be done whole.
    static func renderPieces(_ source: [UInt8], plan: ChunkPlan, options: LayoutOptions, theme: Theme?) -> [[UInt8]]? {
        guard let pieces = plan.run(on: options.executor, { chunk in
            plan.parse(chunk, of: source, packed: false).map { document in
                render(document, options: options, theme: theme, parallel: false)
            }
        }) else { return nil }
        var result: [[UInt8]] = []
        result.reserveCapacity(2 * pieces.count)
        for bytes in pieces where !bytes.isEmpty {
            // Pieces meet between two top-level blocks: one blank separator row, as in one layout.
            if !result.isEmpty { result.append([0x0A]) }
            result.append(bytes)
        }
        return result
    }

    /// The rendered rows, one per line. With `theme == nil` no escape sequence is written at all
    /// (`--plain`, or output that is not a terminal); trailing blanks are dropped either way.
    /// (Large sources reach the cores through `render(source:)`'s pieces, so this stays one
    /// loop: it serves `-F`, small documents and sources that must be done whole.)
    public static func render(_ layout: DocumentLayout, theme: Theme?) -> [UInt8] {
        let theme = theme.map { printTheme($0, width: layout.width) }
        var bytes: [UInt8] = []
        var sgr = SGRCache()
        for u in layout.unitRange {
            // Each unit's own rows, not `lines(ofUnit:)`: a text layout's counts may still be
            // estimates from byte lengths, which cut or pad lines of tabs, controls or wide text.
            for line in layout.unit(u).lines {
                appendLine(line, theme: theme, to: &bytes, sgr: &sgr, pictures: layout.options.pictures)
            }
        }
        return bytes
    }

    /// A Markdown document laid out and rendered unit by unit (on several threads when
    /// `parallel` allows; otherwise each unit's rows are dropped once written).
    public static func render(_ document: Document, options: LayoutOptions, theme: Theme?, parallel: Bool? = nil) -> [UInt8] {
        let theme = theme.map { printTheme($0, width: options.width) }
        var bytes: [UInt8] = []
        var sgr = SGRCache()
        // On one thread, rows are written as they are made: a paragraph's rows are never all kept.
        MarkdownContent.forEachRow(document, options: options, parallel: parallel) { line in
            appendLine(line, theme: theme, to: &bytes, sgr: &sgr, pictures: options.pictures)
        }
        return bytes
    }

    /// A document's rendered rows as `render(_:options:theme:)` writes them, in runs of units
    /// laid out and rendered on all cores (a large document parsed whole: each run holds only
    /// its bytes, and the rows are not first all laid out and then written by one thread).
    public static func renderRuns(_ document: Document, options: LayoutOptions, theme: Theme?) -> [[UInt8]] {
        let theme = theme.map { printTheme($0, width: options.width) }
        struct Run { var bytes: [UInt8] = []; var sgr = SGRCache() }
        return MarkdownContent.mapRowRuns(document, options: options, start: { Run() }, row: { run, line in
            appendLine(line, theme: theme, to: &run.bytes, sgr: &run.sgr, pictures: options.pictures)
        }).map(\.bytes)
    }

    /// Rows a wrapped link may cover and still repeat its URL on each: beyond, the URL is
    /// not written (the text stays, underlined).
    static let hyperlinkRowsPerURLLength = 32

    /// `theme` for print output at `width` columns. Each row of a link opens its own OSC 8
    /// hyperlink (one per row, the URL once), so a link whose text wraps over many rows writes
    /// its URL many times; a URL longer than `32 × width` bytes (and than 2 KB at any width)
    /// is not made a hyperlink, which keeps the output within a constant factor of the
    /// input (≤ 32 bytes of URL per byte of link text, tested).
    static func printTheme(_ theme: Theme, width: Int) -> Theme {
        var theme = theme
        theme.maxHyperlinkBytes = min(theme.maxHyperlinkBytes, hyperlinkRowsPerURLLength * max(1, width))
        return theme
    }

    @inline(__always)
    static func appendUTF8(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }


    /// SGR sequences already encoded, by (from, to) style without the hyperlink: a document
    /// uses a handful of styles, and encoding each change anew was a fifth of colour output.
    struct SGRCache {
        struct Change: Hashable { var from: CellStyle; var to: CellStyle }
        private var encoded: [Change: [UInt8]] = [:]
        mutating func sgr(from: CellStyle, to: CellStyle) -> [UInt8] {
            var change = Change(from: from, to: to)
            change.from.hyperlink = nil; change.to.hyperlink = nil
            if let bytes = encoded[change] { return bytes }
            let bytes = ANSI.sgr(from: change.from, to: change.to)
            encoded[change] = bytes
            return bytes
        }
    }

    static func appendLine(_ line: VisualLine, theme: Theme?, to out: inout [UInt8]) {
        var sgr = SGRCache()
        appendLine(line, theme: theme, to: &out, sgr: &sgr)
    }

    /// `pictures`: with a graphics protocol, a picture is drawn over its blank rows: kitty's at
    /// the start of its first row, where it leaves the cursor (the rows that follow are written
    /// as usual, and the terminal scrolls the picture with them); sixel and iTerm2's once its
    /// last row is written (`PictureShow.inlineBytes(after:)`).
    static func appendLine(_ line: VisualLine, theme: Theme?, to out: inout [UInt8], sgr: inout SGRCache,
                           pictures: PictureShow? = nil) {
        if theme != nil, let shown = pictures?.inlineBytes(before: line) {
            out += [0x0D]
            if line.picture!.column > 0 { out += Array("\u{1B}[\(line.picture!.column)C".utf8) }
            out += shown
            out += [0x0D]
        }
        if theme == nil {
            // Plain text: append, then drop the trailing blanks from the bytes written.
            let start = out.count
            for span in line.spans { appendUTF8(span.text, to: &out) }
            var end = out.count
            while end > start, out[end - 1] == 0x20 { end -= 1 }
            out.removeLast(out.count - end)
            out.append(0x0A)
            return
        }
        // Drop trailing blanks (padding of the last span), keeping styled text intact.
        var spans = line.spans
        while let last = spans.last {
            let trimmed = last.text.trimmingTrailingSpaces()
            if trimmed.isEmpty { spans.removeLast(); continue }
            spans[spans.count - 1].text = trimmed
            break
        }
        guard let theme else {
            for span in spans { appendUTF8(span.text, to: &out) }
            out.append(0x0A)
            return
        }
        var current = CellStyle.plain
        for span in spans {
            let style = theme.style(for: span.style)
            if style != current {
                if style.hyperlink != current.hyperlink { out.append(contentsOf: ANSI.hyperlink(style.hyperlink)) }
                out.append(contentsOf: sgr.sgr(from: current, to: style))
                current = style
            }
            appendUTF8(span.text, to: &out)
        }
        if current.hyperlink != nil { out.append(contentsOf: ANSI.hyperlink(nil)) }
        if current != .plain { out.append(contentsOf: sgr.sgr(from: current, to: .plain)) }
        out.append(0x0A)
        if let drawn = pictures?.inlineBytes(after: line) {
            // The cursor saved below the picture's rows, moved up over them, the picture
            // drawn there (nothing scrolls: its rows are on the screen), the cursor restored.
            out += [0x1B, 0x37] + Array("\u{1B}[\(drawn.rows)A".utf8)
            if drawn.column > 0 { out += Array("\u{1B}[\(drawn.column)C".utf8) }
            out += drawn.bytes + [0x1B, 0x38]
        }
    }
}

extension String {
    /// Without its trailing space bytes: the same rule as plain output, which trims the bytes
    /// it wrote (a space is dropped even where a preceding prepend mark joined it into one
    /// Character).
    func trimmingTrailingSpaces() -> String {
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            if bytes[before] == 0x20 { end = before } else { break }
        }
        return String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
    }
}

