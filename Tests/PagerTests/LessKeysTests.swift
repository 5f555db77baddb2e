import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

/// A key typed soon after a lone Esc reaches the pager as `.alt(key)` (KeyDecoder joins
/// them); where Esc-key means nothing it is the key as typed.
@Suite struct EscapeThenKeyTests {
    @Test func inTheOutlineFilterEscThenAKeyIsTheKey() {
        var h = PagerHarness(markdown: OutlineTests.doc, columns: 40, rows: 8)
        h.send("ofo<Esc>")  // clears the filter; the outline stays
        #expect(h.state.outline != nil)
        h.send("<A-j>")
        #expect(h.status.hasSuffix("2/4"), "j moved the selection: \(h.status)")
    }

    @Test func inAPromptEscThenAKeyIsTheKey() {
        var h = PagerHarness(markdown: SearchTests.doc, columns: 24, rows: 6)
        h.send("/<Esc><A-/>ne<CR>")  // Esc closed the first prompt; / within the window opens one
        #expect(h.state.prompt == nil)
        #expect(h.searchPosition == "1/1")
    }

    /// With `-K`, Ctrl-C after Esc still quits (it is never Esc-^C).
    @Test func controlCAfterEscStillInterrupts() {
        var config = PagerHarness.plain
        config.quitOnInterrupt = true
        var h = PagerHarness(markdown: SearchTests.doc, columns: 24, rows: 6, config: config)
        h.send("<Esc><C-A-c>")
        #expect(h.effects.contains(.quit))
        #expect(h.state.quitByInterrupt == true)
    }
}
