import CellWidth
import MarkdownModel
import Styling

/// Decoration in front of every row of a leaf: quote bars and list markers of its containers.
/// `first` goes on the leaf's first row (a list item's bullet), `other` on the rest (the
/// hanging indent). Both are `width` columns wide.
struct Prefix {
    var first: [Span] = []
    var other: [Span] = []
    var width = 0

    /// The same prefix `margin` columns to the right (the reading column's left margin).
    /// `drawingOnly`: a prefix that draws nothing (a blank separator row) stays empty.
    func indented(_ margin: Int, drawingOnly: Bool = false) -> Prefix {
        guard margin > 0, !(drawingOnly && first.isEmpty && other.isEmpty) else { return self }
        let pad = Span(text: String(repeating: " ", count: margin), style: SpanStyle(), width: margin)
        return Prefix(first: [pad] + first, other: [pad] + other, width: width + margin)
    }
}

/// Collects a leaf's rows, putting its container prefix in front of each.
struct RowSink {
    let block: BlockID
    let prefix: Prefix
    var lines: [VisualLine] = []
    /// Rows added so far (kept in `lines`, or streamed).
    private(set) var count = 0
    /// When set, each row goes here as it is made and `lines` stays empty: print mode writes
    /// rows out as they come (a 10 MB paragraph at width 1 is 10 million rows).
    let stream: ((VisualLine) -> Void)?
    /// Whether a content row has taken `prefix.first` (a title row above the content does not).
    private var startedContent = false

    init(block: BlockID, prefix: Prefix, stream: ((VisualLine) -> Void)? = nil) {
        self.block = block; self.prefix = prefix; self.stream = stream
    }

    /// Lead spans for the next row (the prefix), to build a row's spans in place.
    var lead: [Span] { startedContent ? prefix.other : prefix.first }

    mutating func append(_ line: VisualLine) {
        count += 1
        if let stream { stream(line) } else { lines.append(line) }
    }

    /// Adds a row whose spans already start with `lead`; `width` is the content's width.
    mutating func add(prefixed spans: [Span], width: Int, range: Range<Int>, sourceLine: Int, picture: PictureRow? = nil) {
        append(VisualLine(spans: spans, block: block, range: range, sourceLine: sourceLine,
                          width: prefix.width + width, picture: picture))
        startedContent = true
    }

    /// Adds a row with its own prefix, above the content (an alert's title).
    mutating func addTitle(_ spans: [Span], width: Int, sourceLine: Int) {
        append(VisualLine(spans: spans, block: block, range: 0..<0, sourceLine: sourceLine, width: width))
    }

    /// Adds the rows of `flow` wrapped at `width`, with the container prefix in front.
    mutating func add(_ flow: Flow, width: Int, firstSourceLine: Int) {
        flow.forEachLine(width: width, leadFirst: lead, leadOther: prefix.other) { l in
            add(prefixed: l.spans, width: l.width, range: l.range, sourceLine: firstSourceLine + l.sourceLineOffset)
        }
    }

    mutating func add(_ content: [Span], width: Int, range: Range<Int>, sourceLine: Int) {
        var spans = lead
        if spans.isEmpty { spans = content } else { spans.append(contentsOf: content) }
        append(VisualLine(spans: spans, block: block, range: range, sourceLine: sourceLine,
                          width: prefix.width + width))
        startedContent = true
    }
}

extension BlockKind {
    /// Top-level blocks that may run past `--max-width` to the right edge: their lines are
    /// not reflowed, so a narrower column would only wrap or squeeze them.
    var mayUseFullWidth: Bool {
        switch self {
        case .codeBlock, .table, .htmlBlock, .frontMatter: return true
        default: return false
        }
    }
}

/// Lays out one leaf block: a pure function of the block, its container prefix, the separator
/// row that follows it, and the options.
///
/// Decorations, all without colour:
/// - heading 1: text, then a `═` rule row as wide as the column; heading 2: the same with `─`;
///   headings 3–6: `### ` … `###### ` before the text, wrapped lines hang under the text.
/// - code block: `[info]` label row; code indented by a 2-column margin when the column is at
///   least 12 wide; a line too long wraps between graphemes and its continuation rows start
///   with `↪` (in the margin when there is one).
/// - HTML block: verbatim, wrapped like code (no label, no margin).
/// - thematic break: a `─` rule across the column.
/// - alert: the first leaf of a GitHub alert gets a title row above it (`ℹ Note`), drawn
///   with `title`'s prefix (the alert's bar and what is outside it).
/// - summary (`<details>`): `▼ ` before the text, wrapped lines hang under the text.
/// - front matter: its lines verbatim (dim), wrapped like code.
enum BlockLayouter {
    static let codeMargin = 2
    static let codeMarginMinimumWidth = 12

    /// The mark of each alert kind, one column wide in text presentation.
    static func alertMark(_ kind: AlertKind) -> String {
        switch kind {
        case .note: return "ℹ"
        case .tip: return "★"
        case .important: return "‼"
        case .warning: return "⚠"
        case .caution: return "✖"
        }
    }

