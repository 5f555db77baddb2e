/// A block of rows that moved vertically between two frames.
///
/// ```
///   old            new          amount = +2 (content moved up, SU 2)
///   0 a            0 a          region = 1..<5: rows 1…4 of the old frame are scrolled;
///   1 b  ─┐        1 d          new rows 1…2 come from old rows 3…4,
///   2 c   │ ┌───▶  2 e          new rows 3…4 are fresh (drawn by the diff).
///   3 d  ─┼─┘      3 x
///   4 e  ─┘        4 y
///   5 status       5 status
/// ```
public struct ScrollShift: Hashable, Sendable {
    /// Rows (0-based, half-open) given to DECSTBM.
    public var region: Range<Int>
    /// Rows the content moves: positive = up (SU), negative = down (SD). Never 0, and
    /// `abs(amount) < region.count`.
    public var amount: Int

    public init(region: Range<Int>, amount: Int) {
        self.region = region; self.amount = amount
    }
}

extension ScrollShift {
    /// The best vertical shift that turns `old` into something closer to `new`, or nil when
    /// scrolling would not save redrawing at least `minimumGain` rows.
    ///
    /// For every amount k, finds the longest run of consecutive rows with
    /// `new[r] == old[r + k]`; its gain is the number of those rows that differ from
    /// `old[r]` (rows equal in place cost nothing anyway). The largest gain wins; ties go to
    /// the smaller |k|. Rows are compared by text signatures (see below), so the cost is
    /// O(rows × columns + rows²).
    public static func detect(from old: Grid, to new: Grid, within rows: Range<Int>? = nil, minimumGain: Int = 2) -> ScrollShift? {
        guard old.rows == new.rows, old.columns == new.columns else { return nil }
        let span = (rows ?? 0..<new.rows).clamped(to: 0..<new.rows)
        guard span.count >= 2 else { return nil }
        // Rows are identified by a signature of their text (FNV-1a over the cells' UTF-8).
        // Styles and hash collisions are ignored on purpose: a wrong identity can only make
        // the chosen scroll less useful, never the frame wrong, because the cell diff that
        // follows the scroll repairs every remaining difference. (Hashing whole cells with
        // `Hasher`, or comparing rows cell by cell, cost more than the rest of a frame.)
        func signature(_ row: ArraySlice<Cell>) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for cell in row {
                for byte in cell.text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
                h = (h ^ 0xff) &* 0x100_0000_01b3  // cell boundary
            }
            return h
        }
        let oldIDs = span.map { signature(old.cells(row: $0)) }
        let newIDs = span.map { signature(new.cells(row: $0)) }
        // No row's text changed in place: nothing moved, and the cell diff handles restyling.
        if oldIDs == newIDs { return nil }
        let n = span.count
        var best: ScrollShift?
        var bestGain = minimumGain - 1
        for k in 1..<n {
            for direction in [1, -1] {
                let shift = k * direction
                var runStart = -1, gain = 0
                // Walk the new rows whose source old row exists, closing runs at mismatches.
                let indices = direction > 0 ? 0..<(n - k) : k..<n
                for i in indices.lowerBound...indices.upperBound {
                    let matches = i < indices.upperBound && newIDs[i] == oldIDs[i + shift]
                    if matches {
                        if runStart < 0 { runStart = i; gain = 0 }
                        if newIDs[i] != oldIDs[i] { gain += 1 }
                    } else if runStart >= 0 {
                        if gain > bestGain {
                            bestGain = gain
                            // Up: old rows runStart ..< i + k; down: old rows runStart - k ..< i.
                            let lower = direction > 0 ? runStart : runStart - k
                            let upper = direction > 0 ? i + k : i
                            best = ScrollShift(region: (span.lowerBound + lower)..<(span.lowerBound + upper), amount: shift)
                        }
                        runStart = -1
                    }
                }
            }
        }
        return best
    }
}
