import LineLayout
import MarkdownModel
import Testing

@Suite struct DocumentLayoutTests {
    static let md = "# Title\n\n> quoted text here\n\n- a\n- b\n\n```sh\ncode\n```\n"

    @Test func rowIndexBlocksAndContainers() {
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.md), options: LayoutOptions(width: 20))
        // Title, ═, blank | │ quoted…, blank | • a | • b, blank | [sh], code
        #expect(layout.rowCount == 10)
        #expect(layout.allUnits.count == 5)
        #expect(layout.rowRange.map { layout.unitIndex(atRow: $0) } == [0, 0, 0, 1, 1, 2, 3, 3, 4, 4])
        let doc = layout.document!
        let quote = doc.blocks.first { if case .blockQuote = $0.kind { return true } else { return false } }!.id
        let list = doc.blocks.first { if case .list = $0.kind { return true } else { return false } }!.id
        #expect(layout.unitIndex(of: quote) == nil)
        #expect(layout.rows(of: quote) == 3..<5)
        #expect(layout.rows(of: list) == 5..<8)
        #expect(layout.rows(of: doc.root) == 0..<10)
        #expect(layout.row(forSourceLine: 3) == 3)
        #expect(layout.row(forSourceLine: 6) == 6)
        #expect(layout.row(forSourceLine: 9) == 9)
        #expect(layout.row(forSourceLine: 99) == 9)
        #expect(layout.row(forSourceLine: 2) == 3)
    }

    @Test func anchorsUseOrdinalsForRowsStartingTogether() {
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.md), options: LayoutOptions(width: 20))
        let code = layout.allUnits[4].block
        // The label row and the first code row both start at offset 0.
        #expect(layout.anchor(atRow: 8) == Anchor(block: code, offset: 0, ordinal: 0))
        #expect(layout.anchor(atRow: 9) == Anchor(block: code, offset: 0, ordinal: 1))
        #expect(layout.row(for: Anchor(block: code, offset: 0, ordinal: 7)) == 9)
        // Title's rule and the separator after it stand at the end of "Title".
        #expect(layout.anchor(atRow: 2) == Anchor(block: layout.allUnits[0].block, offset: 5, ordinal: 1))
        // An anchor on a container goes to its first row; unknown blocks are clamped.
        #expect(layout.row(for: Anchor(block: BlockID(1), offset: 0)) == layout.rows(of: BlockID(1)).lowerBound)
        #expect(layout.row(for: Anchor(block: BlockID(999), offset: 0)) == layout.lastRow)
        #expect(layout.row(for: Anchor(block: layout.allUnits[1].block, offset: 9999)) == 3)
    }

    @Test func anchorsSurviveRewrapping() {
        let md = "word " + String(repeating: "tide water harbour ", count: 20)
        let document = MarkdownParser.parse(md)
        let narrow = DocumentLayout(document: document, options: LayoutOptions(width: 12))
        let wide = DocumentLayout(document: document, options: LayoutOptions(width: 50))
        for r in narrow.rowRange {
            let anchor = narrow.anchor(atRow: r)
            let line = wide.line(at: wide.row(for: anchor))
            #expect(line.range.contains(anchor.offset))
        }
    }

    @Test func rowsShowingAContentRange() {
        let layout = DocumentLayout(document: MarkdownParser.parse("aaa bbb ccc ddd"), options: LayoutOptions(width: 4))
        let block = layout.allUnits[0].block
        #expect(layout.rows(showing: 4..<9, in: block) == 1..<3)
        #expect(layout.rows(showing: 0..<3, in: block) == 0..<1)
        #expect(layout.rows(showing: 3..<4, in: block) == 1..<2)  // the space dropped at the wrap: the row after
        #expect(layout.rows(showing: 12..<12, in: block) == 3..<4)
    }

    @Test func cacheKeepsExactCountsForOptionsSeenBefore() {
        var cache = LayoutCache(capacity: 2)
        let doc = MarkdownParser.parse(Self.md)
        let a = DocumentLayout(document: doc, options: LayoutOptions(width: 20)).index
        let b = DocumentLayout(document: doc, options: LayoutOptions(width: 30)).index
        cache.store(a, for: LayoutOptions(width: 20))
        cache.store(b, for: LayoutOptions(width: 30))
        #expect(cache.counts(for: LayoutOptions(width: 20)) == a)
        cache.store(a, for: LayoutOptions(width: 40))  // evicts 30, the least recently used
        #expect(cache.counts(for: LayoutOptions(width: 30)) == nil)
        var estimated = a
        estimated.markAllEstimated()
        cache.store(estimated, for: LayoutOptions(width: 50))  // estimates are not kept
        #expect(cache.counts(for: LayoutOptions(width: 50)) == nil)
    }
}
