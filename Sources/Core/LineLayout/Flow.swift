import CellWidth
import MarkdownModel

/// Inline content of one leaf (or one table cell) ready to be wrapped.
///
/// `display` is what is drawn, in order: the content text interleaved with inline decorations
/// that are not content (` (url)` after a link, `[image: ` … `]`). A LF byte in `display` is a
/// hard line break. `runs` say which display bytes have which style and, for content, where
/// they are in `text` (the content text). Content and display bytes of a content run are equal,
/// so a display position maps to a content offset by plain arithmetic.
struct Flow {
    struct Run {
        /// UTF-8 range in `display`.
        var start: Int
        var end: Int
        /// UTF-8 offset in `text` of `start`, or -1 for a decoration run.
        var content: Int
        var style: SpanStyle
    }

    /// What is drawn; the same as `text` until the first decoration is appended (most blocks
    /// have none, and then the content is stored once).
    var display: String { get { decorated ?? text } }
    private var decorated: String? = nil
    var text = ""
    var runs: [Run] = []
    var links: [LinkTarget] = []
    /// Content offsets at which a new source line starts (after soft and hard breaks), with the
    /// line's offset from the block's first source line.
    var lineBreaks: [(offset: Int, line: Int)] = []

    private var displayCount: Int { decorated?.utf8.count ?? text.utf8.count }

    mutating func appendContent(_ s: String, _ style: SpanStyle) {
        let d0 = displayCount
        let t0 = text.utf8.count
        if ControlCharacters.isClean(s) {
            text.append(s)
            decorated?.append(s)
        } else {
            var escaped = ""
            ControlCharacters.appendProse(s, to: &escaped)
            text.append(escaped)
            decorated?.append(escaped)
        }
        let added = text.utf8.count - t0
        if added > 0 { addRun(start: d0, end: d0 + added, content: t0, style: style) }
    }

    /// Appends a hard line break: LF in both content and display (the wrapper breaks there and
    /// never shows it).
    mutating func appendHardBreak(_ style: SpanStyle) {
        let d0 = displayCount
        let t0 = text.utf8.count
        text.append("\n")
        decorated?.append("\n")
        addRun(start: d0, end: d0 + 1, content: t0, style: style)
    }

    mutating func appendDecoration(_ s: String, _ style: SpanStyle) {
        if decorated == nil { decorated = text }
        let d0 = displayCount
        ControlCharacters.appendProse(s, to: &decorated!)
        let d1 = displayCount
        if d1 > d0 { addRun(start: d0, end: d1, content: -1, style: style) }
    }

    /// This flow with decoration text in front of it.
    func prepending(_ decoration: String, _ style: SpanStyle) -> Flow {
        var f = Flow()
        f.appendDecoration(decoration, style)
        let shift = f.displayCount
        f.decorated! += display
        f.text = text
        f.runs += runs.map { var r = $0; r.start += shift; r.end += shift; return r }
        f.links = links
        f.lineBreaks = lineBreaks
        return f
    }

    private mutating func addRun(start: Int, end: Int, content: Int, style: SpanStyle) {
        if let last = runs.last, last.end == start, last.style == style,
           (content < 0 && last.content < 0)
            || (content >= 0 && last.content >= 0 && last.content + (last.end - last.start) == content) {
            runs[runs.count - 1].end = end
        } else {
            runs.append(Run(start: start, end: end, content: content, style: style))
        }
    }

