import LineLayout
import MarkdownModel
import Testing
import TerminalScreen
@testable import Pager

/// A large document first shows a preview of its beginning, then the full parse replaces it.
@Suite struct PreviewTests {
    static func doc(_ paragraphs: Int) -> String {
        (1...paragraphs).map { "Paragraph \($0) of the document." }.joined(separator: "\n\n")
    }

    func state(_ markdown: String, preview: Bool) -> PagerState {
        var config = PagerConfig()
        config.scrollbar = .never
        config.theme = Theme(depth: .none)
        let spec = DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(markdown), isPreview: preview)
        return PagerState(documents: [spec], config: config, rows: 6, columns: 40)
    }

    @Test func previewStatusShowsNoTotals() {
        let s = state(Self.doc(10), preview: true)
        let status = s.frame().row(5)
        #expect(status.contains("p1/…"))
        #expect(!status.contains("%"), "no percentage while the rest is unknown")
    }

    /// The scroll bar of a preview stands for the whole file: its rows scaled by the share of
    /// the file the preview holds, so the thumb is about the size the full parse gives it.
    @Test func aPreviewsThumbIsForTheWholeFile() {
        func thumb(share: Double?) -> Int {
            var config = PagerConfig()
            config.scrollbar = .always
            config.theme = Theme(depth: .none)
            var spec = DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(Self.doc(10)), isPreview: share != nil)
            spec.previewShare = share ?? 1
            let s = PagerState(documents: [spec], config: config, rows: 11, columns: 40)
            let frame = s.frame()
            return (0..<10).filter { frame.row($0).hasSuffix(" ") }.count
        }
        // 19 rows, 10 shown: a thumb of 5; the whole file is ten times as long: a thumb of 1.
        #expect(thumb(share: nil) == 5)
        #expect(thumb(share: 1) == 5)
        #expect(thumb(share: 0.5) == 3)
        #expect(thumb(share: 0.1) == 1)
    }

    @Test func fullDocumentReplacesThePreviewKeepingThePlace() {
        var s = state(Self.doc(10), preview: true)
        _ = s.update(.key(.char("j")))
        _ = s.update(.key(.char("j")))
        let before = s.frame().row(0)
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(Self.doc(100))))
        let after = s.frame()
        #expect(after.row(0) == before, "the same row stays on top")
        #expect(after.row(5).contains("p1/"))
        #expect(!after.row(5).contains("…"))
        #expect(after.row(5).contains("%"))
    }

    static func settle(_ s: inout PagerState) {
        var steps = 0
        while s.wantsIdle, steps < 10_000 { _ = s.update(.idle); steps += 1 }
    }

    /// A search typed during the preview counted the preview's matches; when the full
    /// document replaces it, the current match stays and the count is over the full document.
    @Test func aSearchTypedDuringThePreviewCountsTheFullDocument() {
        var s = state(Self.doc(10), preview: true)
        for k in "/of the" { _ = s.update(.key(.char(k))) }
        _ = s.update(.key(.enter))
        Self.settle(&s)
        #expect(s.frame().row(5).contains("1/10"), "\(s.frame().row(5))")
        let match = s.search?.current
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(Self.doc(100))))
        Self.settle(&s)
        #expect(s.search?.current == match)
        #expect(s.frame().row(5).contains("1/100"), "\(s.frame().row(5))")
        _ = s.update(.key(.char("n")))
        Self.settle(&s)
        #expect(s.frame().row(5).contains("2/100"), "\(s.frame().row(5))")
    }

    /// A reload whose unit no longer holds the match forgets it (the pattern stays: `n`
    /// finds the next one in the new document).
    @Test func aMatchTheNewDocumentDoesNotHoldIsForgotten() {
        var s = state(Self.doc(10), preview: false)
        for k in "/Paragraph 2 " { _ = s.update(.key(.char(k))) }
        _ = s.update(.key(.enter))
        #expect(s.search?.current?.unit == 1)
        let edited = (1...10).map { "Paragraph \($0 + 5) of the document." }.joined(separator: "\n\n")
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(edited)))
        #expect(s.search?.current == nil)
        #expect(s.search?.pattern != nil)
    }

    /// A filter typed during the preview showed the preview's matching blocks; the full
    /// document's are worked out in the background and then shown, the place kept.
    @Test func aFilterTypedDuringThePreviewFiltersTheFullDocument() {
        var s = state(Self.doc(10), preview: true)
        for k in "&Paragraph [0-9]*7 " { _ = s.update(.key(.char(k))) }
        _ = s.update(.key(.enter))
        #expect(s.active.filterUnits == [6])
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(Self.doc(100))))
        #expect(s.active.filterUnits == [6], "what it found shows meanwhile")
        #expect(s.wantsIdle)
        Self.settle(&s)
        #expect(s.active.filterUnits == [6, 16, 26, 36, 46, 56, 66, 76, 86, 96])
        #expect(s.frame().row(5).contains("Showing 10 matching blocks"), "\(s.frame().row(5))")
        // Replaced again before the filter is worked out over the new document (a reload
        // right after the full parse): the filter is carried on, not dropped.
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse("Other.")))
        #expect(s.active.filterUnits == nil && s.active.refilter != nil)
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(Self.doc(20))))
        Self.settle(&s)
        #expect(s.active.filterUnits == [6, 16])
        // A reload where nothing matches any more lifts the filter and says so.
        s.replaceDocument(at: 0, with: DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse("Nothing here.")))
        Self.settle(&s)
        #expect(s.active.filterUnits == nil)
        #expect(s.frame().row(5).contains("filter"), "\(s.frame().row(5))")
    }
}
