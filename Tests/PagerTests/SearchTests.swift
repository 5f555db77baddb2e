import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// 20 rows `row k`, with extra words on some rows: one paragraph with hard breaks, so row
/// k−1 shows source line k.
func rowsWithWords(_ words: [Int: String], count: Int = 20) -> String {
    (1...count).map { k in words[k].map { "row \(k) \($0)" } ?? "row \(k)" }.joined(separator: "\\\n")
}

extension PagerHarness {
    /// The `3/14` of the status line, read from the state (a message may hide the status).
    var searchPosition: String? {
        guard let s = state.search, let o = s.ordinal, let t = s.total else { return nil }
        return "\(o)/\(t)"
    }

    /// A content cell drawn as a match (reverse video in the colourless theme).
    func isHighlighted(row: Int, column: Int) -> Bool { state.frame()[row, column].style.reverse }
}

/// 24×6: 5 content rows; the document has 20 rows, maxTop 15.
@Suite struct SearchTests {
    static let doc = rowsWithWords([3: "needle", 17: "haystack", 2: "apple", 8: "apple", 14: "apple", 19: "apple"])
    func pager(_ doc: String = SearchTests.doc) -> PagerHarness { PagerHarness(markdown: doc, columns: 24, rows: 6) }

    @Test func matchOnScreenDoesNotMoveAndIsHighlighted() {
        var h = pager()
        h.send("/needle<CR>")
        #expect(h.top == 0)
        // "row 3 needle": the match is columns 6..<12 of screen row 2.
        for c in 6..<12 { #expect(h.isHighlighted(row: 2, column: c)) }
        #expect(!h.isHighlighted(row: 2, column: 5))
        #expect(!h.isHighlighted(row: 2, column: 12))
    }

    @Test func matchBelowBecomesTheLastContentRow() {
        var h = pager()
        h.send("/haystack<CR>")
        // Row 16 (source line 17) on the last of 5 content rows: top = 16 − 4.
        h.expectScreen("""
            row 13                  |
            row 14 apple            |
            row 15                  |
            row 16                  |
            row 17 haystack         |
            doc.md    1/1  p4/5  85%|
            """)
    }

    @Test func matchAboveBecomesTheTopRow() {
        var h = pager()
        h.send("G?needle<CR>")
        #expect(h.top == 2)
        #expect(h.content.first == "row 3 needle            ")
    }

    @Test func nextPreviousAndCounts() {
        var h = pager()
        h.send("/apple<CR>")
        #expect(h.top == 0)  // row 2 is on screen
        #expect(h.status.contains("1/4"))
        h.send("n")
        #expect(h.top == 3)  // row 8 (index 7) revealed at the bottom: top 7 − 4
        #expect(h.status.contains("2/4"))
        h.send("N")
        #expect(h.top == 1)  // row 2 above: becomes the top row
        #expect(h.status.contains("1/4"))
        h.send("3n")
        #expect(h.top == 14)  // row 19 (index 18) at the bottom
        #expect(h.status.contains("4/4"))
        // ? searches backward; n then goes on backward, N forward.
        h.send("g?apple<CR>")
        #expect(h.status.contains("1/4"))  // row 2 is the last match above the bottom of the view
        h.send("n")
        #expect(h.state.message == "Search hit TOP, continuing at BOTTOM")
        #expect(h.top == 14)
        #expect(h.searchPosition == "4/4")
        h.send("N")  // forward again, past the end: wraps to row 2
        #expect(h.state.message == "Search hit BOTTOM, continuing at TOP")
        #expect(h.searchPosition == "1/4")
    }

    @Test func wrapAroundSaysSo() {
        var h = pager()
        h.send("G/apple<CR>")
        #expect(h.top == 15)  // row 19 is on screen
        h.send("n")
        #expect(h.state.message == "Search hit BOTTOM, continuing at TOP")
        #expect(h.top == 1)
        #expect(h.searchPosition == "1/4")
        h.send("j")
        #expect(h.status.hasPrefix("doc.md"))
    }

    @Test func patternNotFound() {
        var h = pager()
        h.send("5j/zebra<CR>")
        #expect(h.status == "Pattern not found")
        #expect(h.top == 5)
    }

    @Test func invalidRegexIsOneLineAndNothingMoves() {
        var h = PagerHarness(markdown: Self.doc, columns: 200, rows: 6)
        h.send("5j/row (<CR>")
        #expect(h.top == 5)
        #expect(h.state.prompt == nil)
        #expect(!h.status.isEmpty)
        #expect(!h.status.contains("\n"))
        #expect(h.status != "Pattern not found")
        #expect(h.state.message.map { !$0.contains("\n") } == true)
    }

    @Test func smartCase() {
        let doc = rowsWithWords([3: "needle", 12: "Needle"])
        var h = pager(doc)
        h.send("/Needle<CR>")
        #expect(h.top == 7)  // only row 12 (index 11) matches: at the bottom
        h.send("g/needle<CR>")
        #expect(h.top == 0)
        #expect(h.status.contains("1/2"))
    }

    @Test func matchesRenderedTextNotSourceSyntax() {
        let doc = "Some **bold** word and [click here](https://example.org/zzz) end."
        var h = PagerHarness(markdown: doc, columns: 70, rows: 3)
        h.send("/bold<CR>")
        #expect(h.status.contains("1/1"))
        for c in 5..<9 { #expect(h.isHighlighted(row: 0, column: c)) }
        h.send("/\\*\\*<CR>")
        #expect(h.status == "Pattern not found")
        h.send("/click<CR>")
        #expect(h.status.contains("1/1"))
        h.send("/zzz<CR>")
        #expect(h.status == "Pattern not found")
        h.send("/example<CR>")
        #expect(h.status == "Pattern not found")
    }

    @Test func matchAcrossASoftWrapHighlightsBothRows() {
        var h = PagerHarness(markdown: "aaa bbb ccc ddd", columns: 8, rows: 3)
        #expect(h.content == ["aaa bbb ", "ccc ddd "])
        h.send("/bbb ccc<CR>")
        for c in 4..<7 { #expect(h.isHighlighted(row: 0, column: c)) }
        for c in 0..<3 { #expect(h.isHighlighted(row: 1, column: c)) }
        #expect(!h.isHighlighted(row: 0, column: 0))
        #expect(!h.isHighlighted(row: 1, column: 4))
    }

    @Test func incrementalRevealsBeforeEnterAndEscapeReturns() {
        var h = pager()
        h.send("2j/hay")
        #expect(h.status == "/hay")
        #expect(h.top == 12)
        #expect(h.isHighlighted(row: 4, column: 7))
        h.send("<Esc>")
        #expect(h.top == 2)
        #expect(h.state.prompt == nil)
        #expect(!h.isHighlighted(row: 4, column: 7))
        // Backspace over an empty prompt cancels too.
        h.send("/hay<BS><BS><BS><BS>")
        #expect(h.top == 2)
        #expect(h.state.prompt == nil)
    }

    @Test func incrementalFollowsTheTyping() {
        var h = pager()
        h.send("/row 1")  // row 1 on screen: no move
        #expect(h.top == 0)
        h.send("7")
        #expect(h.top == 12)
        h.send("<BS>")
        #expect(h.top == 0)
        h.send("<CR>")
        #expect(h.top == 0)
    }

    @Test func countAppearsAfterIdle() {
        var h = pager()
        h.sendWithoutIdle(.key(.char("/")))
        for c in "apple" { h.sendWithoutIdle(.key(.char(c))) }
        h.sendWithoutIdle(.key(.enter))
        #expect(h.state.wantsIdle)
        #expect(!h.status.contains("/4"))
        h.drainIdle()
        #expect(h.status.contains("1/4"))
        #expect(!h.state.wantsIdle)
    }

    /// `Esc u` reaches the pager as `.alt(u)`: from Alt-u, or from Esc and u typed within the
    /// decoder's window (KeyDecoderTests); the harness has no decoder, so `<Esc>u` here is an
    /// Esc and a `u` typed later.
    @Test func escapeUTogglesHighlighting() {
        var h = pager()
        h.send("/needle<CR>")
        #expect(h.isHighlighted(row: 2, column: 6))
        h.send("<A-u>")
        #expect(!h.isHighlighted(row: 2, column: 6))
        h.send("<Esc><A-u>")  // Esc, then u within the window
        #expect(h.isHighlighted(row: 2, column: 6))
        h.send("<Esc><A-j>")  // Esc, then j within the window: no Esc-command, so j
        #expect(h.top == 1)
        h.send("<Esc>u")  // Esc, then u later: u, half a page up; the highlight stays
        #expect(h.top == 0)
        #expect(h.isHighlighted(row: 2, column: 6))
        h.send("<A-Left>")  // Esc ←: back (nothing to go back to)
        #expect(h.status == "Nothing to go back to")
        h.send("<A-u>kn")  // a new search step shows highlights again
        #expect(h.isHighlighted(row: 2, column: 6))
    }

    @Test func emptyPatternRepeatsTheLastOne() {
        var h = pager()
        h.send("/apple<CR>/<CR>")
        #expect(h.status.contains("1/4"))
    }

    @Test func filterShowsOnlyMatchingBlocks() {
        let doc = "apple one\n\nbanana two\n\napple three\n\ncherry four"
        var h = PagerHarness(markdown: doc, columns: 30, rows: 8)
        h.send("&apple<CR>")
        h.expectScreen("""
            apple one                     |
                                          |
            apple three                   |
                                          |
                                          |
                                          |
                                          |
            Showing 2 matching blocks (& …|
            """)
        h.send("j")
        #expect(h.status.hasPrefix("doc.md [&apple]"))
        h.send("&<CR>")
        #expect(h.content.prefix(7) == ["apple one                     ", "                              ",
                                        "banana two                    ", "                              ",
                                        "apple three                   ", "                              ",
                                        "cherry four                   "])
        #expect(h.status == "Showing all blocks")
    }
}

@Suite struct FilterAndSearchTests {
    /// In a text document the filter counts lines, as less says "matching lines".
    @Test func filterOnTextCountsLines() {
        var h = PagerHarness(text: "one ERROR\ntwo\nthree ERROR\nfour\n", columns: 40, rows: 6)
        h.send("&ERROR<CR>")
        #expect(h.status.contains("Showing 2 matching lines"), "\(h.status)")
        #expect(h.content.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count == 2, "\(h.content)")
    }

    @Test func searchInsideAFilterThenShowAllRecounts() {
        let doc = "apple one\n\nbanana apple\n\napple one more\n\ncherry"
        var h = PagerHarness(markdown: doc, columns: 30, rows: 8)
        h.send("&one<CR>")
        h.send("/apple<CR>")
        #expect(h.searchPosition == "1/2")  // only the two shown blocks
        h.send("n")
        #expect(h.searchPosition == "2/2")
        h.send("&<CR>")
        // All blocks again: the current match is the third of three.
        #expect(h.searchPosition == "3/3")
        h.send("n")
        #expect(h.state.message == "Search hit BOTTOM, continuing at TOP")
        #expect(h.searchPosition == "1/3")
    }

    @Test func filterNotFoundKeepsEverything() {
        var h = PagerHarness(markdown: "apple\n\nbanana", columns: 20, rows: 5)
        h.send("&zebra<CR>")
        #expect(h.status == "Pattern not found")
        #expect(h.state.active.filterUnits == nil)
    }

    @Test func escapeCancelsAFilterPrompt() {
        var h = PagerHarness(markdown: "apple\n\nbanana", columns: 20, rows: 5)
        h.send("&app<Esc>")
        #expect(h.state.prompt == nil)
        #expect(h.state.active.filterUnits == nil)
    }
}
