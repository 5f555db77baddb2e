import LineLayout
import MarkdownModel
import Testing
@testable import Pager

/// Where a graphics protocol draws pictures: the rows each shows on screen, clipped at the
/// top and at the bottom of the content rows (never the status row), in every scroll position.
@Suite struct PicturePlacementTests {
    /// Every image is 10 columns by 4 rows, drawn by kitty's protocol (blank rows in layout).
    static func config() -> PagerConfig {
        var c = PagerHarness.plain
        c.pictures = PictureShow(cellWidth: 8, cellHeight: 16, maxRows: 20, deferred: false, mode: .kitty) { _, _, _ in
            Picture(cols: 10, rows: 4, cells: [])
        }
        return c
    }

    static let markdown = "Top\n\n![A sun](sun.png)\n\n" + (1...20).map { "Line \($0)." }.joined(separator: "\n\n")

    @Test func clippedAtTheTopAndTheBottomInEveryPosition() {
        for rows in [3, 4, 5, 8] {  // content rows: one fewer (the status row)
            var h = PagerHarness(markdown: Self.markdown, columns: 40, rows: rows, config: Self.config())
            // The picture's rows are document rows 2...5, its caption 6.
            for top in 0..<8 {
                let placements = h.state.picturePlacements()
                let content = rows - 1
                let shown = (2..<6).filter { $0 >= top && $0 < top + content }
                if shown.isEmpty {
                    #expect(placements.isEmpty, "rows \(rows), top \(top): \(placements)")
                } else {
                    #expect(placements == [PicturePlacement(source: "sun.png", cols: 10, rows: 4, firstRow: shown.first! - 2,
                                                            visibleRows: shown.count, screenRow: shown.first! - top, column: 0)],
                            "rows \(rows), top \(top)")
                }
                #expect(placements.allSatisfy { $0.screenRow + $0.visibleRows <= content })
                h.send("j")
            }
        }
    }

    @Test func theOutlineCoversThem() {
        var h = PagerHarness(markdown: "# Head\n\n![A sun](sun.png)\n", columns: 40, rows: 10, config: Self.config())
        #expect(!h.state.picturePlacements().isEmpty)
        h.send("o")
        #expect(h.state.outline != nil)
        #expect(h.state.picturePlacements().isEmpty)
    }
}
