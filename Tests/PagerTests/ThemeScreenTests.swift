import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

/// Every kind of text the theme colours, on screen at 20, 40 and 80 columns in both palettes
/// and at every depth, asserted as text with style runs (snapshots in `Snapshots/`).
@Suite struct ThemeScreenTests {
    static let fixture = """
        ---
        title: Tour
        ---
        # Heading one
        ## Heading two
        ### Heading three
        #### Heading four

        Body text with *emphasis*, **strong**, `code`, ~~gone~~ and a [link](https://example.com).

        - item
        - [x] done
        - [ ] open

        > a quote

        > [!NOTE]
        > Note text.

        > [!TIP]
        > Tip.

        > [!IMPORTANT]
        > Important.

        > [!WARNING]
        > Careful.

        > [!CAUTION]
        > Danger.

        ```swift
        let x = 1
        ```

        | A | B |
        |---|---|
        | 1 | 2 |

        ***

        ![alt](img.png)

        <span>html</span> [bare](https://example.org)

        <details><summary>More</summary>

        Hidden.

        </details>
        """

    static func config(_ palette: Palette, _ depth: ColorDepth, lineNumbers: Bool = false) -> PagerConfig {
        var c = PagerConfig()
        c.theme = Theme(depth: depth, palette: palette)
        c.lineNumbers = lineNumbers
        return c
    }

    static let depths: [(ColorDepth, String)] = [(.trueColor, "24bit"), (.palette256, "256"), (.ansi16, "16"), (.none, "mono")]

    /// The whole fixture, with a search's matches (the current one first) on screen.
    @Test(arguments: [Palette.dark, .light], [20, 40, 80])
    func wholeDocument(palette: Palette, width: Int) {
        for (depth, depthName) in Self.depths {
            // The mono screen is the same for both palettes: record it once.
            if depth == .none && palette == .light { continue }
            let probe = PagerHarness(markdown: Self.fixture, columns: width, rows: 10, config: Self.config(palette, depth))
            let rows = probe.state.active.layout.rowCount + 1
            var h = PagerHarness(markdown: Self.fixture, columns: width, rows: rows, config: Self.config(palette, depth))
            h.send("/text<CR>")
            let name = depth == .none ? "theme-mono-\(width)" : "theme-\(palette.name)-\(depthName)-\(width)"
            expectSnapshot(styledText(h.state.frame()), named: name)
        }
    }

    /// The pager's own marks: line numbers, the scroll indicator, a message, the outline.
    @Test(arguments: [Palette.dark, .light], [20, 40, 80])
    func pagerChrome(palette: Palette, width: Int) {
        var h = PagerHarness(markdown: Self.fixture, columns: width, rows: 8,
                             config: Self.config(palette, .trueColor, lineNumbers: true))
        h.send("j")
        h.state.documents[0].changedUnits = [2]  // as a reload marks them
        var text = styledText(h.state.frame())
        h.send("/nothing-like-this<CR>")
        text += styledText(h.state.frame())
        h.send("o")
        text += styledText(h.state.frame())
        expectSnapshot(text, named: "theme-chrome-\(palette.name)-\(width)")
    }
}

/// `--theme=auto` as events: replies and the timeout go through `update`.
@Suite struct ThemeEventTests {
    static func harness(choice: ThemeChoice, queried: Bool = true, start: Appearance = .dark) -> PagerHarness {
        var c = PagerConfig()
        c.theme = Theme(depth: .trueColor, palette: .named(start))
        c.themeChoice = choice
        c.queriesTerminal = queried
        return PagerHarness(markdown: "# Title\n\ntext", columns: 20, rows: 4, config: c)
    }
    static let white = ReplyColor(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF)
    static let black = ReplyColor(red: 0, green: 0, blue: 0)

    func headingColour(_ h: PagerHarness) -> TerminalColor { h.state.frame()[0, 0].style.foreground }

    @Test func aLightBackgroundReplyChoosesLightAndDA1EndsTheWait() {
        var h = Self.harness(choice: .auto)
        #expect(h.state.awaitingTerminal)
        h.send(.terminalReply(.foreground(Self.black)))
        h.send(.terminalReply(.background(Self.white)))
        #expect(h.state.config.theme.palette == .light)
        #expect(headingColour(h) == .rgb(0xAF, 0x5F, 0))
        #expect(h.state.awaitingTerminal)
        h.send(.terminalReply(.deviceAttributes))
        #expect(!h.state.awaitingTerminal)
        #expect(h.effects.isEmpty)
    }

    @Test func aNamedThemeIgnoresReplies() {
        var h = Self.harness(choice: .dark, queried: false)
        #expect(!h.state.awaitingTerminal)
        h.send(.terminalReply(.background(Self.white)))
        h.send(.terminalReply(.colorScheme(dark: false)))
        #expect(h.state.config.theme.palette == .dark)
    }

    /// No reply: the timeout ends the wait and the fallback stays; a reply arriving after
    /// keys still re-themes the screen.
    @Test func aLateReplyAfterTheTimeoutAndKeysReThemes() {
        var h = Self.harness(choice: .auto, start: .dark)
        h.send(.terminalQueryTimedOut)
        #expect(!h.state.awaitingTerminal)
        #expect(h.state.config.theme.palette == .dark)
        h.send("j<C-c>k")
        let before = headingColour(h)
        h.send(.terminalReply(.background(Self.white)))
        #expect(h.state.config.theme.palette == .light)
        #expect(headingColour(h) != before)
    }

    @Test func onlyAForegroundReplyDecidesByItsOpposite() {
        var h = Self.harness(choice: .auto, start: .light)
        h.send(.terminalReply(.foreground(Self.white)))
        h.send(.terminalReply(.deviceAttributes))
        #expect(h.state.config.theme.palette == .dark)
    }

    @Test func colourSchemeChangesFollowTheTerminal() {
        var h = Self.harness(choice: .auto)
        h.send(.terminalReply(.colorScheme(dark: false)))
        #expect(h.state.config.theme.palette == .light)
        h.send(.terminalReply(.colorScheme(dark: true)))
        #expect(h.state.config.theme.palette == .dark)
    }

    @Test func withoutAQueryNothingWaits() {
        #expect(!Self.harness(choice: .auto, queried: false).state.awaitingTerminal)
    }
}
