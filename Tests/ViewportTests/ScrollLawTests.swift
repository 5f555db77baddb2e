import Testing
import LineLayout
import MarkdownModel
@testable import Viewport

/// A row space where row r is anchored at block r: enough to test the geometry.
struct FakeRows: RowSpace {
    var rowCount: Int
    func anchor(atRow row: Row) -> Anchor { Anchor(block: BlockID(row.index), offset: 0) }
    func row(for anchor: Anchor) -> Row { Row(min(max(0, anchor.block.rawValue), max(0, rowCount - 1))) }
}

@Suite("Scrolling laws, exhaustively at small sizes")
struct ScrollLawTests {
    static let heights = Array(1...8)

    @Test("page down then up returns to the same top unless clamped; the overlap is exact", arguments: heights)
    func pagingIsSymmetric(height: Int) {
        for count in 0...30 {
            let rows = FakeRows(rowCount: count)
            let maxTop = ScrollGeometry.maxTop(rowCount: count, contentRows: height)
            for overlap in 0..<height {
                let step = ScrollGeometry.pageStep(contentRows: height, overlap: overlap)
                #expect(step == height - overlap)
                for top in 0...maxTop {
                    let v = Viewport(contentRows: height).withTop(Row(top), in: rows)
                    #expect(v.top(in: rows).index == top)
                    let down = v.paged(1, overlap: overlap, in: rows)
                    let downTop = down.top(in: rows).index
                    #expect(downTop <= maxTop)
                    if top + step <= maxTop {
                        // Not clamped: exactly `overlap` rows are shared by the two pages.
                        #expect(downTop == top + step)
                        let shared = max(0, (top + height) - downTop)
                        #expect(shared == overlap)
                        #expect(down.paged(-1, overlap: overlap, in: rows).top(in: rows).index == top)
                    } else {
                        #expect(downTop == maxTop, "paging never scrolls past the end")
                    }
                    let up = v.paged(-1, overlap: overlap, in: rows)
                    if top - step >= 0 {
                        #expect(up.paged(1, overlap: overlap, in: rows).top(in: rows).index == top)
                    } else {
                        #expect(up.top(in: rows).index == 0)
                    }
                }
            }
        }
    }

    @Test("the top never passes max(0, rows − contentRows)", arguments: heights)
    func topIsClamped(height: Int) {
        for count in 0...30 {
            let rows = FakeRows(rowCount: count)
            for requested in -3...(count + 3) {
                let t = Viewport(contentRows: height).withTop(Row(requested), in: rows).top(in: rows).index
                #expect(t >= 0 && t <= max(0, count - height))
                for delta in -10...10 {
                    let s = Viewport(contentRows: height).withTop(Row(requested), in: rows).scrolled(by: delta, in: rows).top(in: rows).index
                    #expect(s >= 0 && s <= max(0, count - height))
                }
            }
        }
    }

    @Test("edges are sticky: bottom stays bottom when rows are added, top stays top")
    func edgesAreSticky() {
        let short = FakeRows(rowCount: 20)
        let v = Viewport(contentRows: 5).withTop(Row(99), in: short)
        #expect(v.position == .bottom)
        #expect(v.top(in: FakeRows(rowCount: 40)) == 35)
        let t = Viewport(contentRows: 5).withTop(Row(0), in: short)
        #expect(t.position == .top)
        #expect(t.top(in: FakeRows(rowCount: 40)) == 0)
    }

    @Test("minimal reveal: visible → no move; below → last row at the bottom; above → first row on top; taller → first row on top", arguments: heights)
    func revealLaws(height: Int) {
        for count in 1...14 {
            let maxTop = ScrollGeometry.maxTop(rowCount: count, contentRows: height)
            for top in 0...maxTop {
                for first in 0..<count {
                    for last in first..<count {
                        let target = first..<(last + 1)
                        for whole in [false, true] {
                            let result = ScrollGeometry.reveal(target, top: top, contentRows: height, rowCount: count, requireWhole: whole)
                            let visible = whole
                                ? (first >= top && last < top + height)
                                : (first < top + height && last >= top)
                            if visible {
                                #expect(result == nil)
                                continue
                            }
                            let newTop = result ?? top
                            #expect(newTop >= 0 && newTop <= maxTop)
                            let tall = last - first + 1 > height
                            if tall || first < top {
                                #expect(newTop == min(first, maxTop), "first row on top")
                            } else {
                                #expect(newTop == max(0, last - height + 1), "last row at the bottom")
                                #expect(last == newTop + height - 1 || newTop == 0)
                            }
                            // Least movement: no top closer to the old one shows the whole target
                            // (or, for a target taller than the view, its first row on top).
                            for other in 0...maxTop where abs(other - top) < abs(newTop - top) {
                                let ok = (first >= other && last < other + height) || (tall && other == min(first, maxTop))
                                #expect(!ok, "a smaller move would have done")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("jump-target policies put the target where asked, only when it has to move")
    func jumpTarget() {
        // 100 rows, 10 content rows, top at 0; target row 50.
        #expect(ScrollGeometry.reveal(50..<51, top: 0, contentRows: 10, rowCount: 100, policy: .row(0)) == 50)
        #expect(ScrollGeometry.reveal(50..<51, top: 0, contentRows: 10, rowCount: 100, policy: .row(-1)) == 41)
        #expect(ScrollGeometry.reveal(50..<51, top: 0, contentRows: 10, rowCount: 100, policy: .fraction(0.5)) == 45)
        #expect(ScrollGeometry.reveal(5..<6, top: 0, contentRows: 10, rowCount: 100, policy: .fraction(0.5)) == nil)
        // Clamped at the end.
        #expect(ScrollGeometry.reveal(98..<99, top: 0, contentRows: 10, rowCount: 100, policy: .row(0)) == 90)
    }

    @Test("page indicator counts pages as paging reaches them")
    func pageCounter() {
        // 25 rows, 10 per screen, overlap 1: tops 0, 9, 15(max) → 3 pages.
        #expect(PageCounter.pages(top: 0, rowCount: 25, contentRows: 10, overlap: 1) == (1, 3))
        #expect(PageCounter.pages(top: 9, rowCount: 25, contentRows: 10, overlap: 1) == (2, 3))
        #expect(PageCounter.pages(top: 15, rowCount: 25, contentRows: 10, overlap: 1) == (3, 3))
        #expect(PageCounter.pages(top: 0, rowCount: 5, contentRows: 10, overlap: 1) == (1, 1))
        for count in 0...40 {
            for h in 1...6 {
                var v = Viewport(contentRows: h)
                let rows = FakeRows(rowCount: count)
                var page = 1
                let total = PageCounter.pages(top: 0, rowCount: count, contentRows: h, overlap: 1).total
                while true {
                    let p = PageCounter.pages(top: v.top(in: rows).index, rowCount: count, contentRows: h, overlap: 1)
                    #expect(p.current == page && p.total == total)
                    let next = v.paged(1, overlap: 1, in: rows)
                    if next.top(in: rows).index == v.top(in: rows).index { break }
                    v = next; page += 1
                }
                #expect(page == total)
            }
        }
    }
}
