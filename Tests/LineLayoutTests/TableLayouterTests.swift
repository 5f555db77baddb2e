@testable import LineLayout
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

    /// 28 columns leave 18 for cells: every longest word fits (Harbour 7, Range 5, tides 5),
    /// so the grid stays and only `big tides` wraps; the spare column goes to Note.
    @Test func columnsShrinkAndCellsWrap() {
        expectScreen(Self.table, width: 28, """
            ┌─────────┬───────┬────────┐|
            │ Harbour │ Range │  Note  │|
            ├─────────┼───────┼────────┤|
            │ Brest   │   6.1 │  big   │|
            │         │       │ tides  │|
            │ Nice    │   0.2 │  calm  │|
            └─────────┴───────┴────────┘|
            """)
    }

    /// At 20 columns the grid would break Harbour, Range, Note, Brest, tides and calm; every
    /// one of them fits 20 columns whole, so each row becomes a record instead.
    @Test func recordsWhenTheGridWouldBreakWords() {
        expectScreen(Self.table, width: 20, """
            Harbour             |
            Range               |
            Note                |
            ────────────────────|
            Harbour: Brest      |
            Range: 6.1          |
            Note: big tides     |
            ────────────────────|
            Harbour: Nice       |
            Range: 0.2          |
            Note: calm          |
            """)
    }

    /// A word longer than the whole width breaks in records too: no better, so the grid stays.
    @Test func gridStaysWhenRecordsBreakAsMuch() {
        let url = "https://example.org/" + String(repeating: "a", count: 32)
        let layout = DocumentLayout(document: MarkdownParser.parse("| k | url |\n|---|---|\n| a | \(url) |"),
                                    options: LayoutOptions(width: 40))
        #expect(layout.line(at: 0).plainText.hasPrefix("┌"))
    }

    /// When not every longest word fits, words break as few times as possible:
    /// 34 columns for words of 9, 20, 20 and 2 give 9, 11, 12, 2 — "Longitude" stays whole.
    /// (A fair share of 34 / 4 = 8 would have broken it.)
    @Test func longestWordsBreakFirst() {
        #expect(TableLayouter.shrink([9, 20, 20, 2], to: 34, words: [9, 20, 20, 2], allWords: [[1, 9], [1, 20], [1, 20], [1, 2]])
                == [9, 11, 12, 2])
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

extension TableLayouterTests {
    /// A word that many cells repeat keeps its column; a one-off long word breaks instead
    /// (Node's BUILDING.md platform table at 60 columns broke `Experimen|tal` 21 times).
    @Test func theFewestWordsBreak() {
        var md = "| Operating System | Architectures | Versions | Support Type | Notes |\n|---|---|---|---|---|\n"
        for row in 0..<6 {
            md += "| GNU/Linux | ppc64le >=power8 | kernel >= 4.18, glibc >= 2.28 | \(row % 2 == 0 ? "Experimental" : "Tier 2") | e.g. Ubuntu 20.04 |\n"
        }
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 60))
        let rows = layout.rowRange.map { layout.line(at: $0).plainText }
        #expect(rows.allSatisfy { $0.count <= 60 })
        #expect(rows.filter { $0.contains("Experimental") }.count == 3)
        #expect(!rows.contains { $0.contains("Experimen ") || $0.contains("Experimen│") })
        // Exhaustively small: widths never exceed their wants, never sum past the target,
        // and no other choice breaks words fewer times.
        let words: [[Int]] = [[3, 3, 5], [7], [2, 2, 2, 6], [4]]
        let want = words.map { $0.max()! }
        for target in 4...want.reduce(0, +) {
            let widths = TableLayouter.fewestBrokenWords(want: want, target: target, words: words)
            #expect(widths.reduce(0, +) <= target)
            #expect(zip(widths, want).allSatisfy { $0 >= 1 && $0 <= $1 })
            func brokenCount(_ w: [Int]) -> Int {
                var count = 0
                for (column, width) in zip(words, w) { count += column.reduce(0) { $0 + ($1 + width - 1) / width - 1 } }
                return count
            }
            var fewest = Int.max
            func search(_ i: Int, _ chosen: [Int]) {
                if i == want.count { if chosen.reduce(0, +) <= target { fewest = min(fewest, brokenCount(chosen)) }; return }
                for w in 1...want[i] { search(i + 1, chosen + [w]) }
            }
            search(0, [])
            #expect(brokenCount(widths) == fewest, "target \(target)")
        }
    }
}

/// `-S` on Markdown: a table too wide for the screen keeps its natural grid, each row cut to
/// the screen at the horizontal shift (the grid itself is `naturalWidthGridWithAlignment`'s).
@Suite struct ChoppedTableTests {
    static let grid = [
        "┌─────────┬───────┬───────────┐",
        "│ Harbour │ Range │   Note    │",
        "├─────────┼───────┼───────────┤",
        "│ Brest   │   6.1 │ big tides │",
        "│ Nice    │   0.2 │   calm    │",
        "└─────────┴───────┴───────────┘",
    ]

    @Test(arguments: [0, 1, 10, 25, 31, 40])
    func rowsAreTheGridCutAtTheShift(shift: Int) {
        let options = LayoutOptions(width: 20, chopLongLines: true, horizontalShift: shift)
        let layout = DocumentLayout(document: MarkdownParser.parse(TableLayouterTests.table), options: options)
        let rows = layout.rowRange.map { layout.line(at: $0).plainText }
        let expected = Self.grid.map { String($0.dropFirst(shift).prefix(20)) }
        #expect(rows == expected)
    }

    /// Cut content keeps its offsets: every content span shows the text at its offset.
    @Test(arguments: [1, 5, 12, 22, 27])
    func cutContentKeepsItsOffsets(shift: Int) {
        let options = LayoutOptions(width: 20, chopLongLines: true, horizontalShift: shift)
        let layout = DocumentLayout(document: MarkdownParser.parse(TableLayouterTests.table), options: options)
        let text = layout.allUnits[0].text
        var checked = 0
        for r in layout.rowRange {
            for span in layout.line(at: r).spans {
                guard let offset = span.contentOffset else { continue }
                #expect(text.utf8.dropFirst(offset).starts(with: span.text.utf8), "row \(r) \(span.text.debugDescription) at \(offset)")
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    /// A wide character cut by the edge shows as blanks, never half a character.
    @Test func wideCharacterAtTheEdgeBecomesBlanks() {
        let (spans, width) = TableLayouter.chop([Span(text: "a日本", style: SpanStyle(), width: 5, contentOffset: 0)], from: 2, width: 2)
        #expect(width == 2)
        #expect(spans.map(\.text).joined() == "  ")
        #expect(spans.allSatisfy { $0.contentOffset == nil }, "blanks are decoration")
        let (whole, _) = TableLayouter.chop([Span(text: "a日本", style: SpanStyle(), width: 5, contentOffset: 0)], from: 1, width: 4)
        #expect(whole.map(\.text).joined() == "日本")
        #expect(whole.first?.contentOffset == 1)
    }

    /// Tables that fit, and prose, are not affected by -S.
    @Test func fittingTablesAndProseAreUnchanged() {
        let doc = MarkdownParser.parse(TableLayouterTests.table + "\n\nSome prose that wraps at twenty columns wide.")
        let chopped = DocumentLayout(document: doc, options: LayoutOptions(width: 40, chopLongLines: true, horizontalShift: 3))
        let plain = DocumentLayout(document: doc, options: LayoutOptions(width: 40))
        #expect(plain.rowRange.map { plain.line(at: $0) } == chopped.rowRange.map { chopped.line(at: $0) })
    }
}
