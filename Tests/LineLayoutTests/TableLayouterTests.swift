import LineLayout
import MarkdownModel
import Testing

@Suite struct TableLayouterTests {
    static let table = """
        | Harbour | Range | Note |
        |:--------|------:|:----:|
        | Brest | 6.1 | big tides |
        | Nice | 0.2 | calm |
        """

    @Test func naturalWidthGridWithAlignment() {
        expectScreen(Self.table, width: 40, """
            ┌─────────┬───────┬───────────┐         |
            │ Harbour │ Range │   Note    │         |
            ├─────────┼───────┼───────────┤         |
            │ Brest   │   6.1 │ big tides │         |
            │ Nice    │   0.2 │   calm    │         |
            └─────────┴───────┴───────────┘         |
            """)
    }

    @Test func columnsShrinkAndCellsWrap() {
        expectScreen(Self.table, width: 20, """
            ┌─────┬─────┬──────┐|
            │ Har │ Ran │ Note │|
            │ bou │  ge │      │|
            │ r   │     │      │|
            ├─────┼─────┼──────┤|
            │ Bre │ 6.1 │ big  │|
            │ st  │     │ tide │|
            │     │     │  s   │|
            │ Nic │ 0.2 │ calm │|
            │ e   │     │      │|
            └─────┴─────┴──────┘|
            """)
    }

    /// When not every longest word fits, the longest words break first (water-filling):
    /// 34 columns for words of 9, 20, 20 and 2 give 9, 12, 11, 2 — "Longitude" stays whole.
    /// (A fair share of 34 / 4 = 8 would have broken it.)
    @Test func longestWordsBreakFirst() {
        expectScreen("""
            | a | b | c | d |
            |---|---|---|---|
            | Longitude | abcdefghijklmnopqrst | ABCDEFGHIJKLMNOPQRST | ok |
            """, width: 47, """
            ┌───────────┬──────────────┬─────────────┬────┐|
            │ a         │ b            │ c           │ d  │|
            ├───────────┼──────────────┼─────────────┼────┤|
            │ Longitude │ abcdefghijkl │ ABCDEFGHIJK │ ok │|
            │           │ mnopqrst     │ LMNOPQRST   │    │|
            └───────────┴──────────────┴─────────────┴────┘|
            """)
    }

    @Test func stackedWhenTooNarrowForBorders() {
        expectScreen(Self.table, width: 12, """
            Harbour     |
            Range       |
            Note        |
            ────────────|
            Harbour:    |
            Brest       |
            Range: 6.1  |
            Note: big   |
            tides       |
            ────────────|
            Harbour:    |
            Nice        |
            Range: 0.2  |
            Note: calm  |
            """)
    }

    @Test func rolesContentAndRanges() {
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.table), options: LayoutOptions(width: 40))
        let block = layout.allUnits[0]
        #expect(block.text == "Harbour\tRange\tNote\nBrest\t6.1\tbig tides\nNice\t0.2\tcalm")
        #expect(layout.line(at: 0).spans.map(\.style.role) == [.tableBorder])
        #expect(layout.line(at: 1).spans.contains { $0.text == "Harbour" && $0.style.role == .tableHeader && $0.contentOffset == 0 })
        #expect(layout.line(at: 3).range == 19..<38)
        #expect(layout.line(at: 5).range == block.text.utf8.count..<block.text.utf8.count)
        #expect((0..<6).map { layout.line(at: $0).sourceLine } == [1, 1, 2, 3, 4, 4])
    }
}

extension TableLayouterTests {
    /// When every column can keep its longest word, no word is broken.
    @Test func shrinkingKeepsWholeWordsWhenTheyFit() {
        let md = """
            | Key | Description |
            |-----|-------------|
            | tz | station, local or an IANA name |
            """
        expectScreen(md, width: 24, """
            ┌─────┬────────────────┐|
            │ Key │ Description    │|
            ├─────┼────────────────┤|
            │ tz  │ station, local │|
            │     │ or an IANA     │|
            │     │ name           │|
            └─────┴────────────────┘|
            """)
    }
}
