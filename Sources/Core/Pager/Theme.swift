import LineLayout
import MarkdownModel
import TerminalScreen

/// Maps the layout's semantic span styles to terminal cell styles, through a `Palette`
/// resolved for the terminal's colour depth.
///
/// With colour (`depth != .none`) the palette chosen (`dark` or `light`, from `--theme` or
/// the terminal's reply) gives headings, code, links and decorations their colours. Without
/// colour (`NO_COLOR`, `--color=never`) the `monochrome` palette is used whatever was chosen:
/// structure shows through attributes only — plus the layout's own text decorations (rules
/// under headings, bullets, bars, box drawing), which never depend on colour.
public struct Theme: Sendable {
    /// What the terminal shows: the depth folio's colours are drawn at, and the input's own
    /// colours (a text document's SGR) and every frame are reduced to.
    public private(set) var depth: ColorDepth
    /// folio adds colours of its own (its palette). Off with `NO_COLOR`, which is about
    /// colours a program adds: `git log --color=always | NO_COLOR=1 folio` keeps git's.
    public private(set) var ownColours: Bool
    /// The palette chosen (with `depth == .none`, `monochrome` is drawn instead).
    public private(set) var palette: Palette
    /// Emit OSC 8 hyperlinks for links.
    public var hyperlinks: Bool
    /// Longest URL written as an OSC 8 hyperlink, in UTF-8 bytes; a longer one stays plain
    /// (underlined) text. Each row a link covers repeats its URL, so an absurd URL would make
    /// the output grow with its length squared (80 KB of URL: 80 MB of output).
    public var maxHyperlinkBytes = Theme.hyperlinkLimit
    public static let hyperlinkLimit = 2048

    /// `ThemeRole` → cell style at `depth`, resolved once (drawing looks styles up per span).
    private var roles: [CellStyle]
    /// `SyntaxRole` → its paint at `depth` (nil: the code colour stays).
    private var syntaxStyles: [CellStyle?]

    public init(depth: ColorDepth, hyperlinks: Bool = true, palette: Palette = .dark, ownColours: Bool = true) {
        self.depth = depth
        self.ownColours = ownColours
        self.hyperlinks = hyperlinks
        self.palette = palette
        let drawnDepth = ownColours ? depth : .none
        let drawn = drawnDepth == .none ? Palette.monochrome : palette
        roles = drawn.paints.map { Theme.resolve($0, over: CellStyle(), depth: drawnDepth) }
        syntaxStyles = drawn.syntax.map { $0.map { Theme.resolve($0, over: CellStyle(), depth: drawnDepth) } }
    }

    /// The palettes `--theme=auto` switches between when the terminal says what it is (the
    /// user's `--dark-theme` and `--light-theme`; a missing one is the built-in).
    public var alternates: [Appearance: Palette] = [:]

    /// The palette for an appearance: the user's, else the built-in.
    public func palette(for appearance: Appearance) -> Palette {
        alternates[appearance] ?? .named(appearance)
    }

    /// The same theme with another palette.
    public func with(palette: Palette) -> Theme {
        var copy = Theme(depth: depth, hyperlinks: hyperlinks, palette: palette, ownColours: ownColours)
        copy.maxHyperlinkBytes = maxHyperlinkBytes
        copy.alternates = alternates
        return copy
    }

    /// folio draws colours of its own (headings, links, code...): structure shows by colour,
    /// not only by attributes and marks.
    public var addsColour: Bool { depth != .none && ownColours }

    private var colour: Bool { addsColour }

    /// `paint` laid over `base`: its inks replace base's, its attributes are added.
    static func resolve(_ paint: Paint, over base: CellStyle, depth: ColorDepth) -> CellStyle {
        var s = base
        if let f = paint.foreground, depth != .none { s.foreground = f.color(at: depth) }
        if let b = paint.background, depth != .none { s.background = b.color(at: depth) }
        addAttributes(bold: paint.bold, dim: paint.dim, italic: paint.italic, underline: paint.underline,
                      reverse: paint.reverse, to: &s)
        return s
    }

    /// Attributes are added, never taken away, when one style is laid over another.
    private static func addAttributes(bold: Bool, dim: Bool, italic: Bool, underline: Bool, reverse: Bool,
                                      to s: inout CellStyle) {
        s.bold = s.bold || bold
        s.dim = s.dim || dim
        s.italic = s.italic || italic
        s.underline = s.underline || underline
        s.reverse = s.reverse || reverse
    }

    /// The resolved style of a role.
    public subscript(role: ThemeRole) -> CellStyle { roles[role.rawValue] }

