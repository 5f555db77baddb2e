/// HTML blocks that read as Markdown, as GitHub READMEs write them.
///
/// An HTML block made only of comments, white space and these tags is converted:
/// - *transparent* block tags (`<p>`, `<div>`, `<center>`, `<details>`, `<picture>`, …) end the
///   text before them and are dropped (`<p align="center">…</p>` shows its text);
/// - `<h1>`…`<h6>` make their text a heading, `<summary>` a `.summary` line (a `<details>` is
///   shown open: its summary, then its body as the blocks that follow);
/// - inline tags (`<a>`, `<img>`, `<br>`, `<b>`, `<kbd>`, …; see `InlineHTML`) stay in the text,
///   which is parsed as one Markdown paragraph and then has its inline tags converted;
/// - comments are dropped.
/// A block with no text left is hidden (`<!-- … -->`, `</details>`, a lone `<div>`). Any other
/// tag (`<table>`, `<pre>`, `<script>`, …) keeps the block raw, with its comments removed.
enum HTMLBlocks {
    enum Result: Equatable {
        /// Nothing to show.
        case hidden
        /// Show as raw HTML (the text given: comments removed).
        case raw(String)
        /// These blocks instead, with their lines relative to the block's first line (0-based).
        case blocks([Piece])
    }

    struct Piece: Equatable {
        var kind: BlockKind
        var firstLine: Int
        var lastLine: Int
    }

    private static let transparent: Set<String> = [
        "p", "div", "center", "details", "picture", "section", "article", "header", "footer", "nav",
        "figure", "figcaption", "main", "aside", "source", "hr",
    ]
    private static let inline: Set<String> = [
        "a", "img", "br", "b", "strong", "i", "em", "cite", "var", "dfn", "s", "del", "strike", "code", "kbd", "samp",
        "tt", "sub", "sup", "span", "u", "ins", "mark", "small", "big", "abbr", "font",
    ]

    private enum Token {
        case text(Range<Int>)
        case comment
        case tag(HTMLTag, Range<Int>)
    }

    static func convert(_ html: String) -> Result {
        let bytes = Array(html.utf8)
        let tokens = tokenize(bytes)
        // Kinds 3–5 (`<?…`, `<!DOCTYPE`, CDATA) do not start with a tag or comment: raw.
        let firstToken = tokens.first { if case .text(let r) = $0 { return !isBlank(bytes[r]) }; return true }
        if case .text? = firstToken { return .raw(html) }
        var convertible = true
        var hasComment = false
        for token in tokens {
            switch token {
            case .comment: hasComment = true
            case .tag(let tag, _):
                if !(transparent.contains(tag.name) || inline.contains(tag.name) || heading(tag.name) != nil
                     || tag.name == "summary") { convertible = false }
            case .text: break
            }
        }
        guard convertible else {
            guard hasComment else { return .raw(html) }
            let stripped = withoutComments(bytes, tokens)
            return isBlank(stripped.utf8) ? .hidden : .raw(stripped)
        }
        // Hostile input: a block of thousands of `<p>`s is not worth a parse per paragraph.
        var blockTags = 0
        for token in tokens { if case .tag(let tag, _) = token, !inline.contains(tag.name) { blockTags += 1 } }
        guard blockTags <= 256 else { return .raw(hasComment ? withoutComments(bytes, tokens) : html) }
        var newlines: [Int] = []  // offsets of the LF bytes, for line numbers
        for (k, byte) in bytes.enumerated() where byte == 0x0A { newlines.append(k) }
        func line(of offset: Int) -> Int {
            var lo = 0, hi = newlines.count  // LFs before `offset`
            while lo < hi { let mid = (lo + hi) / 2; if newlines[mid] < offset { lo = mid + 1 } else { hi = mid } }
            return lo
        }
        var pieces: [Piece] = []
        var segment: [UInt8] = []
        var segmentStart: Int? = nil  // byte offset of the segment's first non-blank byte
        var segmentEnd = 0
        var kind = SegmentKind.paragraph
        var failed = false
        func flush() {
            defer { segment = []; segmentStart = nil }
            guard let start = segmentStart, !failed else { return }
            guard let inlines = inlineParse(segment) else { failed = true; return }
            let first = line(of: start), last = line(of: max(start, segmentEnd - 1))
            switch kind {
            case .paragraph:
                // Nothing to show (`<a id="x"></a>`, an anchor some docs put before each
                // heading): no empty paragraph with its blank rows.
                if inlines.showsNothing { return }
                pieces.append(Piece(kind: .paragraph(inlines), firstLine: first, lastLine: last))
            case .heading(let level): pieces.append(Piece(kind: .heading(level: level, inlines), firstLine: first, lastLine: last))
            case .summary: pieces.append(Piece(kind: .summary(inlines), firstLine: first, lastLine: last))
            }
        }
        func add(_ range: Range<Int>) {
            if segmentStart == nil {
                guard let k = range.first(where: { !isSpace(bytes[$0]) }) else { return }
                segmentStart = k
            }
            segment += bytes[range]
            segmentEnd = range.upperBound
        }
        for token in tokens {
            switch token {
            case .comment: continue
            case .text(let range): add(range)
            case .tag(let tag, let range):
                if inline.contains(tag.name) { add(range); continue }
                flush()
                if case .open = tag.kind {
                    if let level = heading(tag.name) { kind = .heading(level) } else if tag.name == "summary" { kind = .summary } else { kind = .paragraph }
                } else {
                    kind = .paragraph
                }
            }
        }
        flush()
        if failed { return .raw(hasComment ? withoutComments(bytes, tokens) : html) }
        return pieces.isEmpty ? .hidden : .blocks(pieces)
    }

