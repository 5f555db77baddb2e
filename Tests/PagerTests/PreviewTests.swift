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
        config.showScrollbar = false
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
}
