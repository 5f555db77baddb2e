/// folio's config file (`$XDG_CONFIG_HOME/folio/config`), read as text: options as they are
/// written on the command line, one or more a line; `#` starts a comment where a word could
/// start; words are split at blanks as a shell splits them (`'single'` and `"double"` quotes,
/// a backslash takes the next character); `[markdown]` and `[text]` start a section whose
/// options apply to documents of that kind only, `[all]` goes back to every document.
///
/// ```
/// # the same for every document
/// --mouse -i
/// [markdown]
/// --max-width=72 --align=center
/// [text]
/// --restore=never -S
/// ```
///
/// Pure: the text in, lines of words and errors out. A line that cannot be read (an open
/// quote, an unknown section) is an error naming the file and line, and is skipped; the rest
/// of the file still applies.
public struct ConfigFile: Equatable, Sendable {
    /// What the options of a line apply to.
    public enum Section: String, CaseIterable, Equatable, Sendable {
        case all, markdown, text
    }

    /// One line that holds words.
    public struct Line: Equatable, Sendable {
        /// 1-based.
        public var number: Int
        public var section: Section
        public var words: [String]
        public init(number: Int, section: Section, words: [String]) {
            self.number = number; self.section = section; self.words = words
        }
    }

    /// The file's name as messages show it.
    public var name: String
    public var lines: [Line] = []
    /// `name:line: what is wrong`, in the order of the file.
    public var errors: [String] = []

    public init(name: String, text: String) {
        self.name = name
        var section = Section.all
        var skipping = false  // after an unknown section header, until the next good one
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") {
                let header = Self.stripComment(trimmed)
                guard header.hasSuffix("]") else {
                    errors.append("\(name):\(number): a section is written [markdown], [text] or [all]")
                    continue
                }
                let title = header.dropFirst().dropLast().trimmingBlanks().lowercased()
                if let s = Section(rawValue: title) {
                    section = s
                    skipping = false
                } else {
                    errors.append("\(name):\(number): unknown section [\(title)] (folio knows [markdown], [text] and [all]); its lines are skipped")
                    skipping = true
                }
                continue
            }
            if skipping { continue }
            switch Self.words(line) {
            case .success(let words):
                if !words.isEmpty { lines.append(Line(number: number, section: section, words: words)) }
            case .failure(let problem):
                errors.append("\(name):\(number): \(problem.message)")
            }
        }
    }

    /// What makes a line unreadable.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
    }

    /// The words of a line as a POSIX shell splits them (no expansions): blanks separate,
    /// `'…'` keeps everything, `"…"` keeps everything but `\"`, `\\`, `\$` and `` \` ``, and a
    /// backslash outside quotes takes the next character; `#` at the start of a word begins a
    /// comment to the end of the line.
    public static func words(_ line: Substring) -> Result<[String], Problem> {
        var words: [String] = []
        var current = ""
        var inWord = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            i = line.index(after: i)
            switch c {
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            case "#" where !inWord:
                i = line.endIndex
            case "\\":
                inWord = true
                if i < line.endIndex { current.append(line[i]); i = line.index(after: i) }
            case "'":
                inWord = true
                guard let close = line[i...].firstIndex(of: "'") else {
                    return .failure(Problem(message: "a ' is not closed"))
                }
                current += line[i..<close]
                i = line.index(after: close)
            case "\"":
                inWord = true
                var closed = false
                while i < line.endIndex {
                    let d = line[i]
                    i = line.index(after: i)
                    if d == "\"" { closed = true; break }
                    if d == "\\", i < line.endIndex, "\"\\$`".contains(line[i]) {
                        current.append(line[i])
                        i = line.index(after: i)
                    } else {
                        current.append(d)
                    }
                }
                guard closed else { return .failure(Problem(message: "a \" is not closed")) }
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return .success(words)
    }

    static func stripComment(_ s: Substring) -> Substring {
        let cut = s.firstIndex(of: "#") ?? s.endIndex
        return s[..<cut].trimmingBlanks()
    }
}

extension Substring {
    func trimmingBlanks() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
