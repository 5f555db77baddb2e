import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// Paging, lines, top/bottom, percent, marks, half pages and windows, on 20 numbered rows
/// in a 24×6 screen: 5 content rows, a page moves 4 (one row of overlap), maxTop = 15,
/// pages = 1 + ⌈15/4⌉ = 5.
@Suite struct ScrollingTests {
    static let twenty = numberedLines(20)

    func pager() -> PagerHarness { PagerHarness(markdown: Self.twenty, columns: 24, rows: 6) }

    @Test func firstScreen() {
        let h = pager()
        // percent = bottom row 5 of 20 → 25%.
        h.expectScreen("""
            line 1                  |
            line 2                  |
            line 3                  |
            line 4                  |
            line 5                  |
            doc.md         p1/5  25%|
            """)
    }

    @Test func spacePagesWithOneRowOverlap() {
        var h = pager()
        h.send("<Space>")
        // The previous last row (line 5) is now the first row.
        h.expectScreen("""
            line 5                  |
            line 6                  |
            line 7                  |
            line 8                  |
            line 9                  |
            doc.md         p2/5  45%|
            """)
        h.send("<Space>")
        #expect(h.content.first == "line 9                  ")
    }

    @Test func backIsTheExactInverseOfSpace() {
        for start in 0...11 {
            var h = pager()
            if start > 0 { h.send("\(start)j") }
            let before = h.screen
            h.send("<Space>b")
            #expect(h.screen == before, "from top \(start)")
        }
        // Clamped: near the end Space stops at the bottom, so b does not return exactly.
        var h = pager()
        h.send("13j<Space>")
        #expect(h.top == 15)
        h.send("b")
        #expect(h.top == 11)
    }

    @Test func countedSpaceScrollsLines() {
        var h = pager()
        h.send("3<Space>")
        #expect(h.top == 3)
        #expect(h.content.first == "line 4                  ")
        h.send("2b")
        #expect(h.top == 1)
        h.send("<C-f>")
        #expect(h.top == 5)
    }

    @Test func bottomAndTop() {
        var h = pager()
        h.send("G")
        h.expectScreen("""
            line 16                 |
            line 17                 |
            line 18                 |
            line 19                 |
            line 20                 |
            doc.md       p5/5  (END)|
            """)
        h.send("g")
        #expect(h.top == 0)
        h.send(">")
        #expect(h.top == 15)
        h.send("<lt>")
        #expect(h.top == 0)
    }

    @Test func countedGGoesToSourceLine() {
        var h = pager()
        h.send("7g")
        #expect(h.content.first == "line 7                  ")
        h.send("2G")
        #expect(h.content.first == "line 2                  ")
        // Past the end: clamped to the bottom.
        h.send("99g")
        #expect(h.top == 15)
    }

    @Test func sourceLinesNotRows() {
        // Source line 5 is the paragraph after a heading and blank lines; rows differ.
        let doc = "# Head\n\n\npara one\n\nsecond para here\n\nthird\n\nfourth\n"
        var h = PagerHarness(markdown: doc, columns: 20, rows: 4)
        h.send("6g")
        #expect(h.content.first?.hasPrefix("second para here") == true)
        h.send("4g")
        #expect(h.content.first?.hasPrefix("para one") == true)
    }

    @Test func percent() {
        var h = pager()
        h.send("50%")
        // 50% of 20 rows = row 10: line 11 on top.
        #expect(h.content.first == "line 11                 ")
        h.send("0p")
        #expect(h.top == 0)
        h.send("100%")
        #expect(h.top == 15)
    }

    @Test func marksAndPreviousPosition() {
        var h = pager()
        h.send("5jma")
        #expect(h.status == "Mark a set")
        h.send("G'a")
        #expect(h.top == 5)
        // '' goes back to before the last jump ('a jumped from the bottom).
        h.send("''")
        #expect(h.top == 15)
        h.send("''")
        #expect(h.top == 5)
        h.send("'b")
        #expect(h.status == "Mark b not set")
        #expect(h.top == 5)
    }

    @Test func halfPagesWithCount() {
        var h = pager()
        h.send("d")
        #expect(h.top == 2)  // half of 5 content rows
        h.send("3d")
        #expect(h.top == 5)
        h.send("d")  // less remembers the count
        #expect(h.top == 8)
        h.send("u")
        #expect(h.top == 5)
        h.send("1u")
        #expect(h.top == 4)
        h.send("<C-d>")
        #expect(h.top == 5)
    }

    @Test func windowWithCountSetsPageSize() {
        var h = pager()
        h.send("z")
        #expect(h.top == 4)
        h.send("3z")
        #expect(h.top == 7)
        h.send("z")
        #expect(h.top == 10)
        h.send("w")
        #expect(h.top == 7)
        h.send("<Space>")  // the window size is the page size
        #expect(h.top == 10)
    }

    @Test func linesUpAndDownClamp() {
        var h = pager()
        h.send("k")
        #expect(h.top == 0)
        h.send("jj<Down><C-e>e")
        #expect(h.top == 5)
        h.send("2k<Up>y")
        #expect(h.top == 1)
        h.send("100j")
        #expect(h.top == 15)
    }

