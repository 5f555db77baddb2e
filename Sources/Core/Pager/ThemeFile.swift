import Styling
import TerminalScreen
import TextBasics

/// Themes as files (`folio --dump-theme=dark`, `themes/NAME.theme`): one setting a line,
/// `key = "value"` (TOML's syntax for strings; the quotes may be left out), `#` comments.
///
/// ```
/// appearance = "dark"          # the built-in palette a missing role comes from
/// background = "#000000"       # what contrast is checked against (default: black, white)
/// heading1 = "#ffaf5f/11 bold"
/// match = "#ffffff/15 on #5f5f00/3"
/// syntax.keyword = "#d787ff/13"
/// ```
///
/// A role's value: a colour, `on` and a background colour, and attributes (`bold`, `dim`,
/// `italic`, `underline`, `reverse`), in any order; `none` for none of them. A colour is
/// `#rrggbb` (truecolour; 256 colours take the nearest entry, 16 the nearest basic colour),
/// `#rrggbb/N` (N, 0-15: the basic colour a 16-colour terminal shows), `#rrggbb/M/N` (M,
/// 16-255: the entry a 256-colour terminal shows), or `M` alone (0-255: that palette entry at
/// every depth; 0-15 are the terminal's own basic colours).
///
/// Reading is forgiving: a line that cannot be read, an unknown role or a bad colour is a
/// warning naming the file and line, and that role keeps the built-in paint; a role the file
/// does not set is the built-in palette's (`appearance`'s). A text colour with less than 3:1
/// contrast against its background (WCAG 2) is kept, with a warning.
public enum ThemeFile {
    /// The name of each role in a theme file.
    public static func name(_ role: ThemeRole) -> String { kebab("\(role)") }
    public static func name(_ role: SyntaxRole) -> String { "syntax." + kebab("\(role)") }

