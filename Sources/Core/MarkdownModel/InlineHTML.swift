import TextBasics
/// Raw inline HTML that reads as Markdown: the tags READMEs use for what Markdown cannot say.
///
/// Within one list of sibling inlines (cmark leaves every inline tag where it stands):
/// - `<!-- … -->` is removed;
/// - `<br>`, `<br/>`, `<br />` become a hard line break;
/// - `<img … alt="x" src="y">` becomes an image `![x](y)`;
/// - a matched pair `<b>…</b>` / `<strong>` become strong, `<i>`/`<em>` emphasis,
///   `<s>`/`<del>`/`<strike>` strikethrough, `<a href="u">…</a>` a link to `u`; `<code>` and
///   `<kbd>` become a code span (when only text is between them); `<sub>`, `<sup>`, `<span>`,
///   `<u>`, `<ins>`, `<mark>`, `<small>`, `<a>` without `href` keep their content and lose
///   the tags (`<sup>` of digits and signs shows as superscript characters);
/// - any other tag, or one without its partner, stays raw HTML.
/// Tag names are matched without regard to case.
enum InlineHTML {
    static func apply(_ tree: inout InlineTree) {
        tree.top = process(tree.top, in: &tree)
        var stack = tree.top
        while let index = stack.popLast() {
            guard !tree.nodes[index].children.isEmpty else { continue }
            let children = process(tree.nodes[index].children, in: &tree)
            tree.nodes[index].children = children
            stack.append(contentsOf: children)
        }
    }

    /// One list of siblings with its tags replaced, in one pass: tags are parsed once, opening
    /// and closing tags paired by name (as nesting pairs them), then a stack of open pairs
    /// collects what lies between. Tag pairs that cross (`<b><i></b></i>`) keep the inner
    /// opening tag raw. Linear in the number of siblings, however deep the tags nest.
    private static func process(_ children: [Int], in tree: inout InlineTree) -> [Int] {
        guard children.contains(where: { if case .html = tree.nodes[$0].kind { return true }; return false }) else {
            return children
        }
        var tags = [HTMLTag?](repeating: nil, count: children.count)
        var partner = [Int](repeating: -1, count: children.count)
        var unclosed: [String: [Int]] = [:]
        for (k, child) in children.enumerated() {
            guard case .html(let html) = tree.nodes[child].kind, let tag = HTMLTag.parse(html) else { continue }
            tags[k] = tag
            switch tag.kind {
            case .open(let selfClosing):
                if !selfClosing, Meaning(tag) != nil { unclosed[tag.name, default: []].append(k) }
            case .close:
                if let open = unclosed[tag.name]?.popLast() { partner[open] = k; partner[k] = open }
            case .comment:
                break
            }
        }
        struct Frame {
            var open: Int  // position of the opening tag; -1 for the list itself
            var meaning: Meaning
            var nodes: [Int] = []
        }
        var frames = [Frame(open: -1, meaning: .unwrap)]
        var afterBreak = false  // the line end after `<br>` is white space HTML collapses
        for (k, child) in children.enumerated() {
            if afterBreak {
                afterBreak = false
                if tree.nodes[child].kind == .softBreak { afterBreak = true; continue }
                if case .text(let text) = tree.nodes[child].kind, text.first == " " {
                    let trimmed = String(text.drop { $0 == " " })
                    if trimmed.isEmpty { continue }
                    tree.nodes[child].kind = .text(trimmed)
                }
            }
            guard let tag = tags[k] else { frames[frames.count - 1].nodes.append(child); continue }
            switch tag.kind {
            case .comment:
                continue
            case .open:
                if tag.name == "br" {
                    tree.nodes[child].kind = .lineBreak
                    frames[frames.count - 1].nodes.append(child)
                    afterBreak = true
                } else if tag.name == "img" {
                    frames[frames.count - 1].nodes.append(image(tag, in: &tree))
                } else if partner[k] > k, let meaning = Meaning(tag) {
                    frames.append(Frame(open: k, meaning: meaning))
                } else {
                    frames[frames.count - 1].nodes.append(child)
                }
            case .close:
                guard partner[k] >= 0, let at = frames.lastIndex(where: { $0.open == partner[k] }) else {
                    frames[frames.count - 1].nodes.append(child)
                    continue
                }
                while frames.count - 1 > at {  // crossing pairs: the inner opening tag stays raw
                    let frame = frames.removeLast()
                    frames[frames.count - 1].nodes.append(children[frame.open])
                    frames[frames.count - 1].nodes += frame.nodes
                }
                let frame = frames.removeLast()
                frames[frames.count - 1].nodes += built(frame.meaning, frame.nodes, in: &tree)
            }
        }
        while frames.count > 1 {
            let frame = frames.removeLast()
            frames[frames.count - 1].nodes.append(children[frame.open])
            frames[frames.count - 1].nodes += frame.nodes
        }
        return frames[0].nodes
    }

