@testable import Pager
import Styling
import TerminalScreen
import Testing

/// Theme files: `--dump-theme`'s format read back, missing roles, bad colours, contrast.
@Suite struct ThemeFileTests {
    @Test(arguments: [Palette.dark, Palette.light])
    func dumpReadsBackAsThePalette(_ palette: Palette) {
        let text = ThemeFile.dump(palette)
        let back = ThemeFile.read(name: palette.name, text: text)
        #expect(back.warnings.isEmpty, "\(back.warnings)")
        #expect(back.palette == palette)
        // Every role is in the file, by name.
        for role in ThemeRole.allCases { #expect(text.contains("\n\(ThemeFile.name(role)) = "), "\(role)") }
        for role in SyntaxRole.allCases { #expect(text.contains("\n\(ThemeFile.name(role)) = "), "\(role)") }
    }

    @Test func aMissingRoleIsTheBuiltIns() {
        let r = ThemeFile.read(name: "mine", text: "appearance = \"light\"\nheading1 = \"#123456/4 bold\"\n")
        #expect(r.warnings.isEmpty)
        #expect(r.palette.name == "mine" && r.palette.appearance == .light)
        #expect(r.palette[.heading1] == Paint(Ink(0x123456, ansi: 4), bold: true))
        #expect(r.palette[.heading2] == Palette.light[.heading2])
        #expect(r.palette[.link] == Palette.light[.link])
        #expect(r.palette[.keyword] == Palette.light[.keyword])
        let dark = ThemeFile.read(name: "d", text: "link = #5fafff\n")
        #expect(dark.palette[.heading1] == Palette.dark[.heading1])
    }

    @Test func badLinesAreReportedWithTheirLineAndSkipped() {
        let r = ThemeFile.read(name: "mine", text: """
            heading1 = "#ffaf5f/11 bold"
            heading2 = "#ggg"
            heading3 = "#87d787/16"
            link = "blue"
            quote-bar = "#585858 on"
            sparkles = "#ffffff"
            heading4 = "#d7afff
            what
            appearance = "grey"
            """, fileName: "themes/mine.theme")
        #expect(r.warnings == [
            "themes/mine.theme:2: '#ggg' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255) or an attribute; heading2 keeps the built-in colour",
            "themes/mine.theme:3: '#87d787/16' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255) or an attribute; heading3 keeps the built-in colour",
            "themes/mine.theme:4: 'blue' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255) or an attribute; link keeps the built-in colour",
            "themes/mine.theme:5: 'on' needs a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255); quote-bar keeps the built-in colour",
            "themes/mine.theme:6: unknown role 'sparkles'",
            "themes/mine.theme:7: the value of heading4 is not closed by \"",
            "themes/mine.theme:8: expected role = \"value\"",
            "themes/mine.theme:9: appearance is dark or light (got 'grey')",
        ])
        #expect(r.palette[.heading1] == Paint(Ink(0xffaf5f, ansi: 11), bold: true))
        for role in [ThemeRole.heading2, .heading3, .heading4, .link, .quoteBar] { #expect(r.palette[role] == Palette.dark[role]) }
    }

    /// 24-bit, 256 and 16 colours, each settable.
    @Test func everyDepthIsSettable() throws {
        let r = ThemeFile.read(name: "m", text: "heading1 = \"#ff0000/130/1\"\nheading2 = \"#00ff00\"\nheading3 = \"208\"\nheading4 = \"3\"\n")
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let h1 = try #require(r.palette[.heading1].foreground)
        #expect(h1.color(at: .trueColor) == .rgb(255, 0, 0))
        #expect(h1.color(at: .palette256) == .palette(130))
        #expect(h1.color(at: .ansi16) == .ansi(1))
        let h2 = try #require(r.palette[.heading2].foreground)
        #expect(h2.color(at: .palette256) == .palette(46))
        #expect(h2.color(at: .ansi16) == TerminalColor.rgb(0, 255, 0).downgraded(to: .ansi16))
        let h3 = try #require(r.palette[.heading3].foreground)
        #expect(h3.color(at: .trueColor) == .palette(208) && h3.color(at: .palette256) == .palette(208))
        let h4 = try #require(r.palette[.heading4].foreground)
        #expect(h4.color(at: .trueColor) == .ansi(3) && h4.color(at: .ansi16) == .ansi(3))
        #expect(ThemeFile.read(name: "m", text: ThemeFile.dump(r.palette)).palette == r.palette)
    }

    @Test func aFaintTextColourIsKeptWithAWarning() {
        let r = ThemeFile.read(name: "m", text: "heading1 = \"#202020\"\nrule = \"#101010\"\nlink = \"#777777 on #707070\"\nurl = x\n",
                               fileName: "t")
        #expect(r.warnings == [
            "t:1: heading1 #202020 has contrast 1.3:1 against #000000 (less than 3:1: hard to read); kept",
            "t:3: link #777777 has contrast 1.1:1 against #707070 (less than 3:1: hard to read); kept",
            "t:4: 'x' is not a colour (#rrggbb, #rrggbb/N, #rrggbb/M/N or 0-255) or an attribute; url keeps the built-in colour",
        ])
        #expect(r.palette[.heading1].foreground == Ink(0x202020, ansi: 0))
        let light = ThemeFile.read(name: "m", text: "appearance = light\nbackground = \"#333333\"\nheading1 = \"#eeeeee\"\n")
        #expect(light.warnings.isEmpty)
        #expect(abs(ThemeFile.contrast((0, 0, 0), (255, 255, 255)) - 21) < 0.01)
        #expect(abs(ThemeFile.contrast((0x76, 0x76, 0x76), (255, 255, 255)) - 4.54) < 0.01)
    }

    /// `auto` switches between the user's dark and light themes.
    @Test func autoUsesTheUsersThemes() {
        var theme = Theme(depth: .trueColor, palette: .dark)
        var mine = Palette.light
        mine.name = "paper"
        theme.alternates[.light] = mine
        #expect(theme.palette(for: .light).name == "paper")
        #expect(theme.with(palette: .dark).palette(for: .light).name == "paper")
        #expect(theme.palette(for: .dark).name == "dark")
    }
}
