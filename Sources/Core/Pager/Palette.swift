import TerminalScreen

/// A colour as a palette names it: the 24-bit value (truecolour; the 256-colour cube and
/// grey ramp take the nearest entry), and the basic colour a 16-colour terminal shows
/// instead, chosen by hand: the nearest of xterm's defaults is often the unreadable one
/// (yellow on white, blue on black), and users redefine the 16 anyway.
public struct Ink: Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8
    /// 0…15.
    public var ansi: UInt8
    /// The 256-colour entry a 256-colour terminal shows (nil: the nearest to the 24-bit value).
    public var index256: UInt8?
    /// A palette entry shown at 256 colours and in truecolour alike (a theme file's `M`):
    /// 0…15 are the terminal's own basic colours.
    public var entry: UInt8?

    /// `Ink(0xffaf5f, ansi: 11)`.
    public init(_ hex: UInt32, ansi: UInt8, index256: UInt8? = nil) {
        red = UInt8(hex >> 16 & 0xFF); green = UInt8(hex >> 8 & 0xFF); blue = UInt8(hex & 0xFF)
        self.ansi = ansi & 15
        self.index256 = index256
    }

    /// Palette entry `n` (0…255) at every depth (16 colours: itself, or the nearest basic colour).
    public init(entry n: UInt8) {
        let (r, g, b) = TerminalColor.paletteRGB(n)
        red = UInt8(r); green = UInt8(g); blue = UInt8(b)
        ansi = n < 16 ? n : TerminalColor.nearestANSI(r, g, b)
        entry = n
    }

    /// This ink on a terminal of `depth` (`.default` without colour).
    public func color(at depth: ColorDepth) -> TerminalColor {
        switch depth {
        case .none: return .default
        case .ansi16: return .ansi(ansi)
        case .palette256, .trueColor:
            if let entry { return entry < 16 ? .ansi(entry) : .palette(entry) }
            if depth == .palette256, let index256 { return .palette(index256) }
            return TerminalColor.rgb(red, green, blue).downgraded(to: depth)
        }
    }
}

/// How one semantic role looks: inks (nil: the terminal's own, or what lies beneath) and
/// attributes. Attributes are added to the base style, never taken away.
public struct Paint: Hashable, Sendable {
    public var foreground: Ink?
    public var background: Ink?
    public var bold = false
    public var dim = false
    public var italic = false
    public var underline = false
    public var reverse = false

    public init(_ foreground: Ink? = nil, background: Ink? = nil, bold: Bool = false, dim: Bool = false,
                italic: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.italic = italic; self.underline = underline; self.reverse = reverse
    }

    public static let none = Paint()
}

/// What the palette has a paint for: every kind of text the pager draws that is not body
/// text. (Syntax roles are kept apart, by `SyntaxRole`.)
public enum ThemeRole: Int, CaseIterable, Hashable, Sendable {
    case heading1, heading2, heading3, heading4
    case codeBlock, codeLabel, continuation, inlineCode
    case quoteBar, listMarker, taskDone, taskOpen, rule, tableBorder, tableHeader
    case html, url, image, link, summary, frontMatter
    case alertNote, alertTip, alertImportant, alertWarning, alertCaution
    /// Every search match on screen, and the current one.
    case match, currentMatch
    case selection, statusLine, message, lineNumber, changeCue, scrollTrack, scrollThumb
}

/// Which background a palette is made for.
public enum Appearance: String, Hashable, Sendable, CaseIterable {
    case dark, light
}

/// A theme as data: a paint for every `ThemeRole` and a colour for every `SyntaxRole`.
///
/// `dark` and `light` are made for those backgrounds and checked (ThemeTests) for contrast at
/// 256 colours and truecolour against a black and a white background, and at 16 colours for
/// avoiding the basic colours that vanish on them. `monochrome` is what `--color=never` and
/// `NO_COLOR` use: attributes only, so structure still shows.
public struct Palette: Hashable, Sendable {
    public var name: String
    /// The background it is made for (monochrome: dark, it does not matter).
    public var appearance: Appearance
    /// Indexed by `ThemeRole.rawValue`.
    public var paints: [Paint]
    /// Indexed by `SyntaxRole.rawValue`; nil keeps the code colour.
    public var syntax: [Paint?]

    public init(name: String, appearance: Appearance, paints: [ThemeRole: Paint], syntax: [SyntaxRole: Paint]) {
        self.name = name
        self.appearance = appearance
        self.paints = ThemeRole.allCases.map { paints[$0] ?? .none }
        self.syntax = SyntaxRole.allCases.map { syntax[$0] }
    }

    public subscript(role: ThemeRole) -> Paint { paints[role.rawValue] }
    public subscript(role: SyntaxRole) -> Paint? { syntax[Int(role.rawValue)] }

    /// The palette for an appearance.
    public static func named(_ appearance: Appearance) -> Palette {
        appearance == .dark ? .dark : .light
    }
}
