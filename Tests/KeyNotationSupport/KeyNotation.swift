import TerminalScreen

/// Keys written as text, vim/helix style, as the tests type them (folio's key bindings are
/// lesskey files, `LessOptions.Lesskey`):
/// `"3<Space>G<C-b>/foo<CR><Esc><A-v><PageDown><S-Tab><Up><BS><Tab><lt>"`.
///
/// - Any character outside `<…>` is that character (`"G"` is `.char("G")`).
/// - `<Name>` is a named key; names are case-insensitive: `Space CR Enter Return NL Esc Tab
///   S-Tab BackTab BS Backspace Del Delete Ins Insert Up Down Left Right Home End PageUp PgUp
///   PageDown PgDn F1…F20 lt gt Bar Bslash`.
/// - Modifier prefixes, combinable: `C-` (Ctrl), `A-` or `M-` (Alt), `S-` (Shift):
///   `<C-f>`, `<A-v>`, `<C-A-x>`, `<S-Up>`, `<C-Right>`, `<A-Left>`, `<S-a>` (= `A`),
///   `<C-Space>` (= `<C-@>`, NUL).
/// - A literal `<` is `<lt>`; a `<` that does not start a valid `<…>` is an error, so typos
///   like `<PgDown>` fail loudly instead of typing text.
public enum KeyNotation {
    public struct ParseError: Error, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static let names: [String: Key] = [
        "space": .char(" "), "cr": .enter, "enter": .enter, "return": .enter, "nl": .enter,
        "esc": .escape, "escape": .escape, "tab": .tab, "backtab": .backTab,
        "bs": .backspace, "backspace": .backspace, "del": .delete, "delete": .delete,
        "ins": .insert, "insert": .insert,
        "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pageup": .pageUp, "pgup": .pageUp, "pagedown": .pageDown, "pgdn": .pageDown,
        "lt": .char("<"), "gt": .char(">"), "bar": .char("|"), "bslash": .char("\\"),
    ]

    /// Parses notation into keys.
    public static func parse(_ text: String) throws -> [Key] {
        var keys: [Key] = []
        var rest = Substring(text)
        while let first = rest.first {
            guard first == "<" else {
                keys.append(.char(first))
                rest = rest.dropFirst()
                continue
            }
            guard let close = rest.firstIndex(of: ">"), close > rest.index(after: rest.startIndex) else {
                throw ParseError(message: "unclosed '<' in \(text.debugDescription) (write <lt> for '<')")
            }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            keys.append(try parseBracketed(inner))
            rest = rest[rest.index(after: close)...]
        }
        return keys
    }

    private static func parseBracketed(_ inner: Substring) throws -> Key {
        var mods: KeyModifiers = []
        var name = inner
        // Strip "C-", "A-", "M-", "S-" prefixes; the last part is the key ("<C-->" is Ctrl-minus).
        while name.count > 2, name.dropFirst().first == "-" {
            switch name.first!.lowercased() {
            case "c": mods.insert(.ctrl)
            case "a", "m": mods.insert(.alt)
            case "s": mods.insert(.shift)
            default: throw ParseError(message: "unknown modifier in <\(inner)>")
            }
            name = name.dropFirst(2)
        }
        var key: Key
        if name.count == 1 {
            key = .char(name.first!)
        } else if let named = names[name.lowercased()] {
            key = named
        } else if name.lowercased().hasPrefix("f"), let n = Int(name.dropFirst()), (1...20).contains(n) {
            key = .function(n)
        } else {
            throw ParseError(message: "unknown key <\(inner)>")
        }
        if mods.contains(.shift) {
            switch key {
            case .tab: key = .backTab
            case .char(let c) where c.isLetter: key = .char(Character(c.uppercased()))
            case .char: break  // <S-1> is just "1": the terminal sends what the layout gives
            default: key = .modified(key, .shift)
            }
        }
        if mods.contains(.ctrl) {
            switch key {
            case .char(" "):
                key = .ctrl("@")  // Ctrl-Space sends NUL, like Ctrl-@
            case .char(let c):
                let lower = Character(c.lowercased())
                guard "abcdefghijklmnopqrstuvwxyz@[\\]^_".contains(lower) else {
                    throw ParseError(message: "no Ctrl form for <\(inner)>")
                }
                key = .ctrl(lower)
            case .modified(let base, let m): key = .modified(base, m.union(.ctrl))
            case .enter, .tab, .backspace, .escape, .backTab:
                throw ParseError(message: "terminals cannot send <\(inner)>")
            default: key = .modified(key, .ctrl)
            }
        }
        if mods.contains(.alt) { key = .alt(key) }
        return key
    }

