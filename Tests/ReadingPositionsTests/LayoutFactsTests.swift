import LineLayout
import MarkdownModel
import Testing
@testable import ReadingPositions

/// The pager's path: facts from a real `DocumentLayout`, positions captured at one width and
/// restored at another, after an edit.
@Suite struct LayoutFactsTests {
    static let original = """
        # Notes

        First paragraph, long enough to wrap onto several rows at a narrow width.

        ## Details

        Second paragraph: the one the reader was in when folio closed.

        Third paragraph.
        """

    func layout(_ markdown: String, width: Int) -> (DocumentLayout, DocumentFacts) {
        let l = DocumentLayout(document: MarkdownParser.parse(markdown), options: LayoutOptions(width: width))
        return (l, DocumentFacts(layout: l, contentHash: StableHash(bytes: markdown.utf8)))
    }

    /// The content text from the anchor's row on.
    func shown(_ layout: DocumentLayout, _ anchor: Anchor) -> String {
        let line = layout.line(at: layout.row(for: anchor))
        let text = layout.allUnits[layout.unitIndex(of: line.block)!].text
        return String(decoding: Array(text.utf8)[line.range.lowerBound...], as: UTF8.self)
    }

    @Test(arguments: [12, 20, 80])
    func capturedAtOneWidthRestoredAtAnotherAfterAnEdit(width: Int) throws {
        let (before, beforeFacts) = layout(Self.original, width: 16)
        let block = try #require(before.allUnits.first { $0.text.hasPrefix("Second") })
        let rows = before.rows(of: block.block)
        let top = rows.lowerBound + 1 // the second row of "Second paragraph…"
        let anchor = before.anchor(atRow: top)
        #expect(anchor.offset > 0)
        let stored = capture(anchor: anchor, facts: beforeFacts, fraction: Double(top) / Double(before.rowCount),
                             sourceLine: before.line(at: top).sourceLine)
        #expect(stored.headingPath == ["Notes", "Details"])

        let edited = Self.original.replacingOccurrences(of: "# Notes\n", with: "# Notes\n\nA new opening paragraph.\n")
        let (after, afterFacts) = layout(edited, width: width)
        let r = resolve(stored, storedContentHash: beforeFacts.contentHash, in: afterFacts)
        #expect(r.rule == .fingerprint)
        let text = block.text
        let expected = String(decoding: Array(text.utf8)[anchor.offset...], as: UTF8.self)
        // The row shown first holds the anchor's character (re-wrapped rows may start earlier).
        #expect(shown(after, r.anchor).hasSuffix(expected))
        #expect(afterFacts.textAt(r.anchor) == expected)
    }
}
