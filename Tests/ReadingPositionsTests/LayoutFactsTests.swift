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
        let text = layout.unit(layout.unitIndex(of: line.block)!).text
        return String(decoding: Array(text.utf8)[line.range.lowerBound...], as: UTF8.self)
    }

    @Test(arguments: [12, 20, 80])
    func capturedAtOneWidthRestoredAtAnotherAfterAnEdit(width: Int) throws {
        let (before, beforeFacts) = layout(Self.original, width: 16)
        let block = try #require(before.unitRange.lazy.map { before.unit($0) }.first { $0.text.hasPrefix("Second") })
        let rows = before.rows(of: block.block)
        let top = rows.lowerBound + 1 // the second row of "Second paragraph…"
        let anchor = before.anchor(atRow: top)
        #expect(anchor.offset > 0)
        let stored = capture(anchor: anchor, facts: beforeFacts, fraction: Double(top.index) / Double(before.rowCount),
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

    /// Facts made from a layout keep no copy of the texts (they read them from the content),
    /// and resolve every rule exactly as facts that keep them.
    @Test func layoutFactsReadTextsFromTheContentAndResolveTheSame() {
        // The same headings twice (their paths recur: section indexes count on), containers.
        let (layout, lean) = layout(Self.original + "\n\n" + Self.original + "\n\n- item\n\n  > quoted\n- \n"
                                    + "\n\nÜnïcödé paragraph 👩‍👩‍👧 at the end.", width: 20)
        let document = layout.document!
        let kept = DocumentFacts(document: document, contentHash: lean.contentHash,
                                 text: { layout.unitIndex(of: $0).map { layout.text(ofUnit: $0) } ?? "" },
                                 weight: { layout.unitIndex(of: $0).map { layout.index.count(ofUnit: $0) } ?? 1 })
        #expect(lean.leaves.count == kept.leaves.count && lean.leaves.count >= 5)
        for i in lean.leaves.indices {
            #expect(lean.leaves[i].text.isEmpty)
            #expect(lean.text(ofLeaf: i) == kept.leaves[i].text && kept.text(ofLeaf: i) == kept.leaves[i].text)
            #expect(lean.leaves[i].textLength == kept.leaves[i].text.utf8.count)
            #expect(lean.leaves[i].fingerprint == kept.leaves[i].fingerprint)
            // Everything else a compact leaf reads back as the kept leaf has it.
            var read = lean.leaves[i]
            read.text = kept.leaves[i].text
            #expect(read == kept.leaves[i])
            #expect(lean.sectionIndex(ofLeaf: i) == kept.sectionIndex(ofLeaf: i))
            #expect(lean.leafIndex(of: kept.leaves[i].block) == i)
            let stored = capture(anchor: Anchor(block: kept.leaves[i].block, offset: 0), facts: kept, fraction: 0.5)
            #expect(capture(anchor: Anchor(block: kept.leaves[i].block, offset: 0), facts: lean, fraction: 0.5) == stored)
        }
        // Blocks that are not leaves (the root, containers) have no leaf index.
        for block in document.blocks where !block.kind.isLeaf {
            #expect(lean.leafIndex(of: block.id) == nil && kept.leafIndex(of: block.id) == nil)
        }
        #expect(lean.leafIndex(of: BlockID(document.blocks.count)) == nil)
        let edited = "Other.\n\n" + Self.original.replacingOccurrences(of: "Second", with: "2nd")
            + "\n\nÜnïcödé paragraph 👩‍👩‍👧 at the end."
        let (_, editedLean) = self.layout(edited, width: 30)
        let editedLayout = DocumentLayout(document: MarkdownParser.parse(edited), options: LayoutOptions(width: 30))
        let editedKept = DocumentFacts(document: editedLayout.document!, contentHash: editedLean.contentHash,
                                       text: { editedLayout.unitIndex(of: $0).map { editedLayout.text(ofUnit: $0) } ?? "" },
                                       weight: { editedLayout.unitIndex(of: $0).map { editedLayout.index.count(ofUnit: $0) } ?? 1 })
        for i in lean.leaves.indices {
            for offset in [0, 3, 7, 1000] {
                for fraction in [0.0, 0.5, 0.97] {
                    let stored = capture(anchor: Anchor(block: lean.leaves[i].block, offset: offset), facts: lean,
                                         fraction: fraction)
                    for hash in [lean.contentHash, StableHash(bytes: "x".utf8)] {
                        #expect(resolve(stored, storedContentHash: hash, in: editedLean)
                                == resolve(stored, storedContentHash: hash, in: editedKept))
                        #expect(resolve(stored, storedContentHash: hash, in: lean)
                                == resolve(stored, storedContentHash: hash, in: kept))
                    }
                }
            }
        }
    }
}
