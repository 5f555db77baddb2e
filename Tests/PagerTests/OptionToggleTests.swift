import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

private func trim(_ s: String) -> String { String(s.reversed().drop { $0 == " " }.reversed()) }
private func trimmed(_ rows: [String]) -> [String] { rows.map(trim) }

/// less's `-` command while reading: `-N`, `-S`, `-i`, `-I`.
@Suite struct OptionToggleTests {
    @Test func dashLetterIsOneCommandAndCountsAreDropped() {
        var k = KeyInterpreter()
        #expect(k.interpret(.char("-")) == nil)
        #expect(k.pendingText == "-")
        #expect(k.interpret(.char("N")) == .option("N", .toggle))
        #expect(k.interpret(.char("-")) == nil)
        #expect(k.interpret(.ctrl("c")) == nil)
        #expect(k.interpret(.char("j")) == .lineDown)
    }

    @Test func dashSChopsAndFoldsATextDocumentKeepingTheTopLine() {
        let long = String(repeating: "x", count: 25) + "END"
        var h = PagerHarness(text: "a\n\(long)\nb\nc\nd\ne\n", columns: 10, rows: 4)
        h.send("j")
        #expect(trimmed(h.content).first == "xxxxxxxxxx")
        h.send("-S")
        // Chopped: the long line is one row, the lines after it follow at once.
        #expect(trimmed(h.content) == ["xxxxxxxxxx", "b", "c"])
        #expect(h.state.message?.contains("Chop long lines") == true)
        h.send("<Right><Right><Right>")
        #expect(trimmed(h.content).first == "xxxxxxxxxx")
        h.send("<Right>")
        #expect(trimmed(h.content).first == "xxxxxEND")
        h.send("-S")
        // Folded again, unshifted, same line on top.
        #expect(trimmed(h.content) == ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxxEND"])
    }

    /// In Markdown `-S` is about wide tables (prose always wraps), and says so.
    @Test func dashSInMarkdownSaysItIsAboutWideTables() {
        var h = PagerHarness(markdown: "Some prose.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", columns: 30, rows: 6)
        h.send("-S")
        #expect(h.state.message == "Wide tables as whole grids, cut at the width (← → scroll sideways)")
        h.send("-S")
        #expect(h.state.message == "Wide tables fitted to the width")
    }

    @Test func dashNShowsLineNumbersAndHidesThem() {
        var h = PagerHarness(text: "alpha\nbeta\ngamma\n", columns: 30, rows: 4)
        h.send("-N")
        #expect(trimmed(h.content).first?.hasSuffix("1 alpha") == true)
        #expect(trimmed(h.content)[1].hasSuffix("2 beta"))
        h.send("-N")
        #expect(trimmed(h.content).first == "alpha")
    }

    @Test func dashNOnMarkdownNumbersSourceLines() {
        var h = PagerHarness(markdown: "# Title\n\npara one\n", columns: 30, rows: 6)
        h.send("-N")
        #expect(trimmed(h.content).contains { $0.hasSuffix("3 para one") })
    }

    @Test func dashIChangesTheSearchCaseAndUnknownLettersSaySo() {
        var h = PagerHarness(markdown: "Alpha\n\nalpha\n", columns: 30, rows: 6)
        #expect(h.state.config.searchCase == .smart)
        h.send("-i")
        #expect(h.state.config.searchCase == .sensitive)
        h.send("-I")
        #expect(h.state.config.searchCase == .insensitive)
        h.send("-q")
        #expect(h.state.message == "-q (--quiet): folio never rings the bell")
        h.send("-H")
        #expect(h.state.message == "There is no -H option")
    }
}

/// The margin cue a reload leaves on the blocks that changed.
@Suite struct ChangeCueTests {
    @Test func theCueMarksTheChangedBlocksRowsWithTextOnly() {
        var h = PagerHarness(markdown: "first\n\nsecond line\n\nthird\n", columns: 20, rows: 8)
        let spec = DocumentSpec(name: "doc.md", path: nil, document: MarkdownParser.parse("first\n\nsecond LINE\n\nthird\n"))
        h.send(.documentReady(document: 0, spec: spec, changedUnits: [1]))
        let rows = h.content
        let cued = rows.indices.filter { rows[$0].hasSuffix("▐") }
        #expect(cued.count == 1, "\(rows)")
        #expect(cued.first.map { rows[$0].hasPrefix("second LINE") } == true, "\(rows)")
        h.send("j")
        #expect(!h.content.contains { $0.hasSuffix("▐") })
    }
}

/// `-S`: a search match beyond the screen's columns scrolls the view sideways to it, as
/// little as needed; one within the first screen's columns brings the shift back to 0; one on screen moves nothing.
@Suite struct HorizontalRevealTests {
    static let text = "short line\n" + String(repeating: "x", count: 30) + "MID" + String(repeating: "x", count: 37)
        + "NEEDLE tail\nend\n"

    @Test func searchScrollsSidewaysToTheMatch() {
        var config = PagerHarness.plain
        config.chopLongLines = true
        var h = PagerHarness(text: Self.text, columns: 40, rows: 6, config: config)
        h.send("/NEEDLE<CR>")
        // NEEDLE is columns 70..<76: the least shift showing it is 76 - 40 = 36.
        #expect(h.status.contains("→36"), "\(h.status)")
        #expect(h.content[1].hasSuffix("NEEDLE"), "\(h.content[1].debugDescription)")
        h.send("/short<CR>")
        #expect(!h.status.contains("→"), "a match within the first 40 columns shows the line's start")
        #expect(h.content[0].hasPrefix("short line"))
    }

    @Test func aMatchOnScreenDoesNotMoveTheView() {
        var config = PagerHarness.plain
        config.chopLongLines = true
        var h = PagerHarness(text: Self.text, columns: 40, rows: 6, config: config)
        h.send("<Right>")  // half a screen: 20 columns
        h.send("/MID<CR>")  // columns 30..<33, on screen at 20..<60
        #expect(h.status.contains("→20"), "\(h.status)")
    }
}
