import LineLayout
import MarkdownModel
import TerminalScreen

/// Maps the layout's semantic span styles to terminal cell styles.
///
/// With colour (`depth != .none`) headings, code, links and decorations get colours chosen to
/// read on dark and light backgrounds alike (mid-tones, no background fills). Without colour
/// (`NO_COLOR`, `--color=never`) the structure still shows through text attributes only:
/// headings bold (level 1 also underlined), links underlined, emphasis italic, strong bold,
/// quotes and borders dim — plus the layout's own text decorations (rules under headings,
/// bullets, bars, box drawing), which never depend on colour.
public struct Theme: Sendable {
    public var depth: ColorDepth
    /// Emit OSC 8 hyperlinks for links.
    public var hyperlinks: Bool
    /// Longest URL written as an OSC 8 hyperlink, in UTF-8 bytes; a longer one stays plain
    /// (underlined) text. Each row a link covers repeats its URL, so an absurd URL would make
    /// the output grow with its length squared (80 KB of URL: 80 MB of output).
    public var maxHyperlinkBytes = Theme.hyperlinkLimit
    public static let hyperlinkLimit = 2048

    public init(depth: ColorDepth, hyperlinks: Bool = true) {
        self.depth = depth
        self.hyperlinks = hyperlinks
    }

    private var colour: Bool { depth != .none }

    private func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> TerminalColor {
        colour ? TerminalColor.rgb(r, g, b).downgraded(to: depth) : .default
    }

    /// The cell style for a span.
    public func style(for span: SpanStyle) -> CellStyle {
        var s = CellStyle()
        switch span.role {
        case .body:
            break
        case .heading(let level):
            s.bold = true
            switch level {
            case 1: s.foreground = rgb(255, 175, 95); s.underline = !colour
            case 2: s.foreground = rgb(95, 175, 255)
            case 3: s.foreground = rgb(135, 215, 135)
            default: s.foreground = rgb(215, 175, 255)
            }
        case .codeBlock:
            s.foreground = rgb(175, 205, 235)
        case .codeLabel:
            s.foreground = rgb(150, 150, 150); s.italic = true
        case .continuation:
            s.foreground = rgb(150, 150, 150); s.dim = !colour
        case .quoteBar:
            s.foreground = rgb(135, 135, 135); s.dim = !colour
        case .listMarker:
            s.foreground = rgb(255, 175, 95); s.bold = !colour
        case .taskBox(let checked):
            s.foreground = checked ? rgb(135, 215, 135) : rgb(150, 150, 150)
            s.bold = checked
        case .rule:
            s.foreground = rgb(120, 120, 120); s.dim = !colour
        case .tableBorder:
            s.foreground = rgb(120, 120, 120); s.dim = !colour
        case .tableHeader:
            s.bold = true
        case .html:
            s.foreground = rgb(140, 140, 140); s.dim = true
        case .url:
            s.foreground = rgb(130, 130, 130); s.dim = !colour
        case .image:
            s.foreground = rgb(215, 135, 215); s.italic = true
        case .alertBar(let kind):
            s.foreground = alertColour(kind); s.bold = !colour
        case .alertTitle(let kind):
            s.foreground = alertColour(kind); s.bold = true
        case .summary:
            s.bold = true
        case .frontMatter:
            s.foreground = rgb(140, 140, 140); s.dim = true
        }
        if let role = span.syntax, colour { s.foreground = syntaxColour(role) ?? s.foreground }
        if let literal = span.literal { s = apply(literal, to: s) }
        if span.emphasis.contains(.emphasis) { s.italic = true }
        if span.emphasis.contains(.strong) { s.bold = true }
        if span.emphasis.contains(.strikethrough) { s.strikethrough = true }
        if span.emphasis.contains(.code) {
            s.foreground = rgb(255, 160, 122)
        }
        if let link = span.link {
            s.underline = true
            if span.role == .body || span.role == .tableHeader || span.role == .image {
                s.foreground = rgb(95, 175, 255)
            }
            if hyperlinks && link.utf8.count <= maxHyperlinkBytes { s.hyperlink = link }
        }
        return s
    }

    /// GitHub's alert colours (its dark palette): note blue, tip green, important purple,
    /// warning amber, caution red.
    func alertColour(_ kind: AlertKind) -> TerminalColor {
        switch kind {
        case .note: return rgb(71, 145, 247)
        case .tip: return rgb(63, 185, 80)
        case .important: return rgb(171, 125, 248)
        case .warning: return rgb(210, 153, 34)
        case .caution: return rgb(248, 81, 73)
        }
    }

    /// A highlighter's role as a colour (nil: the code colour stays).
    func syntaxColour(_ role: SyntaxRole) -> TerminalColor? {
        switch role {
        case .keyword, .label: return rgb(215, 135, 255)
        case .string: return rgb(135, 215, 135)
        case .escape: return rgb(255, 175, 95)
        case .comment: return rgb(128, 128, 128)
        case .number, .constant: return rgb(255, 175, 95)
        case .type, .tag: return rgb(95, 215, 215)
        case .function, .builtin: return rgb(95, 175, 255)
        case .variable, .property, .attribute: return nil
        case .operator, .punctuation: return nil
        case .inserted: return rgb(135, 215, 135)
        case .deleted: return rgb(255, 95, 95)
        case .meta, .heading: return rgb(95, 175, 255)
        }
    }

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
    public func match(_ base: CellStyle) -> CellStyle {
        var s = base
        if colour {
            s.background = rgb(95, 95, 0); s.foreground = rgb(255, 255, 255)
        } else {
            s.reverse = true
        }
        return s
    }

    /// The current match stands out from the others.
    public func currentMatch(_ base: CellStyle) -> CellStyle {
        var s = base
        if colour {
            s.background = rgb(255, 215, 0); s.foreground = rgb(0, 0, 0); s.bold = true
        } else {
            s.reverse = true; s.bold = true; s.underline = true
        }
        return s
    }

    /// The keyboard/mouse selection: reverse video, in every mode.
    public func selection(_ base: CellStyle) -> CellStyle {
        var s = base
        s.reverse = true
        return s
    }

    public var statusLine: CellStyle { CellStyle(reverse: true) }
    /// Line numbers in the `-N` gutter.
    public var lineNumber: CellStyle { colour ? CellStyle(foreground: rgb(110, 110, 110)) : CellStyle(dim: true) }
    /// The margin cue on units a reload changed.
    public var changeCue: CellStyle { colour ? CellStyle(foreground: .ansi(3), bold: true) : CellStyle(bold: true) }
    public var message: CellStyle { CellStyle(bold: true, reverse: true) }
    public var scrollTrack: CellStyle { colour ? CellStyle(foreground: rgb(90, 90, 90)) : CellStyle(dim: true) }
    public var scrollThumb: CellStyle { colour ? CellStyle(foreground: rgb(200, 200, 200)) : CellStyle(reverse: true) }
}