    @Test func statusLineShowsSectionPageAndPercent() {
        let doc = "# Alpha\n\n" + numberedLines(6, prefix: "a") + "\n\n## Beta\n\n" + numberedLines(6, prefix: "b")
        // Rows: Alpha, ═, blank, a1…a6, blank, Beta, ─, blank, b1…b6 = 19 rows.
        var h = PagerHarness(markdown: doc, columns: 30, rows: 5)
        // 4 content rows, step 3, maxTop 15, pages 1 + 5 = 6; 4/19 → 21%.
        #expect(h.status == "doc.md · Alpha       p1/6  21%")
        h.send("10j")
        // Row 10 is "Beta": the section at the top row.
        #expect(h.content.first?.hasPrefix("Beta") == true)
        #expect(h.status == "doc.md · Beta        p4/6  73%")
        h.send("G")
        #expect(h.status == "doc.md · Beta      p6/6  (END)")
    }

    @Test func unknownKeyShowsOneMessageUntilTheNextKey() {
        var h = PagerHarness(markdown: Self.twenty, columns: 40, rows: 6)
        h.send("x")
        #expect(h.status == "Unknown key: x  (h for help)")
        #expect(h.top == 0)
        h.send("j")
        #expect(h.status == "doc.md                         p1/5  30%")
        h.send("<C-a>")
        #expect(h.status == "Unknown key: ^A  (h for help)")
        h.send("k")
        #expect(!h.status.contains("Unknown"))
    }

    @Test func countIsShownWhileTyped() {
        var h = pager()
        h.send("12")
        #expect(h.status.hasPrefix("12"))
        h.send("j")
        #expect(h.top == 12)
    }

    @Test func infoLine() {
        var h = PagerHarness(markdown: Self.twenty, columns: 60, rows: 6)
        h.send("2j=")
        #expect(h.status == "doc.md · lines 3-7 of 20 · rows 3-7 of 20 · 35%")
        h.send("j")
        #expect(h.status.hasPrefix("doc.md"))
        #expect(!h.status.contains("lines"))
    }

    @Test func helpOpensAndQuitReturnsToTheSamePlace() {
        var h = pager()
        h.send("7j")
        let before = h.screen
        h.send("h")
        #expect(h.status.hasPrefix("help"))
        #expect(h.content.first?.hasPrefix("folio — keys") == true)
        h.send("jj<Space>")
        h.send("q")
        #expect(!h.effects.contains(.quit), "q in help closes help, does not quit")
        #expect(h.status.hasPrefix("doc.md"))
        #expect(h.screen == before)
        // Esc and h close it too.
        h.send("h<Esc>")
        #expect(h.screen == before)
        h.send("hh")
        #expect(h.screen == before)
    }

    @Test func nextAndPreviousFileKeepTheirOwnPositions() {
        var h = PagerHarness(documents: [("one.md", numberedLines(20, prefix: "one ")),
                                         ("two.md", numberedLines(20, prefix: "two "))],
                             columns: 30, rows: 6)
        h.send("3j")
        #expect(h.status == "one.md     file 1/2  p1/5  40%")
        h.send(":n")
        #expect(h.content.first == "two 1                         ")
        #expect(h.effects == [.leftDocument(0)])
        h.send("5j:p")
        #expect(h.content.first == "one 4                         ")
        h.send(":n")
        #expect(h.content.first == "two 6                         ")
        h.send(":n")
        #expect(h.status == "No next file")
        #expect(h.effects == [.leftDocument(0), .leftDocument(1), .leftDocument(0)])
    }

    @Test(arguments: ["q", "Q", "ZZ", ":q"])
    func quitKeys(_ keys: String) {
        var h = pager()
        h.send(keys)
        #expect(h.effects == [.quit])
    }

    /// less: Ctrl-C with nothing to interrupt does nothing; with `-K` it quits.
    @Test func controlCQuitsOnlyWithK() {
        var h = pager()
        h.send("3<C-c>j<C-c>")
        #expect(h.effects.isEmpty)
        #expect(h.state.documents[0].top == 1, "the count was dropped, j moved one line")
        var config = PagerHarness.plain
        config.quitOnInterrupt = true
        var k = PagerHarness(markdown: Self.twenty, columns: 24, rows: 6, config: config)
        k.send("<C-c>")
        #expect(k.effects == [.quit])
        #expect(k.state.quitByInterrupt)
        // Also from a prompt and from the help.
        for keys in ["/li", "h"] {
            var p = PagerHarness(markdown: Self.twenty, columns: 24, rows: 6, config: config)
            p.send(keys + "<C-c>")
            #expect(p.effects.last == .quit && p.effects.filter { $0 == .quit }.count == 1, "\(keys)")
        }
        #expect(!h.state.quitByInterrupt)
    }

    @Test func quitFromHelpOnlyClosesHelp() {
        var h = pager()
        h.send("hq")
        #expect(!h.effects.contains(.quit))
        h.send("h<C-c>")
        #expect(!h.effects.contains(.quit))
        #expect(h.status.hasPrefix("doc.md"))
        h.send("q")
        #expect(h.effects.last == .quit)
    }
}