    /// With `stream`, rows go there as they are made and the returned layout has no lines.
    static func layout(_ block: Block, prefix: Prefix, separator: Prefix?, options: LayoutOptions,
                       title: (kind: AlertKind, prefix: Prefix)? = nil,
                       syntax: SyntaxSource? = nil, pictures: PictureSource? = nil,
                       stream: ((VisualLine) -> Void)? = nil) -> BlockLayout {
        let avail = max(1, options.width - prefix.width)
        var sink = RowSink(block: block.id, prefix: prefix, stream: stream)
        if let title {
            let room = max(1, options.width - title.prefix.width)
            let text = truncated(alertMark(title.kind) + " " + title.kind.title, to: room)
            let w = CellWidth.of(text)
            sink.addTitle(title.prefix.first + [Span(text: text, style: SpanStyle(role: .alertTitle(title.kind)), width: w)],
                          width: title.prefix.width + w, sourceLine: block.source.first)
        }
        var text = ""
        var links: [LinkTarget] = []
        let first = block.source.first
        switch block.kind {
        case .paragraph(let inlines):
            let shape = ImageParagraph.shape(inlines)
            if case .pictures(let refs)? = shape, let show = options.pictures {
                (text, links) = PictureLayouter.layout(refs, avail: avail, firstLine: first,
                                                       pictures: pictures ?? show.direct, into: &sink)
                break
            }
            let flow: Flow
            if case .badges(let refs)? = shape {
                flow = Flow(badges: refs, base: SpanStyle(), inlineLinkURLs: options.inlineLinkURLs)
            } else {
                flow = Flow(inlines, base: SpanStyle(), inlineLinkURLs: options.inlineLinkURLs,
                            markInlineCode: options.markInlineCode)
            }
            sink.add(flow, width: avail, firstSourceLine: first)
            text = flow.text; links = flow.links
        case .heading(let level, let inlines):
            let flow = Flow(inlines, base: SpanStyle(role: .heading(level)), inlineLinkURLs: options.inlineLinkURLs,
                            markInlineCode: options.markInlineCode)
            heading(level: level, flow: flow, avail: avail, block: block, into: &sink)
            text = flow.text; links = flow.links
        case .codeBlock(let info, let literal, let fenced):
            let margin = avail >= codeMarginMinimumWidth ? codeMargin : 0
            var label: String? = nil
            if let word = info.split(separator: " ", omittingEmptySubsequences: true).first {
                label = "[" + String(word) + "]"
            }
            let runs = fenced ? syntax?(block.id, info, literal) : nil
            text = verbatim(literal, role: .codeBlock, label: label, margin: margin, avail: avail,
                            firstLine: first + (fenced ? 1 : 0), labelLine: first, syntax: runs, into: &sink)
        case .htmlBlock(let html):
            text = verbatim(html, role: .html, label: nil, margin: 0, avail: avail,
                            firstLine: first, labelLine: first, into: &sink)
        case .thematicBreak:
            sink.add([Span(text: repeated("─", count: avail), style: SpanStyle(role: .rule), width: avail)],
                     width: avail, range: 0..<0, sourceLine: first)
        case .table(let table):
            (text, links) = TableLayouter.layout(table, block: block, avail: avail, options: options, into: &sink)
        case .summary(let inlines):
            let style = SpanStyle(role: .summary)
            let flow = Flow(inlines, base: style, inlineLinkURLs: options.inlineLinkURLs,
                            markInlineCode: options.markInlineCode)
            let markWidth = 2
            if avail >= 2 * markWidth {
                let mark = Span(text: "▼ ", style: style, width: markWidth)
                let indent = Span(text: "  ", style: style, width: markWidth)
                for l in flow.lines(width: avail - markWidth, leadFirst: sink.lead + [mark], leadOther: prefix.other + [indent]) {
                    sink.add(prefixed: l.spans, width: markWidth + l.width, range: l.range, sourceLine: first + l.sourceLineOffset)
                }
            } else {
                sink.add(flow, width: avail, firstSourceLine: first)
            }
            text = flow.text; links = flow.links
        case .frontMatter(let literal, _):
            text = verbatim(literal, role: .frontMatter, label: nil, margin: 0, avail: avail,
                            firstLine: first + 1, labelLine: first, into: &sink)
        case .document, .blockQuote, .alert, .list, .item:
            break  // a container without children: one row with its decoration only
        }
        if sink.count == 0 || (title != nil && sink.count == 1 && block.kind.isLeaf) {
            sink.add([], width: 0, range: 0..<0, sourceLine: first)
        }
        if let separator {
            let end = text.utf8.count
            sink.append(VisualLine(spans: separator.other, block: block.id, range: end..<end,
                                         sourceLine: block.source.last, width: separator.width))
        }
        return BlockLayout(block: block.id, text: text, links: links, lines: sink.lines)
    }

