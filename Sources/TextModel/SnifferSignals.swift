/// Rules 4 and 5 of `KindDetector.sniff`: git/diff shapes, Markdown signals, code-like lines.
extension Sniffer {
    enum Signal: CaseIterable {
        case heading, fence, list, link, table, setext
    }

    /// An open fenced code block: its fence character and length.
    struct Fence {
        var character: UInt8
        var length: Int
    }

    func markdownScore(_ lines: [Line]) -> DocumentKind {
        var kinds = Set<Signal>()
        var signalLines = 0
        var counted = 0
        var codeLike = 0
        var closedFences = 0
        var headingsWithBlankAfter = 0
        var fence: Fence?
        var previousWasHeading = false
        var previousIsText = false  // a paragraph-like line: what a setext underline may follow
        var previousHasPipe = false
        var previousBlank = true  // the start counts as a blank line before

        for (index, line) in lines.enumerated() {
            let (columns, start) = indentation(line)
            let end = trimmedEnd(line)
            if let open = fence {
                if columns < 4, let closing = fenceRun(line, from: start), closing.character == open.character,
                   closing.length >= open.length, closing.end == end {
                    fence = nil
                    closedFences += 1
                    signalLines += 1
                }
                continue
            }
            let next = index + 1 < lines.count ? lines[index + 1] : nil
            if isGitOrDiffLine(line, next: next) { return .text }
            let blank = start == end
            if blank {
                if previousWasHeading { headingsWithBlankAfter += 1 }
                previousWasHeading = false; previousIsText = false; previousHasPipe = false
                previousBlank = true
                continue
            }
            if columns >= 4 {
                previousWasHeading = false; previousHasPipe = false; previousBlank = false
                continue
            }
            counted += 1
            let body = Line(rebasing: line[start..<end])
            if isCodeLike(body) { codeLike += 1 }

            var signals: [Signal] = []
            var isHeading = false
            var isText = true
            if let run = fenceRun(line, from: start) {
                fence = Fence(character: run.character, length: run.length)
                kinds.insert(.fence)
                signalLines += 1
                previousWasHeading = false; previousIsText = false; previousHasPipe = false
                previousBlank = false
                continue
            }
            if previousBlank && isATXHeading(body) { signals.append(.heading); isHeading = true; isText = false }
            if isListItem(body) { signals.append(.list); isText = false }
            if hasLink(body) { signals.append(.link) }
            if previousHasPipe && isDelimiterRow(body) { signals.append(.table); isText = false }
            if previousIsText && isSetextUnderline(body) { signals.append(.setext); isText = false }
            if !signals.isEmpty {
                signalLines += 1
                kinds.formUnion(signals)
            }
            previousWasHeading = isHeading
            previousIsText = isText
            previousHasPipe = body.contains(UInt8(ascii: "|"))
            previousBlank = false
        }

        guard counted > 0, codeLike * 4 < counted else { return .text }
        if kinds.contains(.table) || closedFences > 0 || headingsWithBlankAfter >= 2 { return .markdown }
        if kinds.count >= 2 && signalLines * 50 >= counted { return .markdown }
        return .text
    }

    // MARK: Markdown signals

    /// A fence of 3+ backticks or tildes at `start` (backtick fences have no backtick after).
    func fenceRun(_ line: Line, from start: Int) -> (character: UInt8, length: Int, end: Int)? {
        guard start < line.count else { return nil }
        let c = line[start]
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var i = start
        while i < line.count && line[i] == c { i += 1 }
        let length = i - start
        guard length >= 3 else { return nil }
        if c == UInt8(ascii: "`") && line[i...].contains(UInt8(ascii: "`")) { return nil }
        return (c, length, i)
    }

    func isATXHeading(_ body: Line) -> Bool {
        var i = 0
        while i < body.count && body[i] == UInt8(ascii: "#") { i += 1 }
        guard i >= 1 && i <= 6, i < body.count, isSpace(body[i]) else { return false }
        return body[i...].contains { !isSpace($0) && $0 != UInt8(ascii: "#") }
    }

