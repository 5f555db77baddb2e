/// How one cell looks: colours and text attributes (`TextAttributes`, the same set a text
/// document's SGR sequences write) and an optional hyperlink (OSC 8). `style.bold` and the
/// other attributes read and write `attributes` (dynamic member look-up, no copy of the list).
@dynamicMemberLookup
public struct CellStyle: Hashable, Sendable {
    public var attributes: TextAttributes
    /// Target of an OSC 8 hyperlink around this cell, or nil. Control characters are removed
    /// when it is encoded.
    public var hyperlink: String?

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
        reverse: Bool = false, strikethrough: Bool = false, hyperlink: String? = nil
    ) {
        attributes = TextAttributes(foreground: foreground, background: background, bold: bold, dim: dim,
                                    italic: italic, underline: underline, reverse: reverse,
                                    strikethrough: strikethrough)
        self.hyperlink = hyperlink
    }

    @inlinable
    public subscript<T>(dynamicMember attribute: WritableKeyPath<TextAttributes, T>) -> T {
        get { attributes[keyPath: attribute] }
        set { attributes[keyPath: attribute] = newValue }
    }

    /// No colour, no attribute, no link: what SGR 0 gives.
    public static let plain = CellStyle()

    /// The same style with colours reduced to what `depth` can show.
    public func downgraded(to depth: ColorDepth) -> CellStyle {
        var copy = self
        copy.attributes = attributes.downgraded(to: depth)
        return copy
    }

    /// A short readable description for test dumps, e.g. `bold fg=ansi(1) link=https://x`;
    /// empty for `.plain`.
    public var summary: String {
        let a = attributes
        let flags = [(a.bold, "bold"), (a.dim, "dim"), (a.italic, "italic"), (a.underline, "underline"),
                     (a.reverse, "reverse"), (a.strikethrough, "strike")]
        var parts = flags.filter(\.0).map(\.1)
        if attributes.foreground != .default { parts.append("fg=\(Self.describe(attributes.foreground))") }
        if attributes.background != .default { parts.append("bg=\(Self.describe(attributes.background))") }
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
