import Foundation
import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Styling
import Testing

/// The palettes as data: every role coloured, readable at every depth, and the pure
/// decisions of `--theme=auto`.
@Suite struct ThemeTests {
    /// sRGB 0…255 → WCAG relative luminance.
    static func luminance(_ c: (Int, Int, Int)) -> Double {
        func linear(_ v: Int) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
    }

    static func contrast(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// What a terminal shows for a colour at 256 colours or truecolour.
    static func rgb(_ c: TerminalColor) -> (Int, Int, Int)? {
        switch c {
        case .rgb(let r, let g, let b): return (Int(r), Int(g), Int(b))
        case .palette(let n): return TerminalColor.paletteRGB(n)
        case .ansi, .default: return nil
        }
    }

    /// Backgrounds each appearance must read on: pure and typical editor themes.
    static let backgrounds: [Appearance: [(Int, Int, Int)]] = [
        .dark: [(0, 0, 0), (0x1E, 0x1E, 0x2E), (0x28, 0x2C, 0x34)],
        .light: [(255, 255, 255), (0xFD, 0xF6, 0xE3), (0xF6, 0xF8, 0xFA)],
    ]

    /// Roles that decorate (borders, bars, the scroll track, line numbers) may be quieter
    /// than text.
    static let decorations: Set<ThemeRole> = [.rule, .tableBorder, .quoteBar, .scrollTrack, .lineNumber]
    static let minimumText = 4.0
    static let minimumDecoration = 1.8

    /// Basic colours that vanish on a background of xterm's defaults (blue on black,
    /// yellow, white and the bright green and cyan on white).
    static let unreadable16: [Appearance: Set<UInt8>] = [.dark: [0, 4], .light: [3, 7, 10, 11, 14, 15]]

    static let coloured: [Palette] = [.dark, .light]

    @Test(arguments: coloured, [ColorDepth.trueColor, .palette256])
    func everyForegroundReadsOnItsBackgrounds(palette: Palette, depth: ColorDepth) {
        let theme = Theme(depth: depth, palette: palette)
        for background in Self.backgrounds[palette.appearance]! {
            for role in ThemeRole.allCases {
                let style = theme[role]
                guard let fg = Self.rgb(style.foreground) else { continue }
                let bg = Self.rgb(style.background) ?? background
                let minimum = Self.decorations.contains(role) ? Self.minimumDecoration : Self.minimumText
                let ratio = Self.contrast(fg, bg)
                #expect(ratio >= minimum, "\(palette.name) \(depth) \(role) on \(background): \(ratio)")
            }
            for role in SyntaxRole.allCases {
                guard let c = theme.syntaxColour(role), let fg = Self.rgb(c) else { continue }
                let ratio = Self.contrast(fg, background)
                #expect(ratio >= Self.minimumText, "\(palette.name) \(depth) syntax \(role) on \(background): \(ratio)")
            }
        }
    }

    @Test(arguments: coloured)
    func sixteenColoursAvoidTheOnesThatVanish(palette: Palette) {
        let theme = Theme(depth: .ansi16, palette: palette)
        let bad = Self.unreadable16[palette.appearance]!
        for role in ThemeRole.allCases {
            let style = theme[role]
            guard case .ansi(let n) = style.foreground else { continue }
            if case .ansi(let b) = style.background {
                #expect(n != b, "\(palette.name) \(role): same colour on itself")
            } else {
                #expect(!bad.contains(n), "\(palette.name) \(role) uses basic colour \(n)")
            }
        }
        for role in SyntaxRole.allCases {
            guard case .ansi(let n)? = theme.syntaxColour(role) else { continue }
            #expect(!bad.contains(n), "\(palette.name) syntax \(role) uses basic colour \(n)")
        }
    }

    /// Every role the highlighter produces is coloured (or deliberately left to the code
    /// colour), and the two palettes differ where they must.
    @Test func everySyntaxRoleHasAColourDecision() {
        let plainOnPurpose: Set<SyntaxRole> = [.variable, .property, .attribute, .operator, .punctuation]
        for palette in Self.coloured {
            for role in SyntaxRole.allCases {
                #expect((palette[role] != nil) != plainOnPurpose.contains(role), "\(palette.name) \(role)")
            }
        }
        for role in ThemeRole.allCases where ![.tableHeader, .summary, .selection, .statusLine, .message].contains(role) {
            #expect(Palette.dark[role].foreground != nil, "dark \(role)")
            #expect(Palette.light[role].foreground != nil, "light \(role)")
            #expect(Palette.dark[role] != Palette.light[role], "\(role) is the same in both")
        }
    }

    /// `--color=never` draws with attributes only, whatever palette is chosen, at any depth
    /// asked of the palette.
    @Test(arguments: [Palette.dark, .light, .monochrome])
    func withoutColourOnlyAttributesShow(palette: Palette) {
        let theme = Theme(depth: .none, palette: palette)
        for role in ThemeRole.allCases {
            #expect(theme[role].foreground == .default && theme[role].background == .default, "\(role)")
        }
        let roles: [SpanStyle.Role] = [.heading(1), .heading(2), .codeBlock, .quoteBar, .listMarker, .rule,
                                       .alertBar(.note), .alertTitle(.warning), .html, .url]
        for role in roles {
            var span = SpanStyle(role: role)
            span.syntax = .keyword
            let s = theme.style(for: span)
            #expect(s.foreground == .default && s.background == .default, "\(role)")
        }
        #expect(theme.style(for: SpanStyle(role: .heading(1))) == CellStyle(bold: true, underline: true))
        #expect(theme.style(for: SpanStyle(role: .quoteBar)) == CellStyle(dim: true))
        #expect(theme.match(.plain) == CellStyle(reverse: true))
        #expect(theme.currentMatch(.plain) == CellStyle(bold: true, underline: true, reverse: true))
    }

    @Test func syntaxRolesColourCodeAndKeepTheCodeColourWhereNone() {
        let theme = Theme(depth: .trueColor, palette: .light)
        var span = SpanStyle(role: .codeBlock)
        let code = theme.style(for: span).foreground
        span.syntax = .keyword
        #expect(theme.style(for: span).foreground == .rgb(0xAF, 0, 0))
        span.syntax = .variable
        #expect(theme.style(for: span).foreground == code)
        #expect(Theme(depth: .palette256, palette: .dark).syntaxColour(.string) == .palette(114))
    }

    @Test func withPaletteKeepsDepthLinksAndLimits() {
        var theme = Theme(depth: .palette256, hyperlinks: false, palette: .dark)
        theme.maxHyperlinkBytes = 10
        let light = theme.with(palette: .light)
        #expect(light.depth == .palette256 && !light.hyperlinks && light.maxHyperlinkBytes == 10)
        #expect(light.palette == .light)
        #expect(light[.heading1].foreground == .palette(130))
    }
}

/// `--theme=auto`'s decisions, from what the terminal and the environment say.
/// `NO_COLOR` turns off the colours folio adds, not the input's own: a text document's SGR
/// colours stay (issue 27: `git log --color=always | NO_COLOR=1 folio` lost git's colours).
@Suite struct NoColorTests {
    @Test func theInputsOwnColoursStayFoliosGo() {
        let theme = Theme(depth: .trueColor, palette: .dark, ownColours: false)
        #expect(!theme.addsColour)
        let red = TextAttributes(foreground: .ansi(1), bold: true)
        let literal = theme.style(for: SpanStyle(literal: red))
        #expect(literal.foreground == .ansi(1) && literal.bold)
        let heading = theme.style(for: SpanStyle(role: .heading(1)))
        #expect(heading.foreground == .default, "no colour of folio's own")
        #expect(heading.bold, "structure by attributes, as without colour")
        // With its own colours, headings have one.
        #expect(Theme(depth: .trueColor, palette: .dark).style(for: SpanStyle(role: .heading(1))).foreground != .default)
        // --color=never (depth none): nothing is coloured at all.
        #expect(Theme(depth: .none).style(for: SpanStyle(literal: red)).foreground == .default)
    }
}

@Suite struct AppearanceDetectionTests {
    static func grey(_ v: UInt16) -> ReplyColor { ReplyColor(red: v, green: v, blue: v) }