    static func heading(level: Int, flow: Flow, avail: Int, block: Block, into sink: inout RowSink) {
        let style = SpanStyle(role: .heading(level))
        let first = block.source.first
        if level <= 2 {
            sink.add(flow, width: avail, firstSourceLine: first)
            let end = flow.text.utf8.count
            let rule = repeated(level == 1 ? "═" : "─", count: avail)
            sink.add([Span(text: rule, style: SpanStyle(role: .rule), width: avail)], width: avail,
                     range: end..<end, sourceLine: block.source.last)
            return
        }
        let markerWidth = level + 1
        guard avail >= 2 * markerWidth else {
            sink.add(flow, width: avail, firstSourceLine: first)
            return
        }
        let marker = Span(text: String(repeating: "#", count: level) + " ", style: style, width: markerWidth)
        let indent = Span(text: String(repeating: " ", count: markerWidth), style: style, width: markerWidth)
        flow.forEachLine(width: avail - markerWidth, leadFirst: sink.lead + [marker], leadOther: sink.prefix.other + [indent]) { l in
            sink.add(prefixed: l.spans, width: markerWidth + l.width, range: l.range, sourceLine: first + l.sourceLineOffset)
        }
    }

    /// Verbatim lines (code, HTML): never reflowed; a line wider than the column wraps between
    /// graphemes with a `↪` continuation mark. Returns the content text (lines joined by LF,
    /// TABs expanded, controls in caret form).
    ///
    /// `syntax`: runs in `literal`'s UTF-8 bytes; each row's code is cut at their boundaries
    /// (the rows themselves are the same as without them).
    static func verbatim(_ literal: String, role: SpanStyle.Role, label: String?, margin: Int, avail: Int,
                         firstLine: Int, labelLine: Int, syntax: [SyntaxRun]? = nil, into sink: inout RowSink) -> String {
        var parts = literal.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.count > 0 && parts[parts.count - 1].isEmpty { parts.removeLast() }
        var text = ""
        var lineRanges: [Range<Int>] = []
        lineRanges.reserveCapacity(parts.count)
        var runs = SyntaxRunMapper(syntax)
        for (k, p) in parts.enumerated() {
            if k > 0 { text.append("\n") }
            let s = text.utf8.count
            ControlCharacters.appendCodeLine(p, to: &text)
            lineRanges.append(s..<text.utf8.count)
            runs.addLine(p, contentStart: s, contentEnd: text.utf8.count)
        }
        let contentRuns = runs.result
        let marginSpan = margin > 0 ? Span(text: String(repeating: " ", count: margin), style: SpanStyle(), width: margin) : nil
        if let label {
            var escaped = ""
            ControlCharacters.appendProse(label, to: &escaped)
            let shown = truncated(escaped, to: avail - margin)
            var spans = marginSpan.map { [$0] } ?? []
            let w = CellWidth.of(shown)
            spans.append(Span(text: shown, style: SpanStyle(role: .codeLabel), width: w))
            sink.add(spans, width: margin + w, range: 0..<0, sourceLine: labelLine)
        }
        let codeWidth = avail - margin
        // The continuation mark sits in the margin, or takes a column of the code when there is
        // no margin and the column is wide enough to still show code beside it.
        let markInMargin = margin > 0
        let markWidth = markInMargin ? 0 : (codeWidth >= 2 ? 1 : 0)
        let contMark: Span? = markInMargin
            ? Span(text: "↪" + String(repeating: " ", count: margin - 1), style: SpanStyle(role: .continuation), width: margin)
            : (markWidth > 0 ? Span(text: "↪", style: SpanStyle(role: .continuation), width: 1) : nil)
        let style = SpanStyle(role: role)
        var t = text
        t.makeContiguousUTF8()
        var runCursor = 0
        t.utf8.withContiguousStorageIfAvailable { buf in
            for (k, r) in lineRanges.enumerated() {
                var j = 0
                Wrapper.hardWrap(t, buf, from: r.lowerBound, to: r.upperBound,
                                 width: codeWidth, continuationWidth: codeWidth - markWidth) { wl in
                    defer { j += 1 }
                    var spans: [Span] = []
                    var w = 0
                    if j == 0 {
                        if let marginSpan { spans.append(marginSpan); w += margin }
                    } else if let contMark {
                        spans.append(contMark); w += contMark.width
                    } else if let marginSpan {
                        spans.append(marginSpan); w += margin
                    }
                    var shown = wl.width
                    if wl.end > wl.start {
                        if !wl.overwide, let contentRuns,
                           let pieces = SyntaxRunMapper.spans(buf, wl.start..<wl.end, width: wl.width, runs: contentRuns,
                                                              cursor: &runCursor, style: style) {
                            spans.append(contentsOf: pieces)
                        } else {
                            var s = String(decoding: UnsafeBufferPointer(rebasing: buf[wl.start..<wl.end]), as: UTF8.self)
                            if wl.overwide { s = narrowed(s, to: wl.width); shown = CellWidth.of(s) }
                            spans.append(Span(text: s, style: style, width: shown, contentOffset: wl.start))
                        }
                    }
                    sink.add(spans, width: w + shown, range: wl.start..<wl.end, sourceLine: firstLine + k)
                }
            }
        }
        return text
    }
}
