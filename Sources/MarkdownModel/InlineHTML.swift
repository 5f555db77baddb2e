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

    /// One list of siblings with its tags replaced.
    private static func process(_ children: [Int], in tree: inout InlineTree) -> [Int] {
        guard children.contains(where: { if case .html = tree.nodes[$0].kind { return true }; return false }) else {
            return children
        }
        var result: [Int] = []
        result.reserveCapacity(children.count)
        var k = 0
        while k < children.count {
            let child = children[k]
            k += 1
            guard case .html(let html) = tree.nodes[child].kind else { result.append(child); continue }
            guard let tag = HTMLTag.parse(html) else { result.append(child); continue }
            switch tag.kind {
            case .comment:
                continue
            case .close:
                result.append(child)
            case .open(let selfClosing):
                switch tag.name {
                case "br":
                    tree.nodes[child].kind = .lineBreak
                    result.append(child)
                    // The line end after `<br>` is white space HTML collapses: no extra space.
                    if k < children.count, tree.nodes[children[k]].kind == .softBreak { k += 1 }
                    if k < children.count, case .text(let text) = tree.nodes[children[k]].kind, text.first == " " {
                        let trimmed = String(text.drop { $0 == " " })
                        if trimmed.isEmpty { k += 1 } else { tree.nodes[children[k]].kind = .text(trimmed) }
                    }
                    continue
                case "img":
                    let alt = tag.attributes["alt"] ?? ""
                    let textNode = alt.isEmpty ? [] : [tree.add(.text(alt))]
                    result.append(tree.add(.image(source: tag.attributes["src"] ?? "", title: tag.attributes["title"] ?? ""),
                                           children: textNode))
                    continue
                default:
                    break
                }
                guard !selfClosing, let meaning = Meaning(tag), let close = matchingClose(tag.name, children, from: k, in: tree)
                else { result.append(child); continue }
                let inner = Array(children[k..<close])
                k = close + 1
                switch meaning {
                case .container(let kind):
                    result.append(tree.add(kind, children: inner))
                case .code:
                    if let text = plainText(inner, in: tree) {
                        result.append(tree.add(.code(text)))
                    } else {
                        result.append(tree.add(.strong, children: inner))
                    }
                case .superscript:
                    if let text = plainText(inner, in: tree), let raised = superscript(text) {
                        result.append(tree.add(.text(raised)))
                    } else {
                        result.append(contentsOf: inner)
                    }
                case .unwrap:
                    result.append(contentsOf: inner)
                }
            }
        }
        return result
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

    /// Index in `children` of the tag closing `name` opened just before `from`, with nested
    /// tags of the same name counted.
    private static func matchingClose(_ name: String, _ children: [Int], from: Int, in tree: InlineTree) -> Int? {
        var depth = 0
        for k in from..<children.count {
            guard case .html(let html) = tree.nodes[children[k]].kind, let tag = HTMLTag.parse(html), tag.name == name else { continue }
            switch tag.kind {
            case .open(let selfClosing) where !selfClosing: depth += 1
            case .close:
                if depth == 0 { return k }
                depth -= 1
            default: break
            }
        }
        return nil
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

    private static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
        "+": "⁺", "-": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "n": "ⁿ", "i": "ⁱ",
    ]

    /// `text` in superscript characters, or nil when one of them has none.
    static func superscript(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        var out = ""
        for c in text {
            guard let s = superscripts[c] else { return nil }
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
        guard s.contains("&") else { return s }
        var out = s
        for (entity, character) in [("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">"), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")] {
            out = out.replacingAll(entity, with: character)
        }
        return out
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation in this module).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}