    private enum SegmentKind { case paragraph, heading(Int), summary }

    private static func heading(_ name: String) -> Int? {
        guard name.utf8.count == 2, name.hasPrefix("h"), let level = Int(name.dropFirst()), (1...6).contains(level) else { return nil }
        return level
    }

    /// The segment's text as one Markdown paragraph (lines trimmed of their indentation, so
    /// none becomes code), or nil when it does not parse as exactly one paragraph.
    private static func inlineParse(_ segment: [UInt8]) -> Inlines? {
        var text: [UInt8] = []
        text.reserveCapacity(segment.count)
        for line in segment.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let trimmed = line.drop { isSpace($0) }
            guard !trimmed.isEmpty else { continue }
            if !text.isEmpty { text.append(0x0A) }
            text += trimmed
        }
        // A first line `x` makes the text one paragraph even when it is a lone tag (which
        // would start an HTML block, but cannot interrupt a paragraph); then `x` goes.
        let paragraphs = CmarkBridge.parseTopLevelParagraphs(Array("x\n".utf8) + text)
        guard paragraphs.count == 1, let inlines = paragraphs[0], inlines.nodes.count >= 2,
              inlines.nodes[0].kind == .text("x"), inlines.nodes[1].kind == .softBreak else { return nil }
        return InlineExtensions.apply(Inlines(Array(inlines.nodes.dropFirst(2))))
    }

    private static func tokenize(_ b: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0, textStart = 0
        func endText(_ at: Int) { if at > textStart { tokens.append(.text(textStart..<at)) } }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            if i + 3 < b.count, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
                var j = i + 4
                while j + 2 < b.count, !(b[j] == UInt8(ascii: "-") && b[j + 1] == UInt8(ascii: "-") && b[j + 2] == UInt8(ascii: ">")) { j += 1 }
                let end = min(b.count, j + 3)
                endText(i)
                tokens.append(.comment)
                i = end; textStart = end
                continue
            }
            var j = i + 1
            var quote: UInt8 = 0
            while j < b.count {
                if quote != 0 { if b[j] == quote { quote = 0 } } else if b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                    quote = b[j]
                } else if b[j] == UInt8(ascii: ">") || b[j] == UInt8(ascii: "<") { break }
                j += 1
            }
            if j < b.count, b[j] == UInt8(ascii: ">"), let tag = HTMLTag.parse(String(decoding: b[i...j], as: UTF8.self)) {
                endText(i)
                tokens.append(.tag(tag, i..<(j + 1)))
                i = j + 1; textStart = i
            } else {
                i += 1
            }
        }
        endText(b.count)
        return tokens
    }

    private static func withoutComments(_ bytes: [UInt8], _ tokens: [Token]) -> String {
        var out: [UInt8] = []
        for token in tokens {
            switch token {
            case .comment: continue
            case .text(let r), .tag(_, let r): out += bytes[r]
            }
        }
        // Lines left empty by a removed comment go too.
        var lines: [ArraySlice<UInt8>] = []
        for line in out.split(separator: 0x0A, omittingEmptySubsequences: false) where !line.allSatisfy(isSpace) {
            lines.append(line)
        }
        var joined: [UInt8] = []
        for line in lines { joined += line; joined.append(0x0A) }
        return String(decoding: joined, as: UTF8.self)
    }

    private static func isBlank<C: Collection>(_ c: C) -> Bool where C.Element == UInt8 { c.allSatisfy(isSpace) }
    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
}
