/// How one cell looks: colours, text attributes and an optional hyperlink (OSC 8).
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var italic: Bool
    public var underline: Bool
    public var reverse: Bool
    public var strikethrough: Bool
    /// Target of an OSC 8 hyperlink around this cell, or nil. Control characters are removed
    /// when it is encoded.
    public var hyperlink: String?

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
        reverse: Bool = false, strikethrough: Bool = false, hyperlink: String? = nil
    ) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.italic = italic; self.underline = underline
        self.reverse = reverse; self.strikethrough = strikethrough; self.hyperlink = hyperlink
    }

    /// No colour, no attribute, no link: what SGR 0 gives.
    public static let plain = CellStyle()

    /// The same style with colours reduced to what `depth` can show.
    public func downgraded(to depth: ColorDepth) -> CellStyle {
        var copy = self
        copy.foreground = foreground.downgraded(to: depth)
        copy.background = background.downgraded(to: depth)
        return copy
    }

    /// A short readable description for test dumps, e.g. `bold fg=ansi(1) link=https://x`;
    /// empty for `.plain`.
    public var summary: String {
        var parts: [String] = []
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if italic { parts.append("italic") }
        if underline { parts.append("underline") }
        if reverse { parts.append("reverse") }
        if strikethrough { parts.append("strike") }
        if foreground != .default { parts.append("fg=\(Self.describe(foreground))") }
        if background != .default { parts.append("bg=\(Self.describe(background))") }
        if let hyperlink { parts.append("link=\(hyperlink)") }
        return parts.joined(separator: " ")
    }

    private static func describe(_ color: TerminalColor) -> String {
        switch color {
        case .default: return "default"
        case .ansi(let n): return "\(n)"
        case .palette(let n): return "p\(n)"
        case .rgb(let r, let g, let b):
            let hex = [r, g, b].map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
            return "#" + hex.joined()
        }
    }
}
