/// A lesskey source file (lesskey(1), the format less 582 and later read themselves), read as
/// less's `lesskey_parse.c` reads it: sections `#command` (the first, when unnamed),
/// `#line-edit` and `#env`; blank lines and comments (`#` to the end of the line, unless
/// written `\#`) ignored; `#stop` ends the defaults of the section it is in; `#version OP N`
/// keeps the rest of its line when less `N` compares so (folio answers as less
/// `Lesskey.lessVersion`).
///
/// A command line is `STRING ACTION [EXTRA]`: the keys (`^X` a control key, `\e` Esc, `\b`
/// `\n` `\r` `\t`, `\ddd` octal, `\ku` `\kd` `\kl` `\kr` the arrows, `\kU` `\kD` page up and
/// down, `\kh` `\ke` home and end, `\kx` delete, `\k1` F1…, any other `\c` the character c),
/// the action's name, and characters typed after the action (for `forw-bracket`, the two
/// brackets). Pure: the text in, bindings and errors (`name:line: …`) out; the names are not
/// checked here (the pager knows which it has).
public struct Lesskey: Equatable, Sendable {
    /// One key of a binding's string: a byte as typed, or a key lesskey names (`\kd`: `d`).
    public enum Piece: Hashable, Sendable {
        case byte(UInt8)
        case special(Character)
    }

    public struct Binding: Equatable, Sendable {
        /// 1-based line in its file.
        public var line: Int
        public var keys: [Piece]
        public var action: String
        /// Characters typed after the action (`\e/ forw-search *`).
        public var extra: [UInt8]
        public init(line: Int, keys: [Piece], action: String, extra: [UInt8] = []) {
            self.line = line; self.keys = keys; self.action = action; self.extra = extra
        }
    }

    public struct Variable: Equatable, Sendable {
        public var line: Int
        public var name: String
        public var value: String
    }

    /// The file's name as messages show it.
    public var name: String
    public var commands: [Binding] = []
    public var lineEdits: [Binding] = []
    public var variables: [Variable] = []
    /// The line of `#stop` in `#command` (no default command after the file's), if any.
    public var commandStop: Int?
    /// The line of `#stop` in `#line-edit`.
    public var lineEditStop: Int?
    /// `name:line: what is wrong`.
    public var errors: [String] = []
    /// folio's own keys file: folio's action names are allowed too (a lesskey file has
    /// less's only, since less reads it as well).
    public var folioActions = false

    /// `$LESSKEY_CONTENT`: lesskey source in a variable, lines ended by a newline or a `;`
    /// (`\;` is a semicolon), as less's `parse_lesskey_content` reads it.
    public init(name: String, content: String) {
        var text = ""
        var i = content.startIndex
        while i < content.endIndex {
            let c = content[i]
            let next = content.index(after: i)
            if c == "\\", next < content.endIndex, content[next] == ";" {
                text.append(";")
                i = content.index(after: next)
                continue
            }
            text.append(c == ";" ? "\n" : c)
            i = next
        }
        self.init(name: name, text: text)
    }

    /// The less version `#version` lines are compared with.
    public static let lessVersion = 668

    private enum Section { case command, lineEdit, env }