    @Test func backgroundLuminanceDecides() {
        #expect(AppearanceDetection.appearance(background: Self.grey(0)) == .dark)
        #expect(AppearanceDetection.appearance(background: Self.grey(0xFFFF)) == .light)
        // Solarized: base03 is dark, base3 light; a mid grey just below/above the crossover.
        #expect(AppearanceDetection.appearance(background: ReplyColor(red: 0x0000, green: 0x2B2B, blue: 0x3636)) == .dark)
        #expect(AppearanceDetection.appearance(background: ReplyColor(red: 0xFDFD, green: 0xF6F6, blue: 0xE3E3)) == .light)
        #expect(AppearanceDetection.appearance(background: Self.grey(0x7070)) == .dark)
        #expect(AppearanceDetection.appearance(background: Self.grey(0x7C7C)) == .light)
        // Saturated: pure blue is dark, pure yellow light.
        #expect(AppearanceDetection.appearance(background: ReplyColor(red: 0, green: 0, blue: 0xFFFF)) == .dark)
        #expect(AppearanceDetection.appearance(background: ReplyColor(red: 0xFFFF, green: 0xFFFF, blue: 0)) == .light)
        #expect(AppearanceDetection.appearance(foreground: Self.grey(0xFFFF)) == .dark)
        #expect(AppearanceDetection.appearance(foreground: Self.grey(0x1010)) == .light)
    }

