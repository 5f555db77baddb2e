import CellWidth
import LineLayout
import MarkdownModel
import Testing

/// `--max-width` / `--align`: prose capped at the reading width, top-level code and tables
/// free to run to the right edge, the whole column moved by a margin when centred.
@Suite struct ReadingWidthTests {
    static let doc = [
        "# Title", "",
        "One two three four five six seven eight nine ten eleven twelve.", "",
        "- an item whose words wrap at the reading width", "",
        "  ```", "  nested code stays in the column", "  ```", "",
        "```", "0123456789012345678901234567890123456789", "```", "",
        "| a | b |", "|---|---|", "| one two three four | five six seven eight |",
    ].joined(separator: "\n")

    static func layout(width: Int, cap: Int?, center: Bool = false) -> DocumentLayout {
        DocumentLayout(document: MarkdownParser.parse(doc),
                       options: LayoutOptions(width: width, maxProseWidth: cap, centerProse: center))
    }

    @Test func proseIsCappedCodeAndTablesMayUseTheWidth() {
        let layout = Self.layout(width: 40, cap: 20)
        let rows = layout.rowRange.map { layout.line(at: $0).plainText }
        // Prose, and the code block inside the list item, at 20 columns (the item's hanging
        // indent of 2 and the code margin of 2 leave 16 for code).
        #expect(Array(rows.prefix(15)) == [
            "Title", String(repeating: "═", count: 20), "",
            "One two three four", "five six seven eight", "nine ten eleven", "twelve.", "",
            "• an item whose", "  words wrap at the", "  reading width", "",
            "    nested code stay", "  ↪ s in the column", "",
        ])
        // The top-level code block: 40 columns less its margin of 2 on the first row.
        #expect(rows[15] == "  01234567890123456789012345678901234567")
        #expect(rows[16] == "↪ 89")
        // The table takes the whole width: its borders are 40 columns.
        let table = rows.suffix(from: 18)
        #expect(table.first?.hasPrefix("┌") == true && table.last?.hasPrefix("└") == true)
        for row in table { #expect(CellWidth.of(row) == 40, "\(row)") }
    }

    /// Centred: every row starts at the margin (40 − 20) / 2 = 10; prose stays 20 wide.
    @Test func centredColumnHasAMargin() {
        let centred = Self.layout(width: 40, cap: 20, center: true)
        let left = Self.layout(width: 30, cap: 20)
        #expect(centred.rowCount == left.rowCount)
        for r in centred.rowRange {
            let text = centred.line(at: r).plainText
            let expected = left.line(at: r).plainText
            if expected.isEmpty {
                #expect(text.allSatisfy { $0 == " " }, "row \(r)")
            } else {
                #expect(text == String(repeating: " ", count: 10) + expected, "row \(r): \(text.debugDescription)")
            }
            #expect(centred.line(at: r).range == left.line(at: r).range, "content ranges are those of the column")
        }
    }

    /// A cap at or above the width, 0 or nil changes nothing.
    @Test(arguments: [nil, 0, 40, 41, 1000])
    func noCapBelowTheWidthIsNoCap(cap: Int?) {
        let plain = Self.layout(width: 40, cap: nil)
        let capped = Self.layout(width: 40, cap: cap, center: true)
        #expect(plain.rowRange.map { plain.line(at: $0) } == capped.rowRange.map { capped.line(at: $0) })
    }

    /// Prose laid out under a cap is the prose of a screen that wide, row for row.
    @Test(arguments: [1, 5, 12, 33])
    func cappedProseIsProseAtThatWidth(cap: Int) {
        let prose = "# Head\n\nSome words that wrap here and there.\n\n> quoted words wrap too\n\n1. one two\n2. three"
        let capped = DocumentLayout(document: MarkdownParser.parse(prose), options: LayoutOptions(width: 80, maxProseWidth: cap))
        let narrow = DocumentLayout(document: MarkdownParser.parse(prose), options: LayoutOptions(width: cap))
        #expect(capped.rowRange.map { capped.line(at: $0).plainText } == narrow.rowRange.map { narrow.line(at: $0).plainText })
    }
}