    func isListItem(_ body: Line) -> Bool {
        guard let first = body.first else { return false }
        var i: Int
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            i = 1
        } else {
            i = 0
            while i < body.count && i < 10 && isDigit(body[i]) { i += 1 }
            guard i >= 1 && i <= 9, i < body.count,
                  body[i] == UInt8(ascii: ".") || body[i] == UInt8(ascii: ")") else { return false }
            i += 1
        }
        guard i < body.count, isSpace(body[i]) else { return false }
        return body[i...].contains { !isSpace($0) }
    }

    /// `[text](target)`, `[label]: target`, `<http://…>`.
    func hasLink(_ body: Line) -> Bool {
        if contains(body, "<http://") || contains(body, "<https://") { return true }
        let open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        // Reference definition.
        if body.first == open, let end = body.firstIndex(of: close), end > 1,
           end + 1 < body.count, body[end + 1] == UInt8(ascii: ":"),
           body[(end + 2)...].contains(where: { !isSpace($0) }) {
            return true
        }
        // Inline link: "](" with a "[" before (not after a word character) and a ")" after.
        var i = 0
        while i + 2 < body.count {
            if body[i] == close && body[i + 1] == UInt8(ascii: "(") && !isSpace(body[i + 2]) {
                var j = i - 1
                while j >= 0 && body[j] != open && body[j] != close { j -= 1 }
                if j >= 0, body[j] == open, j < i - 1 {
                    let before = j > 0 ? body[j - 1] : 0x20
                    let codeLikeBefore = isWordByte(before) || before == close || before == UInt8(ascii: ")")
                    if !codeLikeBefore && body[(i + 2)...].contains(UInt8(ascii: ")")) { return true }
                }
            }
            i += 1
        }
        return false
    }

    func isDelimiterRow(_ body: Line) -> Bool {
        var pipe = false, dash = false
        for b in body {
            switch b {
            case UInt8(ascii: "|"): pipe = true
            case UInt8(ascii: "-"): dash = true
            case UInt8(ascii: ":"), 0x20, 0x09: break
            default: return false
            }
        }
        return pipe && dash
    }

    func isSetextUnderline(_ body: Line) -> Bool {
        guard let first = body.first, first == UInt8(ascii: "=") || first == UInt8(ascii: "-"), body.count >= 3 else { return false }
        return body.allSatisfy { $0 == first }
    }

    // MARK: Code-like lines

    /// See rule 5 of `KindDetector.sniff`. `body` has no leading or trailing whitespace.
    func isCodeLike(_ body: Line) -> Bool {
        guard let last = body.last, let first = body.first else { return false }
        if last == UInt8(ascii: ";") || last == UInt8(ascii: "{") || last == UInt8(ascii: "}") { return true }
        if body.allSatisfy({ ")]},;".utf8.contains($0) }) { return true }
        if first == UInt8(ascii: "#"), body.count > 1, isLetter(body[1]) { return true }
        if starts(body, with: "import ") || starts(body, with: "package ") || starts(body, with: "using ")
            || starts(body, with: "namespace ") || starts(body, with: "if __name__") { return true }
        if starts(body, with: "from "), contains(body, " import ") { return true }
        if (starts(body, with: "def ") || starts(body, with: "class ")) && last == UInt8(ascii: ":") { return true }
        if first == UInt8(ascii: "\""), contains(body, "\":") { return true }
        if first == UInt8(ascii: "["), last == UInt8(ascii: "]"), !body.dropFirst().contains(UInt8(ascii: "[")) {
            return true  // [section]
        }
        return isKeyValue(body)
    }

    /// `key: value`, `key:` or `key = value`, the key an identifier (letters, digits, `_ . -`).
    func isKeyValue(_ body: Line) -> Bool {
        guard isLetter(body[0]) || body[0] == UInt8(ascii: "_") else { return false }
        var i = 1
        while i < body.count, isWordByte(body[i]) || body[i] == UInt8(ascii: ".") || body[i] == UInt8(ascii: "-") { i += 1 }
        guard i < body.count else { return false }
        if body[i] == UInt8(ascii: ":") { return i + 1 == body.count || isSpace(body[i + 1]) }
        while i < body.count && isSpace(body[i]) { i += 1 }
        guard i < body.count, body[i] == UInt8(ascii: "=") else { return false }
        return i + 1 == body.count || body[i + 1] != UInt8(ascii: "=")
    }
}