    static func kebab(_ camel: String) -> String {
        var out = ""
        for c in camel {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }

    /// Roles drawn as decoration rather than read (bars, rules, borders, the scroll indicator):
    /// no contrast warning for them.
    static let decorations: Set<ThemeRole> = [.quoteBar, .rule, .tableBorder, .scrollTrack, .scrollThumb, .html, .frontMatter]

    public static let minimumContrast = 3.0

    /// The palette as a theme file.
    public static func dump(_ palette: Palette) -> String {
        var out = """
            # folio theme "\(palette.name)" (folio --dump-theme=\(palette.name)); copy it into
            # $XDG_CONFIG_HOME/folio/themes/NAME.theme and use it with --theme=NAME.
            # A role: a colour, "on" and a background colour, bold dim italic underline
            # reverse, or "none". A colour: #rrggbb (24-bit), #rrggbb/N (N 0-15: the basic
            # colour of 16-colour terminals), #rrggbb/M/N (M 16-255: the 256-colour entry too),
            # or M alone (0-255: that palette entry everywhere). A role left out is the
            # built-in palette's (appearance's).
            appearance = "\(palette.appearance.rawValue)"
            background = "\(hex(defaultBackground(palette.appearance)))"

            """
        for role in ThemeRole.allCases {
            out += "\(name(role)) = \"\(text(palette[role]))\"\n"
        }
        for role in SyntaxRole.allCases {
            out += "\(name(role)) = \"\(palette[role].map(text) ?? "none")\"\n"
        }
        return out
    }

    /// What a theme file made: the palette, and the warnings (`name:line: …`).
    public struct Result: Sendable {
        public var palette: Palette
        public var warnings: [String]
    }

    /// Reads a theme file; `name` names the palette and the messages.
    public static func read(name: String, text: String, fileName: String? = nil) -> Result {
        let file = fileName ?? name
        var warnings: [String] = []
        var appearance = Appearance.dark
        var background: (r: UInt8, g: UInt8, b: UInt8)?
        var paints: [(line: Int, role: ThemeRole, paint: Paint)] = []
        var syntax: [(line: Int, role: SyntaxRole, paint: Paint?)] = []
        let roles = Dictionary(uniqueKeysWithValues: ThemeRole.allCases.map { (Self.name($0), $0) })
        let syntaxRoles = Dictionary(uniqueKeysWithValues: SyntaxRole.allCases.map { (Self.name($0), $0) })
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let where_ = "\(file):\(number)"
            let line = raw.trimmingCharacters()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                warnings.append("\(where_): expected role = \"value\"")
                continue
            }
            let key = line[..<eq].trimmingCharacters()
            guard let value = unquoted(line[line.index(after: eq)...]) else {
                warnings.append("\(where_): the value of \(key) is not closed by \"")
                continue
            }
            switch key {
            case "appearance":
                guard let a = Appearance(rawValue: value) else {
                    warnings.append("\(where_): appearance is dark or light (got '\(value)')")
                    continue
                }
                appearance = a
            case "background":
                guard let ink = color(value) else {
                    warnings.append("\(where_): '\(value)' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255); background ignored")
                    continue
                }
                background = (ink.red, ink.green, ink.blue)
            default:
                if let role = roles[key] {
                    switch paint(value) {
                    case .success(let p): paints.append((number, role, p))
                    case .failure(let problem): warnings.append("\(where_): \(problem.text); \(key) keeps the built-in colour")
                    }
                } else if let role = syntaxRoles[key] {
                    switch paint(value) {
                    case .success(let p): syntax.append((number, role, p == .none ? nil : p))
                    case .failure(let problem): warnings.append("\(where_): \(problem.text); \(key) keeps the built-in colour")
                    }
                } else {
                    warnings.append("\(where_): unknown role '\(key)'")
                }
            }
        }
        var palette = Palette.named(appearance)
        palette.name = name
        let back = background ?? defaultBackground(appearance)
        for (line, role, paint) in paints {
            palette.paints[role.rawValue] = paint
            if !decorations.contains(role), let warning = contrastWarning(paint, over: back, role: Self.name(role), at: "\(file):\(line)") {
                warnings.append(warning)
            }
        }
        for (line, role, paint) in syntax {
            palette.syntax[Int(role.rawValue)] = paint
            if let paint, let warning = contrastWarning(paint, over: back, role: Self.name(role), at: "\(file):\(line)") {
                warnings.append(warning)
            }
        }
        // In the file's order (contrast is checked once every role is read).
        return Result(palette: palette, warnings: warnings.enumerated().sorted {
            (line($0.element), $0.offset) < (line($1.element), $1.offset)
        }.map(\.element))
    }

    /// The line number in a warning `file:line: …` (files named with a colon aside: the
    /// number before the first `: `).
    static func line(_ warning: String) -> Int {
        guard let cut = warning.firstOccurrence(of: ": ") else { return 0 }
        let head = warning[..<cut.lowerBound]
        return Int(head.split(separator: ":").last ?? "") ?? 0
    }

    static func defaultBackground(_ appearance: Appearance) -> (r: UInt8, g: UInt8, b: UInt8) {
        appearance == .dark ? (0, 0, 0) : (255, 255, 255)
    }

    /// The warning for a text colour too faint for its background (its own, else the theme's).
    static func contrastWarning(_ paint: Paint, over background: (r: UInt8, g: UInt8, b: UInt8), role: String, at place: String) -> String? {
        guard let fg = paint.foreground, !paint.reverse else { return nil }
        let bg = paint.background.map { ($0.red, $0.green, $0.blue) } ?? background
        let ratio = contrast((fg.red, fg.green, fg.blue), bg)
        guard ratio < minimumContrast else { return nil }
        let shown = (ratio * 10).rounded() / 10
        return "\(place): \(role) \(hex((fg.red, fg.green, fg.blue))) has contrast \(shown):1 against \(hex(bg)) (less than 3:1: hard to read); kept"
    }

    /// WCAG 2's contrast ratio of two sRGB colours, 1…21.
    public static func contrast(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    static func luminance(_ c: (UInt8, UInt8, UInt8)) -> Double {
        func channel(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    }

    static func pow(_ x: Double, _ y: Double) -> Double {
        // exp(y·ln x) without Foundation: x in (0, 1], y = 2.4.
        var result = 1.0
        let whole = Int(y)
        for _ in 0..<whole { result *= x }
        // x^0.4 = (x^2)^(1/5): Newton's method for the fifth root.
        let target = x * x
        var r = max(target, 0.5)
        for _ in 0..<60 { r -= (r * r * r * r * r - target) / (5 * r * r * r * r) }
        return result * r
    }

    struct Problem: Error { var text: String }

    /// A role's value: colour, `on` colour, attributes; `none`.
    static func paint(_ value: String) -> Swift.Result<Paint, Problem> {
        var paint = Paint()
        var words = value.split(separator: " ").map(String.init)[...]
        if words == ["none"] { return .success(paint) }
        while let word = words.popFirst() {
            switch word {
            case "bold": paint.bold = true
            case "dim": paint.dim = true
            case "italic": paint.italic = true
            case "underline": paint.underline = true
            case "reverse": paint.reverse = true
            case "on":
                guard let next = words.popFirst(), let ink = color(next) else {
                    return .failure(Problem(text: "'on' needs a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255)"))
                }
                paint.background = ink
            default:
                guard let ink = color(word), paint.foreground == nil else {
                    return .failure(Problem(text: "'\(word)' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255) or an attribute"))
                }
                paint.foreground = ink
            }
        }
        return .success(paint)
    }

    /// `#rrggbb`, `#rrggbb/N`, `#rrggbb/M/N`, `M`.
    static func color(_ text: String) -> Ink? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1, let n = UInt8(parts[0]) { return Ink(entry: n) }
        guard (1...3).contains(parts.count), parts[0].hasPrefix("#"), parts[0].count == 7,
              let rgb = UInt32(parts[0].dropFirst(), radix: 16) else { return nil }
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        switch parts.count {
        case 1: return Ink(rgb, ansi: TerminalColor.nearestANSI(r, g, b))
        case 2:
            guard let n = UInt8(parts[1]), n < 16 else { return nil }
            return Ink(rgb, ansi: n)
        default:
            guard let m = UInt8(parts[1]), let n = UInt8(parts[2]), n < 16 else { return nil }
            return Ink(rgb, ansi: n, index256: m)
        }
    }

    static func text(_ paint: Paint) -> String {
        var words: [String] = []
        if let fg = paint.foreground { words.append(text(fg)) }
        if let bg = paint.background { words += ["on", text(bg)] }
        if paint.bold { words.append("bold") }
        if paint.dim { words.append("dim") }
        if paint.italic { words.append("italic") }
        if paint.underline { words.append("underline") }
        if paint.reverse { words.append("reverse") }
        return words.isEmpty ? "none" : words.joined(separator: " ")
    }

    static func text(_ ink: Ink) -> String {
        if let entry = ink.entry { return String(entry) }
        let base = hex((ink.red, ink.green, ink.blue))
        if let m = ink.index256 { return "\(base)/\(m)/\(ink.ansi)" }
        return "\(base)/\(ink.ansi)"
    }

    static func hex(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> String {
        let digits = Array("0123456789abcdef")
        return "#" + [c.r, c.g, c.b].map { String(digits[Int($0 >> 4)]) + String(digits[Int($0 & 15)]) }.joined()
    }

    /// The value after `=`: a quoted string (to its closing quote; a comment may follow) or
    /// the text up to a ` #` comment; nil when a quote is not closed.
    static func unquoted(_ s: Substring) -> String? {
        let t = s.trimmingCharacters()
        if t.hasPrefix("\"") {
            let body = t.dropFirst()
            guard let close = body.firstIndex(of: "\"") else { return nil }
            return String(body[..<close]).trimmingCharacters()
        }
        let chars = Array(t)
        for i in chars.indices.dropFirst() where chars[i] == "#" && (chars[i - 1] == " " || chars[i - 1] == "\t") {
            return String(chars[..<i]).trimmingCharacters()
        }
        return t
    }
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