    /// Writes keys back in notation; `parse(format(keys)) == keys` for every key `parse` makes.
    public static func format(_ keys: [Key]) -> String {
        keys.map(format).joined()
    }

    public static func format(_ key: Key) -> String {
        switch key {
        case .char("<"): return "<lt>"
        case .char(" "): return "<Space>"
        case .char(let c): return String(c)
        case .ctrl(let c): return "<C-\(c)>"
        case .alt(let inner):
            let text = format(inner)
            return text.hasPrefix("<") && text.count > 2 ? "<A-" + text.dropFirst() : "<A-\(text)>"
        case .modified(let base, let mods):
            var prefix = ""
            if mods.contains(.ctrl) { prefix += "C-" }
            if mods.contains(.shift) { prefix += "S-" }
            return "<" + prefix + format(base).dropFirst()
        case .up: return "<Up>"
        case .down: return "<Down>"
        case .left: return "<Left>"
        case .right: return "<Right>"
        case .home: return "<Home>"
        case .end: return "<End>"
        case .pageUp: return "<PageUp>"
        case .pageDown: return "<PageDown>"
        case .insert: return "<Insert>"
        case .delete: return "<Del>"
        case .backspace: return "<BS>"
        case .enter: return "<CR>"
        case .tab: return "<Tab>"
        case .backTab: return "<S-Tab>"
        case .escape: return "<Esc>"
        case .function(let n): return "<F\(n)>"
        }
    }

    /// The bytes an xterm-compatible terminal (normal cursor mode) sends for the keys.
    public static func encode(_ keys: [Key]) -> [UInt8] {
        keys.flatMap { encode($0) }
    }

    public static func encode(_ key: Key) -> [UInt8] {
        let esc: UInt8 = 0x1B
        func csi(_ s: String) -> [UInt8] { [esc, 0x5B] + Array(s.utf8) }
        switch key {
        case .char(let c): return Array(String(c).utf8)
        case .ctrl(let c):
            guard let ascii = c.asciiValue else { return [] }
            return [ascii & 0x1F]
        case .alt(let inner):
            if let special = specialSequence(inner, modifierCode: 3) { return special }
            return [esc] + encode(inner)
        case .modified(let base, let mods):
            let code = 1 + (mods.contains(.shift) ? 1 : 0) + (mods.contains(.alt) ? 2 : 0) + (mods.contains(.ctrl) ? 4 : 0)
            return specialSequence(base, modifierCode: code) ?? encode(base)
        case .backspace: return [0x7F]
        case .enter: return [0x0D]
        case .tab: return [0x09]
        case .backTab: return csi("Z")
        case .escape: return [esc]
        default: return specialSequence(key, modifierCode: 1) ?? []
        }
    }

    /// CSI/SS3 form of a named key with xterm's modifier parameter (1 = none), or nil for keys
    /// that have none. Alt + a `.modified` key merges into one parameter.
    private static func specialSequence(_ key: Key, modifierCode: Int) -> [UInt8]? {
        let esc: UInt8 = 0x1B
        if case .modified(let base, let mods) = key {
            let code = modifierCode + (mods.contains(.shift) ? 1 : 0) + (mods.contains(.ctrl) ? 4 : 0)
            return specialSequence(base, modifierCode: code)
        }
        func letter(_ l: String) -> [UInt8] {
            modifierCode == 1 ? [esc, 0x5B] + Array(l.utf8) : [esc, 0x5B] + Array("1;\(modifierCode)\(l)".utf8)
        }
        func tilde(_ n: Int) -> [UInt8] {
            modifierCode == 1 ? [esc, 0x5B] + Array("\(n)~".utf8) : [esc, 0x5B] + Array("\(n);\(modifierCode)~".utf8)
        }
        switch key {
        case .up: return letter("A")
        case .down: return letter("B")
        case .right: return letter("C")
        case .left: return letter("D")
        case .home: return letter("H")
        case .end: return letter("F")
        case .insert: return tilde(2)
        case .delete: return tilde(3)
        case .pageUp: return tilde(5)
        case .pageDown: return tilde(6)
        case .function(let n) where (1...4).contains(n):
            let l = ["P", "Q", "R", "S"][n - 1]
            return modifierCode == 1 ? [esc, 0x4F] + Array(l.utf8) : letter(l)
        case .function(let n) where (5...24).contains(n):
            let codes = [15, 17, 18, 19, 20, 21, 23, 24, 25, 26, 28, 29, 31, 32, 33, 34]
            return n - 5 < codes.count ? tilde(codes[n - 5]) : nil
        default: return nil
        }
    }
}
