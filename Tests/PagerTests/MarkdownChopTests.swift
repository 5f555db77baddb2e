import LineLayout
@testable import Pager
import Testing

/// `-S` on a Markdown document: → and ← scroll its too-wide tables sideways; prose stays.
@Suite struct MarkdownChopTests {
    static let doc = """
        Prose wraps.

        | Harbour | Range | Note |
        |:--------|------:|:----:|
        | Brest | 6.1 | big tides |
        """

    @Test func rightArrowShiftsWideTables() {
        var config = PagerHarness.plain
        config.chopLongLines = true
        var h = PagerHarness(markdown: Self.doc, columns: 20, rows: 8, config: config)
        #expect(h.content[2] == "┌─────────┬───────┬─")
        h.send("<Right>")
        // Half a screen: 10 columns.
        #expect(h.content[0].hasPrefix("Prose wraps."))
        #expect(h.content[2] == String("┌─────────┬───────┬───────────┐".dropFirst(10).prefix(20)))
        #expect(h.status.contains("→10"), "\(h.status)")
        h.send("<Left>")
        #expect(h.content[2] == "┌─────────┬───────┬─")
        #expect(!h.status.contains("→"))
    }

    @Test func withoutChoppingTheArrowSaysHow() {
        var h = PagerHarness(markdown: Self.doc, columns: 80, rows: 8)
        h.send("<Right>")
        #expect(h.status.contains("-S chops wide tables"), "\(h.status)")
    }
}
