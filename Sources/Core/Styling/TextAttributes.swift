/// Styles written literally in a text document (SGR sequences, backspace overstrike), as
/// `less -R` shows them: colours and attributes, no meaning attached.
///
/// The theme turns these into cell styles (colours downgraded to the terminal's depth; with no
/// colour at all the attributes still show).
public struct TextAttributes: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var italic: Bool
    public var underline: Bool
    public var reverse: Bool
    public var strikethrough: Bool

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
        reverse: Bool = false, strikethrough: Bool = false
    ) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.italic = italic; self.underline = underline
        self.reverse = reverse; self.strikethrough = strikethrough
    }

    /// No colour and no attribute (what SGR 0 gives).
    public static let plain = TextAttributes()
    public var isPlain: Bool { self == .plain }

    /// The same attributes with colours reduced to what `depth` can show.
    public func downgraded(to depth: ColorDepth) -> TextAttributes {
        var copy = self
        copy.foreground = foreground.downgraded(to: depth)
        copy.background = background.downgraded(to: depth)
        return copy
    }
}

/// What a piece of source code is, as a syntax highlighter names it. The theme gives each
/// role a style; code without a highlighter (or an unknown language) has no role.
public enum SyntaxRole: UInt8, Hashable, Sendable, CaseIterable {
    case keyword
    case string
    /// Escape sequences and interpolation inside strings.
    case escape
    case comment
    case number
    /// `true`, `nil`, enum cases, other constants.
    case constant
    case type
    case function
    case variable
    case property
    case `operator`
    case punctuation
    /// HTML/XML tag names.
    case tag
    case attribute
    /// Built-in functions and variables.
    case builtin
    /// Labels, annotations, decorators, preprocessor directives.
    case label
    /// Diffs: added, removed and hunk-header lines.
    case inserted
    case deleted
    case meta
    /// Markup inside code (Markdown headings, emphasis in a `markdown` block).
    case heading
}
