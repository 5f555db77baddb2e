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

    /// What the line scan found (rule 5).
    struct Tally {
        var kinds = Set<Signal>()
        var signalLines = 0
        var counted = 0
        var codeLike = 0
        var indented = 0
        var closedFences = 0
        var headings = 0
    }

    func markdownScore(_ lines: [Line]) -> DocumentKind {
        guard let tally = tally(lines) else { return .text }
        return decide(tally)
    }

    /// The line scan of rule 5; nil when a git or diff line (rule 4) decides for text.
    func tally(_ lines: [Line]) -> Tally? {
        var tally = Tally()
        var fence: Fence?
        var commentEnd: StaticString?  // inside a /* */ or <!-- --> block: its end
        var previousBlank = true  // the start counts as a blank line before
        var previousIsText = false  // a paragraph-like line: what a setext underline may follow
        var previousHasPipe = false
        var previousIsHash = false  // the line before starts with "#"
        var index = frontMatterEnd(lines)

        while index < lines.count {
            let line = lines[index]
            let next = index + 1 < lines.count ? lines[index + 1] : nil
            index += 1
            let (columns, start) = indentation(line)
            let end = trimmedEnd(line)
            if let open = fence {
                if columns < 4, let closing = fenceRun(line, from: start), closing.character == open.character,
                   closing.length >= open.length, closing.end == end {
                    fence = nil
                    tally.closedFences += 1
                    tally.signalLines += 1
                }
                continue
            }
            if isGitOrDiffLine(line, next: next) { return nil }
            if start >= end {
                previousBlank = true; previousIsText = false; previousHasPipe = false; previousIsHash = false
                continue
            }
            let body = Line(rebasing: line[start..<end])
            // Two or more lines in a row that start with "#" are a comment block (shell, Python,
            // configuration), never headings.
            let isHash = body[0] == UInt8(ascii: "#")
            let inHashBlock = isHash && (previousIsHash || next.map(startsWithHash) == true)
            previousIsHash = isHash
            if let close = commentEnd {
                if contains(body, close) { commentEnd = nil }
                continue
            }
            if starts(body, with: "/*") && !contains(body, "*/") { commentEnd = "*/"; continue }
            if starts(body, with: "<!--") && !contains(body, "-->") { commentEnd = "-->"; continue }
            let listItem = isListItem(body)
            if columns >= 4 && !listItem {
                tally.indented += 1
                previousBlank = false; previousHasPipe = false
                continue
            }
            tally.counted += 1
            if inHashBlock || isCodeLike(body) { tally.codeLike += 1 }
            if let run = fenceRun(line, from: start), columns < 4 {
                fence = Fence(character: run.character, length: run.length)
                tally.kinds.insert(.fence)
                tally.signalLines += 1
                previousBlank = false; previousIsText = false; previousHasPipe = false
                continue
            }
            var signals: [Signal] = []
            var isText = !listItem
            if listItem { signals.append(.list) }
            if previousBlank && !inHashBlock && isATXHeading(body) {
                signals.append(.heading)
                isText = false
                if next.map(isBlank) ?? true { tally.headings += 1 }
            }
            if hasLink(body) { signals.append(.link) }
            if previousHasPipe && isDelimiterRow(body) { signals.append(.table); isText = false }
            if previousIsText && isSetextUnderline(body) {
                signals.append(.setext); tally.headings += 1; isText = false
            }
            if !signals.isEmpty {
                tally.signalLines += 1
                tally.kinds.formUnion(signals)
            }
            previousIsText = isText
            previousHasPipe = body.contains(UInt8(ascii: "|"))
            previousBlank = false
        }
        return tally
    }

    func startsWithHash(_ line: Line) -> Bool {
        let (_, start) = indentation(line)
        return start < line.count && line[start] == UInt8(ascii: "#")
    }

    func isBlank(_ line: Line) -> Bool { trimmedEnd(line) <= indentation(line).end }

    /// The decision of rule 5 from the tally.
    func decide(_ t: Tally) -> DocumentKind {
        guard t.counted > 0, t.signalLines * 50 >= t.counted else { return .text }
        let codeHeavy = t.codeLike * 4 >= t.counted || t.indented > 2 * t.counted
        let manySignals = t.kinds.count >= 3 && t.signalLines * 10 >= t.counted
        if codeHeavy && !manySignals { return .text }
        if t.kinds.contains(.table) || t.closedFences > 0 || t.headings >= 2 || t.kinds.count >= 2 { return .markdown }
        return .text
    }

    /// The index of the first line after YAML front matter (`---` on the first line, up to the
    /// next `---` or `...` within 100 lines), or 0.
    func frontMatterEnd(_ lines: [Line]) -> Int {
        guard let first = lines.first, trimmedEnd(first) == 3, starts(first, with: "---") else { return 0 }
        for k in 1..<min(lines.count, 100) {
            let line = lines[k]
            let end = trimmedEnd(line)
            if end == 3 && (starts(line, with: "---") || starts(line, with: "...")) { return k + 1 }
        }
        return 0
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
        return body[i...].contains { !isSpace($0) && $0 != UInt8(ascii: "#") } && !isDirective(body)
    }

    static let directives: [StaticString] = [
        "include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif", "pragma", "error", "import",
    ]

    /// `#  define X`, `# if defined(Y)`: a C preprocessor line with spaces after the `#`.
    func isDirective(_ body: Line) -> Bool {
        guard body.first == UInt8(ascii: "#") else { return false }
        var i = 1
        while i < body.count && isSpace(body[i]) { i += 1 }
        let word = Line(rebasing: body[i...])
        for directive in Self.directives where starts(word, with: directive) {
            let after = directive.utf8CodeUnitCount
            if after == word.count || !isLetter(word[after]) { return true }
        }
        return false
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
        guard let lastParenthesis = body.lastIndex(of: UInt8(ascii: ")")) else { return false }
        var i = 0
        while i + 2 < body.count {
            if body[i] == close && body[i + 1] == UInt8(ascii: "(") && !isSpace(body[i + 2]) {
                var j = i - 1
                while j >= 0 && body[j] != open && body[j] != close { j -= 1 }
                let closes = lastParenthesis >= i + 2
                if j >= 0, body[j] == open, j < i - 1 {
                    let before = j > 0 ? body[j - 1] : 0x20
                    let codeLikeBefore = isWordByte(before) || before == close || before == UInt8(ascii: ")")
                    if !codeLikeBefore && closes { return true }
                } else if j < 0 && closes && i > 0 {
                    return true  // the link text began on an earlier line
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
        if body.allSatisfy(isClosingPunctuation) { return true }
        if first == UInt8(ascii: "#"), body.count > 1, isLetter(body[1]) || isDirective(body) { return true }
        // (Each keyword check only for its first letter: the sniffer reads every line of 64 KB.)
        switch first {
        case UInt8(ascii: "i"):
            if starts(body, with: "import ") || starts(body, with: "if __name__") { return true }
        case UInt8(ascii: "p"):
            if starts(body, with: "package ") { return true }
        case UInt8(ascii: "u"):
            if starts(body, with: "using ") { return true }
        case UInt8(ascii: "n"):
            if starts(body, with: "namespace ") { return true }
        case UInt8(ascii: "f"):
            if starts(body, with: "from "), contains(body, " import ") { return true }
        case UInt8(ascii: "d"), UInt8(ascii: "c"):
            if (starts(body, with: "def ") || starts(body, with: "class ")) && last == UInt8(ascii: ":") { return true }
        default:
            break
        }
        if first == UInt8(ascii: "\""), contains(body, "\":") { return true }
        if first == UInt8(ascii: "<"), last == UInt8(ascii: ">") { return true }  // HTML, XML
        if first == UInt8(ascii: "["), last == UInt8(ascii: "]"), !body.dropFirst().contains(UInt8(ascii: "[")) {
            return true  // [section]
        }
        return isKeyValue(body)
    }

    /// `)`, `]`, `}`, `,` or `;`.
    @inline(__always) func isClosingPunctuation(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ")") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: ",")
            || b == UInt8(ascii: ";")
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
