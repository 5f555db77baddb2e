import MarkdownModel
import Testing
import TerminalScreen
import Viewport
@testable import Pager

/// The search prompt's history and literal toggle, and less's `-j` jump targets.
@Suite struct PromptAndJumpTargetTests {
    /// 60 one-line paragraphs "Row N." with the word "target" only in paragraph 40:
    /// 119 rows (a blank between paragraphs), paragraph k on row 2(k−1).
    static let doc = (1...60).map { $0 == 40 ? "Row 40 has the target." : "Row \($0)." }.joined(separator: "\n\n")

    func harness(_ policy: ScrollGeometry.RevealPolicy = .minimal) -> PagerHarness {
        var config = PagerHarness.plain
        config.jumpTarget = policy
        return PagerHarness(markdown: Self.doc, columns: 30, rows: 11, config: config)
    }

    @Test func minimalPutsAMatchBelowOnTheLastContentRow() {
        var h = harness()
        h.send("/target<CR>")
        // Row 78 (paragraph 40) on the last of 10 content rows: top = 78 − 9.
        #expect(h.top == 69)
        #expect(h.screen[9].hasPrefix("Row 40 has the target."))
    }

    @Test func jumpTargetRowPutsTheMatchOnThatRow() {
        var h = harness(.row(2))  // less -j3: the third row
        h.send("/target<CR>")
        #expect(h.top == 76)
        #expect(h.screen[2].hasPrefix("Row 40 has the target."))
    }

    @Test func jumpTargetFractionCentresTheMatch() {
        var h = harness(.fraction(0.5))  // less -j.5
        h.send("/target<CR>")
        #expect(h.screen[5].hasPrefix("Row 40 has the target."), "row 5 of 10 content rows")
    }

    @Test func jumpTargetDoesNotMoveAMatchAlreadyOnScreen() {
        var h = harness(.row(0))
        h.send("/Row 3\\.<CR>")
        #expect(h.top == 0)
    }

    @Test func historyRecallsEarlierPatternsWithUpAndDown() {
        var h = harness()
        h.send("/Row 5\\.<CR>/target<CR>g")
        h.send("/<Up>")
        #expect(h.status.hasPrefix("/target"))
        h.send("<Up>")
        #expect(h.status.hasPrefix("/Row 5\\."))
        h.send("<Down>")
        #expect(h.status.hasPrefix("/target"))
        h.send("<CR>")
        #expect(h.top == 69, "the recalled pattern is searched")
    }

    @Test func ctrlRTogglesALiteralSearch() {
        var h = harness()
        // As a regex, "Row 4." matches "Row 4" + any character: "Row 40" also matches
        // but "Row 4." comes first. Literal "40." matches nothing in "Row 40 has".
        h.send("/40\\.<CR>")
        #expect(h.status.contains("Pattern not found"))
        h.send("g/Row 4.<C-r>")
        #expect(h.status.contains("[literal]"))
        h.send("<CR>")
        #expect(h.top == 0, "literal \"Row 4.\" is on screen already (row 6)")
        h.send("g/t.rget<C-r><CR>")
        #expect(h.status.contains("Pattern not found"), "a literal 't.rget' does not match 'target'")
    }
}
