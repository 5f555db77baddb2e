import LineLayout
@testable import Pager
import Testing

/// The background pass's counts enter the pager as `.rowCounts` events: the status line
/// stops saying `~` once every count is exact, and the text on screen never moves.
@Suite struct ExactRowCountTests {
    /// Lines far longer than their bytes suggest (wide characters): the estimate is off.
    static let text = (1...200).map { "line \($0) " + String(repeating: "日", count: $0 % 30) }.joined(separator: "\n") + "\n"

    static func deliverAll(_ h: inout PagerHarness) {
        guard let request = h.state.documents[0].rowCountRequest else { return }
        var u: Unit = 0
        while let chunk = request.content.rowCountChunk(from: u, width: request.width, maxUnits: 37) {
            h.send(.rowCounts(document: 0, chunk: chunk))
            u += chunk.count
        }
    }

    @Test func estimatesBecomeExactAndTheTildeGoes() {
        var h = PagerHarness(text: Self.text, columns: 20, rows: 5)
        h.send("50%")
        let before = h.content
        #expect(h.status.contains("/~"))
        #expect(h.state.documents[0].rowCountRequest != nil)
        Self.deliverAll(&h)
        #expect(h.state.documents[0].rowCountRequest == nil)
        #expect(h.content == before, "the view keeps its anchor")
        #expect(!h.status.contains("~"), "status: \(h.status)")
        // The total is what a whole layout counts.
        let layout = h.state.documents[0].layout
        let exact = layout.content.rowCounts(of: layout.unitRange, options: layout.options).reduce(0, +)
        #expect(layout.rowCount == exact)
    }

    @Test func chunksOfAnOldWidthAreDropped() {
        var h = PagerHarness(text: Self.text, columns: 20, rows: 5)
        let old = h.state.documents[0].rowCountRequest!
        h.send(.resize(rows: 5, columns: 30))
        let chunk = old.content.rowCountChunk(from: 0, width: old.width)!
        h.send(.rowCounts(document: 0, chunk: chunk))
        #expect(!h.state.documents[0].layout.index.isExact(unit: 150))
        #expect(h.state.documents[0].rowCountRequest?.width != old.width)
        Self.deliverAll(&h)
        #expect(h.state.documents[0].layout.isExact)
    }

    @Test func choppedLinesNeedNoPass() {
        var config = PagerHarness.plain
        config.chopLongLines = true
        let h = PagerHarness(text: Self.text, columns: 20, rows: 5, config: config)
        #expect(h.state.documents[0].rowCountRequest == nil)
        #expect(!h.status.contains("~"))
    }
}
