/// GitHub's extended (bare) autolinks: `https://…`, `http://…` and `www.…` in text that is
/// not inside a link or image (code spans are separate nodes and never searched).
///
/// Rules, after cmark-gfm's `autolink.c`:
/// - `www.` starts a text node or follows white space, `*`, `_`, `~` or `(`; `http(s)://`
///   starts a text node or follows anything but a letter;
/// - the domain is letters, digits, `-`, `_` and `.` (non-ASCII allowed), with no `_` in its
///   last two labels; `www.` needs something after it, `http(s)://` needs a non-empty host;
/// - the link runs to the next white space or `<`;
/// - then trailing `?!.,:*_~'"` are dropped, a trailing `)` is dropped while the link holds more
///   `)` than `(`, and a trailing `;` is dropped together with an `&letters` before it (an
///   entity reference), else alone — repeatedly.
/// `www.` links get the destination `http://` + text. `ftp://` links like `http://`.
///
/// Email addresses (`me@example.org`, also after `mailto:` or `xmpp:`): a local part of
/// letters, digits and `.+-_`, `@`, then a domain of letters, digits, `-`, `_` and dots
/// each followed by a letter or digit, with at least one dot, ending in a letter (or a dot,
/// which the trim then drops). The destination is `mailto:` + the address (or the text as
/// written when it starts with its scheme).
enum Autolink {
    static func apply(_ tree: inout InlineTree) {
        tree.top = process(tree.top, in: &tree)
        var stack = tree.top
        while let index = stack.popLast() {
            switch tree.nodes[index].kind {
            case .link, .image:
                continue // no links inside links; image alt text stays text
            default:
                guard !tree.nodes[index].children.isEmpty else { continue }
                let children = process(tree.nodes[index].children, in: &tree)
                tree.nodes[index].children = children
                stack.append(contentsOf: children)
            }
        }
    }

