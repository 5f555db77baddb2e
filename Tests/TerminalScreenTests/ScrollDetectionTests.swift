import TestSupport
import Testing
@testable import TerminalScreen

@Suite struct ScrollDetectionTests {
    static func grid(_ rows: [String]) -> Grid { Grid(lines: rows, columns: 4) }

    @Test func detectsUpAndDownShifts() {
        let old = Self.grid(["a", "b", "c", "d", "e", "S"])
        let up = Self.grid(["a", "d", "e", "x", "y", "S"])
        #expect(ScrollShift.detect(from: old, to: up) == ScrollShift(region: 1..<5, amount: 2))
        let down = Self.grid(["x", "a", "b", "c", "d", "S"])
        #expect(ScrollShift.detect(from: old, to: down) == ScrollShift(region: 0..<5, amount: -1))
    }

    @Test func nothingToGainIsNil() {
        let old = Self.grid(["a", "b", "c"])
        #expect(ScrollShift.detect(from: old, to: old) == nil)
        #expect(ScrollShift.detect(from: old, to: Self.grid(["x", "y", "z"])) == nil)
        // Blank rows match any shift but gain nothing.
        #expect(ScrollShift.detect(from: Self.grid(["", "", "", "a"]), to: Self.grid(["", "", "", "b"])) == nil)
    }

    /// Rows are told apart by their text: restyling the same text is the cell diff's job, and
    /// a scroll is never chosen for it.
    @Test func styleOnlyChangesDoNotScroll() {
        let old = Self.grid(["a", "b", "c", "d"])
        let new = Grid(lines: ["a", "b", "c", "d"], columns: 4, style: CellStyle(reverse: true))
        #expect(ScrollShift.detect(from: old, to: new) == nil)
    }

    @Test func respectsTheRowLimit() {
        let old = Self.grid(["a", "b", "c", "d", "S"])
        let new = Self.grid(["b", "c", "d", "e", "S"])
        let shift = ScrollShift.detect(from: old, to: new, within: 1..<4)
        #expect(shift == ScrollShift(region: 1..<4, amount: 1) || shift == nil)
        #expect(ScrollShift.detect(from: old, to: new) == ScrollShift(region: 0..<4, amount: 1))
    }

    /// Law: applying the detected shift to the old grid makes every row in the run equal to
    /// the new grid, and the run is at least `minimumGain` rows that were different.
    @Test(arguments: 0..<200)
    func appliedShiftMatchesTheNewRows(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &+ 1000)
        let rows = Int.random(in: 2...10, using: &rng)
        let pool = ["a", "b", "c", "d", "", "e"]
        let old = Grid(lines: (0..<rows).map { _ in pool.randomElement(using: &rng)! }, columns: 2)
        var new = old
        let top = Int.random(in: 0..<rows, using: &rng), bottom = Int.random(in: top...rows, using: &rng)
        new.scroll(region: top..<bottom, by: Int.random(in: -3...3, using: &rng))
        guard let shift = ScrollShift.detect(from: old, to: new) else { return }
        #expect(shift.amount != 0 && abs(shift.amount) < shift.region.count)
        var scrolled = old
        scrolled.scroll(region: shift.region, by: shift.amount)
        let kept = shift.amount > 0
            ? shift.region.lowerBound..<(shift.region.upperBound - shift.amount)
            : (shift.region.lowerBound - shift.amount)..<shift.region.upperBound
        var gain = 0
        for r in kept {
            #expect(scrolled.row(r) == new.row(r))
            if old.row(r) != new.row(r) { gain += 1 }
        }
        #expect(gain >= 2)
    }
}