    @Test func colorFgBg() {
        #expect(AppearanceDetection.appearance(colorFgBg: "15;0") == .dark)
        #expect(AppearanceDetection.appearance(colorFgBg: "0;15") == .light)
        #expect(AppearanceDetection.appearance(colorFgBg: "0;default;15") == .light)
        #expect(AppearanceDetection.appearance(colorFgBg: "7;8") == .dark)
        #expect(AppearanceDetection.appearance(colorFgBg: "0;7") == .light)
        #expect(AppearanceDetection.appearance(colorFgBg: "0;12") == .light)
        #expect(AppearanceDetection.appearance(colorFgBg: "15;default") == nil)
        #expect(AppearanceDetection.appearance(colorFgBg: "") == nil)
        #expect(AppearanceDetection.appearance(colorFgBg: "0;99") == nil)
        #expect(AppearanceDetection.appearance(colorFgBg: nil) == nil)
        #expect(AppearanceDetection.fallback(colorFgBg: nil) == .dark)
        #expect(AppearanceDetection.fallback(colorFgBg: "0;15") == .light)
    }

    @Test func repliesTogether() {
        let white = Self.grey(0xFFFF), black = Self.grey(0)
        #expect(AppearanceDetection.appearance(replies: []) == nil)
        #expect(AppearanceDetection.appearance(replies: [.deviceAttributes]) == nil)
        #expect(AppearanceDetection.appearance(replies: [.foreground(black), .background(white)]) == .light)
        #expect(AppearanceDetection.appearance(replies: [.foreground(black), .background(black)]) == .dark)
        #expect(AppearanceDetection.appearance(replies: [.foreground(white)]) == .dark)
        #expect(AppearanceDetection.appearance(replies: [.colorScheme(dark: false)]) == .light)
    }

    @Test func whichTerminalsAreAsked() {
        func ask(_ term: String?, tmux: Bool = false, depth: ColorDepth = .palette256) -> Bool {
            AppearanceDetection.shouldQuery(term: term, insideTmux: tmux, depth: depth)
        }
        #expect(ask("xterm-256color"))
        #expect(ask("tmux-256color", tmux: true))
        #expect(ask(nil))
        #expect(!ask("dumb"))
        #expect(!ask("screen"))
        #expect(!ask("screen-256color"))
        #expect(!ask("screen.xterm-256color"))
        #expect(ask("screen-256color", tmux: true))
        #expect(!ask("xterm-256color", depth: .none))
    }
}

extension Palette: CustomTestStringConvertible {
    public var testDescription: String { name }
}

extension Theme {
    /// A highlighter's role as a code block's colour (nil: the code colour stays), as
    /// `style(for:)` draws it.
    func syntaxColour(_ role: SyntaxRole) -> TerminalColor? {
        var span = SpanStyle(role: .codeBlock)
        let code = style(for: span).foreground
        span.syntax = role
        let coloured = style(for: span).foreground
        return coloured == code ? nil : coloured
    }
}