    /// Builds the flow of `inlines` with `base` as the style of plain text.
    init(_ inlines: Inlines, base: SpanStyle, inlineLinkURLs: Bool, markInlineCode: Bool = false) {
        struct Open { var end: Int; var style: SpanStyle; var kind: InlineKind; var contentStart: Int; var insideLink: Bool }
        var stack: [Open] = []
        var style = base
        var line = 0
        let nodes = inlines.nodes
        var i = 0
        func close(_ o: Open, _ flow: inout Flow) {
            switch o.kind {
            case .link(let destination, _, _):
                let range = o.contentStart..<flow.text.utf8.count
                flow.links.append(LinkTarget(destination: destination, range: range))
                // Footnote marks and their way back are internal: their URL says nothing.
                if inlineLinkURLs && !Flow.urlMatches(destination, flow.text, range)
                    && !destination.hasPrefix("#user-content-fn") {
                    var s = base
                    s.role = .url
                    s.link = destination
                    flow.appendDecoration(" (" + VisibleControls.percentEncodingControls(destination) + ")", s)
                }
            case .strikethrough where inlineLinkURLs:
                flow.appendDecoration("~~", o.style)
            case .image(let source, _):
                var s = o.style
                s.role = .image
                flow.appendDecoration("]", s)
                // Not inside a link: the placeholder is the image's link (Tab selects it, Enter
                // opens it). Its URL is written only in plain output: in the page it is on the
                // status line when selected (a README's badges were rows of URLs).
                if !o.insideLink {
                    flow.links.append(LinkTarget(destination: source, range: o.contentStart..<flow.text.utf8.count))
                }
                if inlineLinkURLs {
                    s.role = .url
                    s.link = source
                    flow.appendDecoration(" (" + VisibleControls.percentEncodingControls(source) + ")", s)
                }
            default: break
            }
        }
        while i < nodes.count {
            while let top = stack.last, i >= top.end {
                stack.removeLast()
                close(top, &self)
                style = stack.last?.style ?? base
            }
            let node = nodes[i]
            switch node.kind {
            case .text(let s): appendContent(s, style)
            case .code(let s):
                var st = style; st.emphasis.insert(.code)
                if markInlineCode { appendDecoration("`", st) }
                appendContent(s, st)
                if markInlineCode { appendDecoration("`", st) }
            case .html(let s):
                var st = style; st.role = .html
                // Raw inline HTML may span source lines: each LF is shown as a space.
                for (k, part) in s.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if k > 0 {
                        appendContent(" ", st)
                        line += 1
                        lineBreaks.append((text.utf8.count, line))
                    }
                    appendContent(String(part), st)
                }
            case .softBreak:
                appendContent(" ", style)
                line += 1
                lineBreaks.append((text.utf8.count, line))
            case .lineBreak:
                appendHardBreak(style)
                line += 1
                lineBreaks.append((text.utf8.count, line))
            case .emphasis, .strong, .strikethrough, .link, .image:
                var st = style
                switch node.kind {
                case .emphasis: st.emphasis.insert(.emphasis)
                case .strong: st.emphasis.insert(.strong)
                case .strikethrough:
                    st.emphasis.insert(.strikethrough)
                    // Plain text has no strike-through attribute: keep the markers, or
                    // struck-out words would read as current ones.
                    if inlineLinkURLs { appendDecoration("~~", st) }
                case .link(let destination, _, _): st.link = destination
                case .image(let source, _):
                    st.role = .image
                    if st.link == nil { st.link = source }
                    appendDecoration("[image: ", st)
                default: break
                }
                stack.append(Open(end: i + 1 + node.descendantCount, style: st, kind: node.kind,
                                  contentStart: text.utf8.count,
                                  insideLink: stack.contains { if case .link = $0.kind { true } else { false } }))
                style = st
            }
            i += 1
        }
        while let top = stack.popLast() { close(top, &self) }
    }

    init() {}

    /// A badge wall (`ImageParagraph.Shape.badges`) as one line of labels, `[CI] [PyPI]`: each
    /// label the image's alt text (its file's name when it has none), linked to the link the
    /// image sits in, or the image. URLs only in plain output.
    init(badges refs: [ImageReference], base: SpanStyle, inlineLinkURLs: Bool) {
        for (k, ref) in refs.enumerated() {
            if k > 0 { appendContent(" ", base) }
            let target = ref.link ?? ref.source
            var st = base
            st.role = .image
            st.link = target
            appendDecoration("[", st)
            let start = text.utf8.count
            let label = ref.alt.isEmpty ? String(ref.source.split(separator: "/").last ?? "image") : ref.alt
            appendContent(label, st)
            links.append(LinkTarget(destination: target, range: start..<text.utf8.count))
            appendDecoration("]", st)
            if inlineLinkURLs {
                var u = base
                u.role = .url
                u.link = target
                appendDecoration(" (" + VisibleControls.percentEncodingControls(target) + ")", u)
            }
        }
    }

    /// Whether a link's URL says nothing more than its text (`https://x.org` shown as `x.org`).
    static func urlMatches(_ url: String, _ text: String, _ range: Range<Int>) -> Bool {
        let v = text.utf8
        guard range.lowerBound >= 0, range.upperBound <= v.count else { return false }
        let a = v.index(v.startIndex, offsetBy: range.lowerBound)
        let b = v.index(a, offsetBy: range.count)
        let shown = String(decoding: v[a..<b], as: UTF8.self)
        if shown == url { return true }
        for prefix in ["mailto:", "http://", "https://"] where url.hasPrefix(prefix) {
            if String(url.dropFirst(prefix.count)) == shown { return true }
        }
        return false
    }
}
