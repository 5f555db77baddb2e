import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

@Suite struct OutlineTests {
    static let doc = "# One\n\npara\n\n## Two\n\npara\n\n### Three\n\npara\n\n## Four\n\n" + numberedLines(10)

    @Test func listsHeadingsIndentedWithTheCurrentSectionMarkedAndSelected() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("o")
        h.expectScreen("""
            Outline of doc.md: 4 of 4 headings      |
            ▸ One                                   |
                Two                                 |
                  Three                             |
                Four                                |
                                                    |
                                                    |
            outline · type to filter · Enter j…  1/4|
            """)
        #expect(h.isHighlighted(row: 1, column: 39))  // the selected row, full width
        #expect(!h.isHighlighted(row: 2, column: 30))
    }

    @Test func currentSectionIsTheOneBeingRead() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("11jo")  // row 11 is in "### Three"'s section
        #expect(h.content[2] == "    Two                                 ")
        #expect(h.content[3] == "▸     Three                             ")
        #expect(h.status.hasSuffix("3/4"))
    }

    @Test func moveFilterAndJump() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("oj")
        #expect(h.status.hasSuffix("2/4"))
        h.send("<Tab><Tab>")
        #expect(h.status.hasSuffix("4/4"))
        h.send("k<S-Tab><Down>")
        #expect(h.status.hasSuffix("3/4"))
        h.send("<CR>")
        #expect(h.state.outline == nil)
        #expect(h.content.first == "### Three                               ")
        #expect(h.state.backStack.count == 1)
        h.send("<BS>")
        #expect(h.top == 0)
        // Typing filters (case-insensitively); Enter jumps to the selected match.
        h.send("ot")
        #expect(h.status == "filter: t                            1/2")
        #expect(h.content[0] == "Outline of doc.md: 2 of 4 headings      ")
        #expect(h.content[1].hasPrefix("    Two"))
        h.send("<Down><CR>")
        #expect(h.content.first == "### Three                               ")
    }

    @Test func escapeAndQClose() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("3jo<Esc>")
        #expect(h.state.outline == nil)
        #expect(h.top == 3)
        h.send("oq")
        #expect(h.state.outline == nil)
        #expect(h.effects.isEmpty)
        h.send("oo")
        #expect(h.state.outline == nil)
        // With a filter typed, Esc clears the filter first.
        h.send("ofo<Esc>")
        #expect(h.state.outline != nil)
        #expect(h.status.hasSuffix("1/4"))
        h.send("<Esc>")
        #expect(h.state.outline == nil)
    }

    @Test func longListFollowsTheSelectionMinimally() {
        let doc = (1...30).map { "## H\($0)\n\ntext" }.joined(separator: "\n\n")
        var h = PagerHarness(markdown: doc, columns: 20, rows: 6)  // 4 list rows
        h.send("o")
        #expect(h.state.outline?.top == 0)
        h.send("jjj")
        #expect(h.state.outline?.top == 0)
        h.send("j")  // entry 4 below: it becomes the last list row
        #expect(h.state.outline?.top == 1)
        #expect(h.content[4].hasPrefix("    H5"))
        h.send("jj")
        #expect(h.state.outline?.top == 3)
        h.send("kkk")  // entry 3 still on screen
        #expect(h.state.outline?.top == 3)
        h.send("k")  // entry 2 above: it becomes the first list row
        #expect(h.state.outline?.top == 2)
        #expect(h.content[1].hasPrefix("    H3"))
        h.send("G")
        #expect(h.state.outline?.top == 26)
        h.send("g")
        #expect(h.state.outline?.top == 0)
    }

    @Test func noHeadings() {
        var h = PagerHarness(markdown: "just text", columns: 20, rows: 4)
        h.send("o")
        #expect(h.state.outline == nil)
        #expect(h.status == "No headings")
    }
}
