/// Reads option strings as less's `scan_option` does, for `$LESS`, `$FOLIO` and each word of
/// the command line: letters one after another (`-FRX`, or `FRX` without the dash), `--name`,
/// `--name=value` and unique abbreviations of names, `-+x` (back to the default, for every
/// letter up to the next `-`), a value joined to its letter or in the next word (`-j5`,
/// `-j 5`, `-P` then the prompt), `-N` for `-zN`, and `+cmd` / `++cmd`. A value ends at `$`
/// (`-Pm…$PM…`), at the end of the string or before the first character its syntax does
/// not allow (`-j5X` is `-j5 -X`); `-p`'s and `-P`'s run on over blanks.
///
/// Pure: it returns what it read, settings and errors in order. An error stops the string it
/// is in where less stops it: an unknown option, an ambiguous name, `=` after an option that
/// takes no value, a missing value end the string; a bad number only that option.
public struct OptionScanner: Sendable {
    /// One option as written.
    public struct Setting: Equatable, Sendable {
        public enum Form: Equatable, Sendable {
            /// A bool option set, a triple option's lower-case form, an action.
            case on
            /// A triple option's upper-case form (`-I`, `--IGNORE-CASE`).
            case onPlus
            /// `-+x`: back to the default (bool and triple options).
            case reset
            case value(String)
            case number(Int)
        }
        public var option: OptionID
        public var form: Form
        public init(_ option: OptionID, _ form: Form) { self.option = option; self.form = form }
    }

    public enum Item: Equatable, Sendable {
        case setting(Setting)
        /// `+cmd`: a command to run at the start; `++cmd`: at the start of every file.
        case command(String, everyFile: Bool)
        /// What less would say (`There is no -W option`).
        case error(String)
    }

    /// less's `--use-backslash`, once read: a backslash in a later value takes the next
    /// character as it is (`-P` with a `\$` in it).
    public private(set) var useBackslash = false
    /// An option read without its value at the end of a string: the next string is its value.
    private var pending: OptionSpec?

    public init() {}

    /// The next string is the value of an option that ended the last one (`-P`, `--width`).
    public var isPending: Bool { pending != nil }

    /// Reads one string: `$LESS` whole, or one word of the command line.
    public mutating func scan(_ text: String) -> [Item] {
        let s = Array(text.utf8)
        if let spec = pending {
            pending = nil
            switch spec.kind {
            case .string: return [.setting(Setting(spec.id, .value(text)))]
            default:
                var i = 0
                return [number(s, &i, spec)]
            }
        }
        var items: [Item] = []
        var setDefault = false
        var i = 0
        while i < s.count {
            var c = s[i]
            i += 1
            var name: Int?
            switch c {
            case 0x20, 0x09, Self.endOfOption:
                continue
            case 0x2D:  // '-'
                if i < s.count && s[i] == 0x2D { i += 1; name = i }
                setDefault = i < s.count && s[i] == 0x2B
                if setDefault { i += 1 }
                if name != nil { name = i } else { continue }
            case 0x2B:  // '+': a command, to the end of the string or a `$`
                guard let (value, end) = optionString(s, from: i, syntax: .rest) else {
                    items.append(.error("Value is required after +"))
                    return items
                }
                i = end
                if value.hasPrefix("+") {
                    items.append(.command(String(value.dropFirst()), everyFile: true))
                } else {
                    items.append(.command(value, everyFile: false))
                }
                continue
            case 0x30...0x39:  // `-5`: more's form of `-z5`
                i -= 1
                c = UInt8(ascii: "z")
            default:
                break
            }

            let spec: OptionSpec
            var upper: Bool
            if let start = name {
                var end = start
                while end < s.count && s[end] != 0x20 && s[end] != 0x3D { end += 1 }
                let typed = "--" + String(decoding: s[start..<end], as: UTF8.self)
                upper = start < s.count && OptionTable.isUpper(s[start])
                switch OptionTable.find(name: s[start...]) {
                case .ambiguous:
                    items.append(.error("\(typed) is an ambiguous abbreviation"))
                    return items
                case .none:
                    items.append(.error("There is no \(typed) option"))
                    return items
                case .found(let id, let length):
                    i = start + length
                    let found = OptionTable.spec(id)
                    if i == s.count || s[i] == 0x20 {
                        // The name, whole or abbreviated.
                    } else if s[i] == 0x3D {
                        switch found.kind {
                        case .string, .number: i += 1
                        default:
                            items.append(.error("The --\(found.names[0]) option should not be followed by ="))
                            return items
                        }
                    } else {
                        items.append(.error("There is no \(typed) option"))
                        return items
                    }
                    spec = found
                }
            } else {
                guard let found = OptionTable.spec(letter: Character(Unicode.Scalar(c))), c < 0x80 else {
                    items.append(.error("There is no -\(Self.character(s, at: i - 1)) option"))
                    return items
                }
                spec = found
                upper = OptionTable.isUpper(c) && found.kind == .triple
            }
            if spec.kind != .triple { upper = false }

            switch spec.kind {
            case .bool, .triple, .action:
                let form: Setting.Form = setDefault && spec.kind != .action ? .reset : (upper ? .onPlus : .on)
                if spec.id == .useBackslash { useBackslash = form != .reset }
                items.append(.setting(Setting(spec.id, form)))
            case .string(let syntax):
                if i == s.count { pending = spec; return items }
                while i < s.count && s[i] == 0x20 { i += 1 }
                guard let (value, end) = optionString(s, from: i, syntax: syntax) else {
                    items.append(.error("Value is required after \(spec.display())"))
                    return items
                }
                i = end
                items.append(.setting(Setting(spec.id, .value(value))))
            case .number:
                if i == s.count { pending = spec; return items }
                items.append(number(s, &i, spec))
            }
        }
        return items
    }

