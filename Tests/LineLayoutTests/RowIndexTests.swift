import LineLayout
import TestSupport
import Testing

/// The row index against the obvious model (an array of counts and a hidden flag per unit),
/// under random sequences of every operation, at sizes that cross group boundaries.
@Suite struct RowIndexTests {
    struct Model {
        var counts: [Int] = []
        var exact: [Bool] = []
        var hidden: [Bool] = []
        var visible: [Int] { counts.indices.map { hidden[$0] ? 0 : counts[$0] } }
        var rowCount: Int { visible.reduce(0, +) }
        func firstRow(_ u: Int) -> Int { visible[..<u].reduce(0, +) }
    }

    func check(_ index: RowIndex, _ model: Model, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(index.unitCount == model.counts.count, sourceLocation: sourceLocation)
        #expect(index.rowCount == model.rowCount, sourceLocation: sourceLocation)
        #expect(index.estimatedUnits == model.exact.filter { !$0 }.count, sourceLocation: sourceLocation)
        // The next and previous shown unit from every place (what layout walks with a filter).
        for u in 0...model.counts.count {
            let next = (u..<model.counts.count).first { !model.hidden[$0] }.map { Unit($0) }
            let previous = (0..<u).last { !model.hidden[$0] }.map { Unit($0) }
            #expect(index.nextShown(from: Unit(u)) == next, "next from \(u)", sourceLocation: sourceLocation)
            #expect(index.previousShown(before: Unit(u)) == previous, "previous before \(u)", sourceLocation: sourceLocation)
        }
        var row = 0
        for u in model.counts.indices {
            let unit = Unit(u)
            #expect(index.count(ofUnit: unit) == model.counts[u], sourceLocation: sourceLocation)
            #expect(index.isExact(unit: unit) == model.exact[u], sourceLocation: sourceLocation)
            #expect(index.isHidden(unit: unit) == model.hidden[u], sourceLocation: sourceLocation)
            let n = model.visible[u]
            #expect(index.rows(ofUnit: unit) == Row(row)..<Row(row + n), sourceLocation: sourceLocation)
            for k in 0..<n {
                let found = index.unit(atRow: Row(row + k))
                #expect(found?.unit == unit && found?.line == k, "row \(row + k)", sourceLocation: sourceLocation)
            }
            row += n
        }
        if model.rowCount == 0 { #expect(index.unit(atRow: 0) == nil, sourceLocation: sourceLocation) }
    }

    /// `ones`: most counts are 1 and exact, as a text's lines are, so most groups hold one
    /// byte for all their units and go back and forth from it.
    @Test(arguments: [1, 2, 3, 4, 5], [false, true])
    func randomOperationsAgreeWithTheModel(seed: UInt64, ones: Bool) {
        var random = SeededRandom(seed: seed)
        var index = RowIndex()
        var model = Model()
        for step in 0..<400 {
            let op = Int.random(in: 0..<100, using: &random)
            switch op {
            case 0..<45:
                var n = Int.random(in: 0...3, using: &random) == 0 ? Int.random(in: 0...400, using: &random) : Int.random(in: 0...4, using: &random)
                var exact = Bool.random(using: &random)
                if ones && Int.random(in: 0..<10, using: &random) > 0 { n = 1; exact = true }
                index.append(count: n, exact: exact)
                model.counts.append(n); model.exact.append(exact); model.hidden.append(false)
            case 45..<65 where !model.counts.isEmpty:
                let u = Int.random(in: 0..<model.counts.count, using: &random)
                let n = Int.random(in: 0...300, using: &random)
                let exact = Bool.random(using: &random)
                index.setCount(n, exact: exact, ofUnit: Unit(u))
                model.counts[u] = n; model.exact[u] = exact
            case 65..<72:
                let keep = Int.random(in: 0...model.counts.count, using: &random)
                index.truncate(to: keep)
                model.counts.removeLast(model.counts.count - keep)
                model.exact.removeLast(model.exact.count - keep)
                model.hidden.removeLast(model.hidden.count - keep)
            case 72..<80 where !model.counts.isEmpty:
                let u = Int.random(in: 0..<model.counts.count, using: &random)
                let hide = Bool.random(using: &random)
                index.setHidden(hide, unit: Unit(u))
                model.hidden[u] = hide
            case 80..<84:
                let shown = model.counts.indices.filter { _ in Bool.random(using: &random) }
                index.setShown(shown.map { Unit($0) })
                for u in model.hidden.indices { model.hidden[u] = !shown.contains(u) }
            case 84..<86:
                index.setShown(nil)
                for u in model.hidden.indices { model.hidden[u] = false }
            case 86..<88:
                index.markAllEstimated()
                for u in model.exact.indices { model.exact[u] = false }
            case 88..<94 where !model.counts.isEmpty:
                let start = Int.random(in: 0..<model.counts.count, using: &random)
                let n = Int.random(in: 1...150, using: &random)
                let rows = (0..<n).map { _ in ones || Bool.random(using: &random) ? 1 : Int.random(in: 0...200, using: &random) }
                index.setExactCounts(from: Unit(start), count: n) { rows[$0] }
                for k in 0..<n where start + k < model.counts.count { model.counts[start + k] = rows[k]; model.exact[start + k] = true }
            default:
                break
            }
            if step % 20 == 0 || step == 399 { check(index, model) }
        }
    }

    @Test func emptyAndClampedLookups() {
        var index = RowIndex()
        #expect(index.unit(atRow: 0) == nil)
        #expect(index.rows(ofUnit: 0) == 0..<0)
        index = RowIndex(counts: [2, 0, 3])
        #expect(index.unit(atRow: -5)?.unit == 0)
        #expect(index.unit(atRow: 99)?.unit == 2 && index.unit(atRow: 99)?.line == 2)
        #expect(index.unit(atRow: 2)?.unit == 2)  // the empty unit 1 owns no row
        #expect(index.visibleUnit(atOrAfter: 1) == 1)
        index.setHidden(true, unit: 1)
        #expect(index.visibleUnit(atOrAfter: 1) == 2)
    }

    @Test func largeCountsAreKept() {
        var index = RowIndex(counts: [1_000_000, 126, 127, 128])
        #expect(index.rowCount == 1_000_000 + 126 + 127 + 128)
        #expect(index.count(ofUnit: 0) == 1_000_000)
        index.setCount(5, exact: false, ofUnit: 0)
        #expect(index.count(ofUnit: 0) == 5)
        #expect(index.rowCount == 5 + 126 + 127 + 128)
        #expect(index.unit(atRow: 5 + 126 + 127)?.unit == 3)
    }
}