    /// The nodes a tag pair with `meaning` around `inner` becomes.
    private static func built(_ meaning: Meaning, _ inner: [Int], in tree: inout InlineTree) -> [Int] {
        switch meaning {
        case .container(let kind):
            return [tree.add(kind, children: inner)]
        case .code:
            if let text = plainText(inner, in: tree) { return [tree.add(.code(text))] }
            return [tree.add(.strong, children: inner)]
        case .superscript:
            if let text = plainText(inner, in: tree), let raised = superscript(text) { return [tree.add(.text(raised))] }
            return inner
        case .unwrap:
            return inner
        }
    }

    /// `<img alt src>` as an image; without alt text the file's name says what it is.
    private static func image(_ tag: HTMLTag, in tree: inout InlineTree) -> Int {
        let source = tag.attributes["src"] ?? ""
        var alt = tag.attributes["alt"] ?? ""
        if alt.isEmpty {
            let path = source.split(separator: "?").first.map(String.init) ?? source
            alt = path.split(separator: "/").last.map(String.init) ?? ""
        }
        let textNode = alt.isEmpty ? [] : [tree.add(.text(alt))]
        return tree.add(.image(source: source, title: tag.attributes["title"] ?? ""), children: textNode)
    }

    /// What a tag pair means.
    private enum Meaning {
        case container(InlineKind)
        case code
        case superscript
        case unwrap

        init?(_ tag: HTMLTag) {
            switch tag.name {
            case "b", "strong": self = .container(.strong)
            case "i", "em", "cite", "var", "dfn": self = .container(.emphasis)
            case "s", "del", "strike": self = .container(.strikethrough)
            case "code", "kbd", "samp", "tt": self = .code
            case "sup": self = .superscript
            case "sub", "span", "u", "ins", "mark", "small", "big", "abbr", "font": self = .unwrap
            case "a":
                if let href = tag.attributes["href"] {
                    self = .container(.link(destination: href, title: tag.attributes["title"] ?? "", autolink: false))
                } else {
                    self = .unwrap
                }
            default: return nil
            }
        }
    }

    /// The text of `nodes` when they are only text, code and soft breaks.
    private static func plainText(_ nodes: [Int], in tree: InlineTree) -> String? {
        var out = ""
        for n in nodes {
            switch tree.nodes[n].kind {
            case .text(let t), .code(let t): out += t
            case .softBreak: out += " "
            default: return nil
            }
        }
        return out
    }

    /// The superscript form of `c`, if it has one. (A switch, not a `[Character: Character]`:
    /// the first such dictionary in a process is made with run-time type look-ups, which the
    /// first screen of every document with inline HTML paid.)
    private static func superscript(of c: Character) -> Character? {
        switch c {
        case "0": "⁰"
        case "1": "¹"
        case "2": "²"
        case "3": "³"
        case "4": "⁴"
        case "5": "⁵"
        case "6": "⁶"
        case "7": "⁷"
        case "8": "⁸"
        case "9": "⁹"
        case "+": "⁺"
        case "-": "⁻"
        case "=": "⁼"
        case "(": "⁽"
        case ")": "⁾"
        case "n": "ⁿ"
        case "i": "ⁱ"
        default: nil
        }
    }

    /// `text` in superscript characters, or nil when one of them has none.
    static func superscript(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        var out = ""
        for c in text {
            guard let s = superscript(of: c) else { return nil }
            out.append(s)
        }
        return out
    }
}