    public init(name: String, text: String) {
        self.name = name
        var section = Section.command
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Array((raw.hasSuffix("\r") ? raw.dropLast() : raw).utf8)[...]
            // Control lines start at the line's first byte, as in less.
            if line.starts(with: "#line-edit".utf8) { section = .lineEdit; continue }
            if line.starts(with: "#command".utf8) { section = .command; continue }
            if line.starts(with: "#env".utf8) { section = .env; continue }
            if line.starts(with: "#stop".utf8) {
                switch section {
                case .command: commandStop = commandStop ?? number
                case .lineEdit: lineEditStop = lineEditStop ?? number
                case .env: break
                }
                continue
            }
            if line.starts(with: "#version".utf8) {
                guard let rest = versionLine(line.dropFirst(8), number: number) else { continue }
                line = rest
            }
            let clean = Self.cleaned(line)
            if clean.isEmpty { continue }
            switch section {
            case .command, .lineEdit:
                guard let binding = bindingLine(clean, number: number) else { continue }
                if section == .command { commands.append(binding) } else { lineEdits.append(binding) }
            case .env:
                variableLine(clean, number: number)
            }
        }
    }

    /// Leading blanks skipped; cut at a `#` not after a backslash.
    static func cleaned(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let s = line.drop { $0 == 0x20 || $0 == 0x09 }
        var end = s.startIndex
        while end < s.endIndex {
            if s[end] == 0x23 && (end == s.startIndex || s[end - 1] != 0x5C) { break }
            end += 1
        }
        return s[s.startIndex..<end]
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    private mutating func bindingLine(_ s: ArraySlice<UInt8>, number: Int) -> Binding? {
        var p = s.startIndex
        var keys: [Piece] = []
        repeat {
            keys += piece(s, &p, keysNamed: true, number: number)
        } while p < s.endIndex && !Self.isBlank(s[p])
        while p < s.endIndex && Self.isBlank(s[p]) { p += 1 }
        guard p < s.endIndex else {
            errors.append("\(name):\(number): missing action")
            return nil
        }
        let start = p
        while p < s.endIndex && !Self.isBlank(s[p]) { p += 1 }
        let action = String(decoding: s[start..<p], as: UTF8.self)
        while p < s.endIndex && Self.isBlank(s[p]) { p += 1 }
        var extra: [UInt8] = []
        while p < s.endIndex {
            for case .byte(let b) in piece(s, &p, keysNamed: false, number: number) { extra.append(b) }
        }
        return Binding(line: number, keys: keys, action: action, extra: extra)
    }

    private mutating func variableLine(_ s: ArraySlice<UInt8>, number: Int) {
        guard let eq = s.firstIndex(of: 0x3D) else {
            errors.append("\(name):\(number): missing = in variable definition")
            return
        }
        var value: [UInt8] = []
        var p = eq + 1
        while p < s.endIndex && Self.isBlank(s[p]) { p += 1 }
        while p < s.endIndex {
            for case .byte(let b) in piece(s, &p, keysNamed: false, number: number) { value.append(b) }
        }
        let text = String(decoding: value, as: UTF8.self)
        if eq > s.startIndex && s[eq - 1] == 0x2B {  // `+=`: appended to the variable before, as less does
            if !variables.isEmpty { variables[variables.count - 1].value += text }
            return
        }
        var namePart = s[s.startIndex..<eq]
        while let last = namePart.last, Self.isBlank(last) { namePart = namePart.dropLast() }
        variables.append(Variable(line: number, name: String(decoding: namePart, as: UTF8.self), value: text))
    }

    /// `#version OP N REST`: REST when less's version compares so, else nil.
    private mutating func versionLine(_ s: ArraySlice<UInt8>, number: Int) -> ArraySlice<UInt8>? {
        var p = s.drop { Self.isBlank($0) }
        guard let op = p.first, "<>=!".utf8.contains(op) else {
            errors.append("\(name):\(number): invalid operator in #version line")
            return nil
        }
        p = p.dropFirst()
        var orEqual = false
        if p.first == 0x3D { orEqual = true; p = p.dropFirst() }
        p = p.drop { Self.isBlank($0) }
        let digits = p.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard let version = Int(String(decoding: digits, as: UTF8.self)) else {
            errors.append("\(name):\(number): non-numeric version number in #version line")
            return nil
        }
        let v = Self.lessVersion
        let matches: Bool
        switch op {
        case UInt8(ascii: "<"): matches = orEqual ? v <= version : v < version
        case UInt8(ascii: ">"): matches = orEqual ? v >= version : v > version
        case UInt8(ascii: "="): matches = v == version
        default: matches = v != version
        }
        return matches ? p.dropFirst(digits.count) : nil
    }

    /// less's `tstr`: one character of a string at `p`, moving past it.
    private mutating func piece(_ s: ArraySlice<UInt8>, _ p: inout Int, keysNamed: Bool, number: Int) -> [Piece] {
        let c = s[p]
        p += 1
        if c == 0x5E, p < s.endIndex {  // ^X
            let x = s[p]
            p += 1
            return [.byte(x & 0x1F)]
        }
        guard c == 0x5C, p < s.endIndex else { return [.byte(c)] }
        let e = s[p]
        p += 1
        switch e {
        case 0x30...0x37:
            var value = Int(e - 0x30)
            var digits = 1
            while digits < 3, p < s.endIndex, s[p] >= 0x30 && s[p] <= 0x37 {
                value = value * 8 + Int(s[p] - 0x30)
                p += 1
                digits += 1
            }
            return [.byte(UInt8(value & 0xFF))]
        case UInt8(ascii: "b"): return [.byte(0x08)]
        case UInt8(ascii: "e"): return [.byte(0x1B)]
        case UInt8(ascii: "n"): return [.byte(0x0A)]
        case UInt8(ascii: "r"): return [.byte(0x0D)]
        case UInt8(ascii: "t"): return [.byte(0x09)]
        case UInt8(ascii: "k") where keysNamed:
            guard p < s.endIndex else {
                errors.append("\(name):\(number): invalid escape sequence \"\\k\"")
                return []
            }
            let k = Character(Unicode.Scalar(s[p]))
            p += 1
            guard Self.namedKeys.contains(k) else {
                errors.append("\(name):\(number): invalid escape sequence \"\\k\(k)\"")
                return []
            }
            return [.special(k)]
        default:
            return [.byte(e)]
        }
    }

    /// The keys `\k` names: arrows (`u d l r`, with Ctrl `L R`), page up and down (`U D`),
    /// home and end (`h e`), insert (`i`), delete (`x`, with Ctrl `X`), backspace (`b`, with
    /// Ctrl `B`), back-tab (`t`), F1 (`1`).
    public static let namedKeys: Set<Character> = ["b", "B", "d", "D", "e", "h", "i", "l", "L", "r", "R", "t", "u", "U", "x", "X", "1"]
}