    /// The end of a source (`$LESS`, `$FOLIO`, the command line): an option still waiting
    /// for its value is an error.
    public mutating func finish() -> [Item] {
        guard let spec = pending else { return [] }
        pending = nil
        return [.error("Value is required after \(spec.display())")]
    }

    /// less's `END_OPTION_STRING`.
    static let endOfOption = UInt8(ascii: "$")

    /// less's `optstring`: the value from `start` to the first `$`, the end, or (with a
    /// syntax) the first character it does not allow; nil when there is nothing to read.
    func optionString(_ s: [UInt8], from start: Int, syntax: ValueSyntax) -> (String, end: Int)? {
        guard start < s.count else { return nil }
        var valid = Array(syntax.rawValue.utf8)[...]
        var out: [UInt8] = []
        var p = start
        while p < s.count {
            let c = s[p]
            if useBackslash && c == 0x5C && p + 1 < s.count {
                p += 1  // the next character, as it is
            } else {
                if syntax != .rest {
                    let first = valid.first
                    if first == UInt8(ascii: "s") {
                        if c == 0x20 { break }
                    } else if c == UInt8(ascii: "-") {
                        guard first == c else { break }
                        valid = valid.dropFirst()
                    } else if c == UInt8(ascii: ".") {
                        if valid.first == UInt8(ascii: "-") { valid = valid.dropFirst() }
                        guard valid.first == c else { break }
                        valid = valid.dropFirst()
                    } else if c == UInt8(ascii: ",") {
                        guard valid.count >= 2, valid[valid.startIndex + 1] == c else { break }
                    } else if c >= 0x30 && c <= 0x39 {
                        while valid.first == UInt8(ascii: "-") || valid.first == UInt8(ascii: ".") { valid = valid.dropFirst() }
                        guard valid.first == UInt8(ascii: "d") else { break }
                    } else {
                        break
                    }
                }
                if c == Self.endOfOption { break }
            }
            out.append(s[p])
            p += 1
        }
        return (String(decoding: out, as: UTF8.self), p)
    }

    /// less's `getnumc` at `i`: blanks, an optional `-`, digits; an int (32 bits, as less's).
    /// On an error `i` stays where it was, so scanning goes on from there, as in less.
    func number(_ s: [UInt8], _ i: inout Int, _ spec: OptionSpec) -> Item {
        var p = i
        while p < s.count && (s[p] == 0x20 || s[p] == 0x09) { p += 1 }
        let negative = p < s.count && s[p] == 0x2D
        if negative { p += 1 }
        guard p < s.count, s[p] >= 0x30 && s[p] <= 0x39 else {
            return .error("Number is required after \(spec.display())")
        }
        var n = 0
        var overflow = false
        while p < s.count, s[p] >= 0x30 && s[p] <= 0x39 {
            n = n * 10 + Int(s[p] - 0x30)
            if n > Int(Int32.max) { overflow = true; n = 0 }
            p += 1
        }
        i = p
        if overflow { return .error("Number is too large after \(spec.display())") }
        return .setting(Setting(spec.id, .number(negative ? -n : n)))
    }

    /// The character at a byte, whole (a multi-byte UTF-8 letter is named, not its first byte).
    static func character(_ s: [UInt8], at i: Int) -> String {
        var end = i + 1
        while end < s.count && s[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: s[i..<end], as: UTF8.self)
    }
}