    /// `role`'s style laid over `base` (colours replaced where the role has them).
    private func layer(_ role: ThemeRole, over base: CellStyle) -> CellStyle {
        let r = roles[role.rawValue]
        var s = base
        if r.foreground != .default { s.foreground = r.foreground }
        if r.background != .default { s.background = r.background }
        Theme.addAttributes(bold: r.bold, dim: r.dim, italic: r.italic, underline: r.underline, reverse: r.reverse, to: &s)
        return s
    }

    static func role(for role: SpanStyle.Role) -> ThemeRole? {
        switch role {
        case .body: return nil
        case .heading(let level):
            switch level {
            case 1: return .heading1
            case 2: return .heading2
            case 3: return .heading3
            default: return .heading4
            }
        case .codeBlock: return .codeBlock
        case .codeLabel: return .codeLabel
        case .continuation: return .continuation
        case .quoteBar: return .quoteBar
        case .listMarker: return .listMarker
        case .taskBox(let checked): return checked ? .taskDone : .taskOpen
        case .rule: return .rule
        case .tableBorder: return .tableBorder
        case .tableHeader: return .tableHeader
        case .html: return .html
        case .url: return .url
        case .image: return .image
        case .alertBar(let kind), .alertTitle(let kind): return alertRole(kind)
        case .summary: return .summary
        case .frontMatter: return .frontMatter
        }
    }

    static func alertRole(_ kind: AlertKind) -> ThemeRole {
        switch kind {
        case .note: return .alertNote
        case .tip: return .alertTip
        case .important: return .alertImportant
        case .warning: return .alertWarning
        case .caution: return .alertCaution
        }
    }

    /// The cell style for a span.
    public func style(for span: SpanStyle) -> CellStyle {
        var s = Theme.role(for: span.role).map { roles[$0.rawValue] } ?? CellStyle()
        if case .alertTitle = span.role { s.bold = true }
        if let role = span.syntax, colour, let paint = syntaxStyles[Int(role.rawValue)] {
            s = Theme.layerStyle(paint, over: s)
        }
        if let literal = span.literal { s = apply(literal, to: s) }
        if span.emphasis.contains(.emphasis) { s.italic = true }
        if span.emphasis.contains(.strong) { s.bold = true }
        if span.emphasis.contains(.strikethrough) { s.strikethrough = true }
        if span.emphasis.contains(.code) { s = layer(.inlineCode, over: s) }
        if let link = span.link {
            s.underline = true
            if span.role == .body || span.role == .tableHeader || span.role == .image {
                s = layer(.link, over: s)
            }
            if hyperlinks && link.utf8.count <= maxHyperlinkBytes { s.hyperlink = link }
        }
        return s
    }

    private static func layerStyle(_ r: CellStyle, over base: CellStyle) -> CellStyle {
        var s = base
        if r.foreground != .default { s.foreground = r.foreground }
        if r.background != .default { s.background = r.background }
        s.bold = s.bold || r.bold
        s.italic = s.italic || r.italic
        return s
    }

    /// An alert kind's colour (`.default` without colour).

    /// Styles written in a text document, as less -R shows them: colours downgraded to the
    /// terminal's depth (none without colour), attributes always.
    func apply(_ literal: TextAttributes, to base: CellStyle) -> CellStyle {
        var s = base
        if literal.foreground != .default { s.foreground = literal.foreground.downgraded(to: depth) }
        if literal.background != .default { s.background = literal.background.downgraded(to: depth) }
        s.bold = s.bold || literal.bold
        s.dim = s.dim || literal.dim
        s.italic = s.italic || literal.italic
        s.underline = s.underline || literal.underline
        s.reverse = s.reverse || literal.reverse
        s.strikethrough = s.strikethrough || literal.strikethrough
        return s
    }

    /// Search matches: every match on screen.
    public func match(_ base: CellStyle) -> CellStyle { layer(.match, over: base) }

    /// The current match stands out from the others.
    public func currentMatch(_ base: CellStyle) -> CellStyle { layer(.currentMatch, over: base) }

    /// The keyboard/mouse selection: reverse video, in every palette.
    public func selection(_ base: CellStyle) -> CellStyle { layer(.selection, over: base) }

    public var statusLine: CellStyle { self[.statusLine] }
    /// Line numbers in the `-N` gutter.
    public var lineNumber: CellStyle { self[.lineNumber] }
    /// The margin cue on units a reload changed.
    public var changeCue: CellStyle { self[.changeCue] }
    public var message: CellStyle { self[.message] }
    public var scrollTrack: CellStyle { self[.scrollTrack] }
    public var scrollThumb: CellStyle { self[.scrollThumb] }
}