/// One HTML tag or comment as written in Markdown (`<name attr="v">`, `</name>`, `<!-- -->`).
struct HTMLTag {
    enum Kind: Equatable {
        case open(selfClosing: Bool)
        case close
        case comment
    }

    var kind: Kind
    /// Lower-cased tag name ("" for a comment).
    var name: String
    /// Lower-cased attribute names → values (entities `&amp;` `&quot;` `&lt;` `&gt;` decoded).
    var attributes: [String: String]

    /// The tag `html` is exactly (surrounding white space allowed), or nil.
    static func parse(_ html: String) -> HTMLTag? {
        let b = Array(html.utf8)
        var i = 0, end = b.count
        while i < end, isSpace(b[i]) { i += 1 }
        while end > i, isSpace(b[end - 1]) { end -= 1 }
        guard end - i >= 3, b[i] == UInt8(ascii: "<"), b[end - 1] == UInt8(ascii: ">") else { return nil }
        if end - i >= 7, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
            guard b[end - 2] == UInt8(ascii: "-"), b[end - 3] == UInt8(ascii: "-") else { return nil }
            return HTMLTag(kind: .comment, name: "", attributes: [:])
        }
        i += 1
        var closing = false
        if b[i] == UInt8(ascii: "/") { closing = true; i += 1 }
        let nameStart = i
        while i < end - 1, isNameByte(b[i]) { i += 1 }
        guard i > nameStart, isLetter(b[nameStart]) else { return nil }
        let name = String(decoding: b[nameStart..<i], as: UTF8.self).lowercased()
        if closing {
            while i < end - 1, isSpace(b[i]) { i += 1 }
            return i == end - 1 ? HTMLTag(kind: .close, name: name, attributes: [:]) : nil
        }
        var attributes: [String: String] = [:]
        var selfClosing = false
        while i < end - 1 {
            let before = i
            while i < end - 1, isSpace(b[i]) { i += 1 }
            if b[i] == UInt8(ascii: "/"), i == end - 2 { selfClosing = true; i += 1; break }
            if i == end - 1 { break }
            guard i > before else { return nil }  // attributes are set apart by white space
            let attrStart = i
            while i < end - 1, isNameByte(b[i]) || b[i] == UInt8(ascii: ":") { i += 1 }
            guard i > attrStart else { return nil }
            let attr = String(decoding: b[attrStart..<i], as: UTF8.self).lowercased()
            var j = i
            while j < end - 1, isSpace(b[j]) { j += 1 }
            var value = ""
            if j < end - 1, b[j] == UInt8(ascii: "=") {
                j += 1
                while j < end - 1, isSpace(b[j]) { j += 1 }
                guard j < end - 1 else { return nil }
                if b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                    let quote = b[j]
                    let valueStart = j + 1
                    j += 1
                    while j < end - 1, b[j] != quote { j += 1 }
                    guard j < end - 1 else { return nil }
                    value = String(decoding: b[valueStart..<j], as: UTF8.self)
                    j += 1
                } else {
                    let valueStart = j
                    while j < end - 1, !isSpace(b[j]), b[j] != UInt8(ascii: "\""), b[j] != UInt8(ascii: "'"),
                          b[j] != UInt8(ascii: "="), b[j] != UInt8(ascii: "<"), b[j] != UInt8(ascii: ">"),
                          b[j] != UInt8(ascii: "`") { j += 1 }
                    if j == end - 2, b[j] == UInt8(ascii: "/"), j > valueStart { /* `<br x=1/>` */ }
                    value = String(decoding: b[valueStart..<j], as: UTF8.self)
                }
                i = j
            }
            if attributes[attr] == nil { attributes[attr] = decodeEntities(value) }
        }
        return HTMLTag(kind: .open(selfClosing: selfClosing), name: name, attributes: attributes)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    private static func isNameByte(_ c: UInt8) -> Bool {
        isLetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "&")) else { return s }
        var out = s
        for (entity, character) in [("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">"), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")] {
            out = out.replacingAll(entity, with: character)
        }
        return out
    }
}