    private static func process(_ children: [Int], in tree: inout InlineTree) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(children.count)
        for child in children {
            guard case .text(let text) = tree.nodes[child].kind, InlineExtensions.scan(text).link else {
                result.append(child)
                continue
            }
            let bytes = Array(text.utf8)
            let links = find(in: bytes)
            guard !links.isEmpty else { result.append(child); continue }
            var position = 0
            for link in links {
                if position < link.range.lowerBound {
                    result.append(tree.add(.text(String(decoding: bytes[position..<link.range.lowerBound], as: UTF8.self))))
                }
                let label = String(decoding: bytes[link.range], as: UTF8.self)
                let textNode = tree.add(.text(label))
                var destination = link.www ? "http://" + label : label
                if link.email, !label.hasPrefix("mailto:"), !label.hasPrefix("xmpp:") { destination = "mailto:" + label }
                result.append(tree.add(.link(destination: destination, title: "", autolink: true), children: [textNode]))
                position = link.range.upperBound
            }
            if position < bytes.count {
                result.append(tree.add(.text(String(decoding: bytes[position...], as: UTF8.self))))
            }
        }
        return result
    }

    struct Match: Equatable {
        var range: Range<Int>
        var www: Bool
        var email = false
    }

    /// Every bare autolink in `bytes`, in order, not overlapping.
    static func find(in bytes: [UInt8]) -> [Match] {
        let urls = findURLs(in: bytes)
        guard bytes.contains(UInt8(ascii: "@")) else { return urls }
        var matches: [Match] = []
        var from = 0
        for url in urls + [Match(range: bytes.count..<bytes.count, www: false)] {
            matches += findEmails(in: bytes, from: from, to: url.range.lowerBound)
            if !url.range.isEmpty { matches.append(url) }
            from = url.range.upperBound
        }
        return matches
    }

    /// Email autolinks in `bytes[from..<to]`.
    private static func findEmails(in bytes: [UInt8], from: Int, to: Int) -> [Match] {
        var matches: [Match] = []
        var index = from
        while let at = bytes[index..<to].firstIndex(of: UInt8(ascii: "@")) {
            var start = at
            while start > index, isAlphanumeric(bytes[start - 1]) || [UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "_")].contains(bytes[start - 1]) {
                start -= 1
            }
            var end = at + 1, dots = 0
            while end < to {
                let c = bytes[end]
                if isAlphanumeric(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") { end += 1; continue }
                if c == UInt8(ascii: "."), end + 1 < to, isAlphanumeric(bytes[end + 1]) { dots += 1; end += 1; continue }
                break
            }
            guard start < at, end > at + 1, dots > 0, isLetter(bytes[end - 1]) || bytes[end - 1] == UInt8(ascii: ".") else {
                index = at + 1
                continue
            }
            end = trimmedEnd(bytes, start: start, end: end)
            // A scheme written before the address belongs to the link.
            for scheme in ["mailto:", "xmpp:"] {
                let length = scheme.utf8.count
                if start - length >= index, bytes[(start - length)..<start].elementsEqual(scheme.utf8),
                   start - length == 0 || !isLetter(bytes[start - length - 1]) {
                    start -= length
                    break
                }
            }
            matches.append(Match(range: start..<end, www: false, email: true))
            index = end
        }
        return matches
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func findURLs(in bytes: [UInt8]) -> [Match] {
        var matches: [Match] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // `www.` must follow white space or `*_~(`; a scheme must not continue a word.
            let allowed = index == 0 || (byte == UInt8(ascii: "w") ? mayPrecede(bytes[index - 1]) : !isLetter(bytes[index - 1]))
            guard byte == UInt8(ascii: "h") || byte == UInt8(ascii: "w") || byte == UInt8(ascii: "f"), allowed else {
                index += 1
                continue
            }
            switch match(at: index, in: bytes) {
            case .link(let match)?:
                matches.append(match)
                index = match.range.upperBound
            case .invalidDomain(let end)?:
                index = end // keeps the search linear
            case nil:
                index += 1
            }
        }
        return matches
    }

    private enum Attempt {
        case link(Match)
        /// A domain with `_` in its last labels; no link can start before `end` either.
        case invalidDomain(end: Int)
    }

    private static func match(at start: Int, in bytes: [UInt8]) -> Attempt? {
        let www = bytes[start...].starts(with: "www.".utf8)
        let hostStart: Int
        if www {
            hostStart = start + 4
        } else if bytes[start...].starts(with: "https://".utf8) {
            hostStart = start + 8
        } else if bytes[start...].starts(with: "http://".utf8) {
            hostStart = start + 7
        } else if bytes[start...].starts(with: "ftp://".utf8) {
            hostStart = start + 6
        } else {
            return nil
        }
        // Domain: host characters, no `_` in the last two labels.
        var index = hostStart
        var underscoresInLast = 0
        var underscoresInPrevious = 0
        while index < bytes.count, isHostByte(bytes[index]) {
            switch bytes[index] {
            case UInt8(ascii: "_"): underscoresInLast += 1
            case UInt8(ascii: "."): underscoresInPrevious = underscoresInLast; underscoresInLast = 0
            default: break
            }
            index += 1
        }
        guard index > hostStart else { return nil }
        guard underscoresInLast == 0, underscoresInPrevious == 0 else { return .invalidDomain(end: index) }
        // Path: to white space or `<`.
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "<") { index += 1 }
        let end = trimmedEnd(bytes, start: start, end: index)
        guard end > hostStart else { return nil }
        return .link(Match(range: start..<end, www: www))
    }

    /// cmark-gfm's `autolink_delim`: drops trailing punctuation that belongs to the sentence.
    private static func trimmedEnd(_ bytes: [UInt8], start: Int, end initialEnd: Int) -> Int {
        var end = initialEnd
        // `)` minus `(` in the link, counted once (trimming only drops `)` and parens-free bytes
        // after that, so the count stays right), keeping the trim linear.
        var unmatchedClosing: Int?
        while end > start {
            let last = bytes[end - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                 UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                end -= 1
            case UInt8(ascii: ";"):
                var letters = end - 1
                while letters > start, isLetter(bytes[letters - 1]) { letters -= 1 }
                if letters < end - 1, letters > start, bytes[letters - 1] == UInt8(ascii: "&") {
                    end = letters - 1
                } else {
                    end -= 1
                }
            case UInt8(ascii: ")"):
                if unmatchedClosing == nil {
                    var balance = 0
                    for byte in bytes[start..<end] {
                        if byte == UInt8(ascii: "(") { balance -= 1 } else if byte == UInt8(ascii: ")") { balance += 1 }
                    }
                    unmatchedClosing = balance
                }
                guard unmatchedClosing! > 0 else { return end }
                unmatchedClosing! -= 1
                end -= 1
            default:
                return end
            }
        }
        return end
    }

    private static func mayPrecede(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "(")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
