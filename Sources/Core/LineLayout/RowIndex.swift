/// The number of rows of each unit of a document at one width (a unit is a Markdown leaf
/// block or a text line), with prefix sums for row ↔ unit look-ups. The row space the pager
/// scrolls through is built on it.
///
/// Compact, because a 1 GB log has ten million lines: one byte per unit (a 7-bit count, 127
/// meaning "see `large`", and a flag that the count is exact) — kept once for a group of
/// `groupSize` units that all hold the same byte (`GroupedBytes`: a text's short lines) —
/// plus one sum per group in a Fenwick tree. Look-ups cost O(log groups + groupSize).
///
/// Counts may be *estimates*: a unit not laid out at this width yet (after a resize, or
/// before the background layout reached it) has a guessed count, replaced when it is laid
/// out. Positions are anchors, not rows, so a correction never moves the view; it only
/// moves row numbers after the unit.
///
/// A unit can be *hidden* (less's `&pattern` filter): it then has no rows at all.
///
/// ```
/// units   │ 0 │ 1 │ 2 │ … │63 ║64 │65 │ …
/// counts  │ 3 │ 1 │ 1 │ … │ 2 ║ 1 │ 4 │ …      rows of unit u = visible ? count : 0
/// groups  └──── group 0 ─────┘╚══ group 1 …     Fenwick over group sums
/// ```
public struct RowIndex: Sendable, Equatable {
    public static let groupSize = 64
    private static let exactBit: UInt8 = 0x80
    private static let largeMark: UInt8 = 0x7F

    private var counts = GroupedBytes()
    /// Counts of 127 rows or more, by unit.
    private var large: [Int: Int] = [:]
    /// Hidden units as a bit set; empty = none hidden.
    private var hiddenBits: [UInt64] = []
    /// 1-based Fenwick tree over the groups' visible row sums; `fenwick[0]` is unused.
    private var fenwick: [Int] = [0]
    /// Visible rows in all.
    public private(set) var rowCount = 0
    /// Units whose count is an estimate.
    public private(set) var estimatedUnits = 0

    public init() {}

    /// Every unit counted exactly once (for tests and small documents).
    public init(counts: [Int]) {
        counts.forEach { append(count: $0, exact: true) }
    }

    public var unitCount: Int { counts.count }
    public var isExact: Bool { estimatedUnits == 0 }
    public var hasHiddenUnits: Bool { !hiddenBits.isEmpty }
    private var groupCount: Int { fenwick.count - 1 }

    // MARK: - Reading

    /// The unit's count, whether or not it is hidden.
    public func count(ofUnit unit: Unit) -> Int { count(ofUnit: unit.index) }

    private func count(ofUnit u: Int) -> Int {
        let byte = counts[u] & ~Self.exactBit
        return byte == Self.largeMark ? large[u, default: 0] : Int(byte)
    }

    public func isExact(unit: Unit) -> Bool { isExact(unit: unit.index) }
    private func isExact(unit u: Int) -> Bool { counts[u] & Self.exactBit != 0 }

    public func isHidden(unit: Unit) -> Bool { isHidden(unit: unit.index) }
    private func isHidden(unit u: Int) -> Bool {
        let word = u >> 6
        return word < hiddenBits.count && hiddenBits[word] & (1 << UInt64(u & 63)) != 0
    }

    /// The first unit at or after `u` that is not hidden (nil: none), found 64 units a word.
    public func nextShown(from unit: Unit) -> Unit? {
        var u = max(0, unit.index)
        while u < unitCount {
            let word = u >> 6
            guard word < hiddenBits.count else { return Unit(u) }
            let shown = ~hiddenBits[word] >> UInt64(u & 63)
            if shown != 0 {
                let next = u + shown.trailingZeroBitCount
                return next < unitCount ? Unit(next) : nil
            }
            u = (word + 1) << 6
        }
        return nil
    }

    /// The last unit before `u` that is not hidden (nil: none).
    public func previousShown(before unit: Unit) -> Unit? {
        var u = min(unit.index, unitCount) - 1
        while u >= 0 {
            let word = u >> 6
            guard word < hiddenBits.count else { return Unit(u) }
            let shown = ~hiddenBits[word] << UInt64(63 - (u & 63))
            if shown != 0 { return Unit(u - shown.leadingZeroBitCount) }
            u = (word << 6) - 1
        }
        return nil
    }

    /// Rows the unit shows: its count, 0 when hidden.
    public func visibleCount(ofUnit unit: Unit) -> Int { visibleCount(ofUnit: unit.index) }

    private func visibleCount(ofUnit u: Int) -> Int {
        u < 0 || u >= unitCount || isHidden(unit: u) ? 0 : count(ofUnit: u)
    }

    /// First row of unit `u` (`rowCount` for `u == unitCount`).
    public func firstRow(ofUnit unit: Unit) -> Row { Row(firstRow(ofUnit: unit.index)) }

    private func firstRow(ofUnit u: Int) -> Int {
        precondition(u >= 0 && u <= unitCount, "unit out of range")
        let g = u / Self.groupSize
        return prefix(groups: g) + visibleSum(units: (g * Self.groupSize)..<u)
    }

    /// Visible rows of a run of units (within one group: the inner loop of every look-up).
    private func visibleSum(units range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        var sum = 0
        if let byte = counts.uniformByte(ofGroup: range.lowerBound / Self.groupSize).map({ $0 & ~Self.exactBit }),
           byte != Self.largeMark {
            sum = Int(byte) * range.count
        } else {
            for k in range { sum += count(ofUnit: k) }
        }
        guard !hiddenBits.isEmpty else { return sum }
        for k in range where isHidden(unit: k) { sum -= count(ofUnit: k) }
        return sum
    }

    /// The rows of unit `u`; empty (where it would stand) when hidden.
    public func rows(ofUnit unit: Unit) -> Range<Row> {
        let first = firstRow(ofUnit: unit.index)
        return Row(first)..<Row(first + visibleCount(ofUnit: unit.index))
    }

    /// The unit showing `row` and the row's place among the unit's lines (an index into them,
    /// not a row of the document). `row` is clamped to the rows there are; nil when there are
    /// none.
    public func unit(atRow row: Row) -> (unit: Unit, line: Int)? {
        guard rowCount > 0 else { return nil }
        let r = min(max(0, row.index), rowCount - 1)
        // Fenwick descent: the last group g whose first row is <= r.
        var g = 0, before = 0
        var step = 1
        while step * 2 <= groupCount { step *= 2 }
        while step > 0 {
            let next = g + step
            if next <= groupCount && before + fenwick[next] <= r {
                g = next
                before += fenwick[next]
            }
            step /= 2
        }
        // Groups 0..<g hold `before` rows; the row is in group g.
        var u = g * Self.groupSize
        var at = before
        if hiddenBits.isEmpty, g < counts.groupCount,
           let byte = counts.uniformByte(ofGroup: g).map({ $0 & ~Self.exactBit }), byte != Self.largeMark, byte > 0 {
            // Every unit of the group has `byte` rows: no walk.
            let k = (r - at) / Int(byte)
            if u + k < unitCount { return (Unit(u + k), (r - at) % Int(byte)) }
            preconditionFailure("row index sums disagree")
        }
        let noneHidden = hiddenBits.isEmpty
        while u < unitCount {
            var n = count(ofUnit: u)
            if !noneHidden && isHidden(unit: u) { n = 0 }
            if r < at + n { return (Unit(u), r - at) }
            at += n
            u += 1
        }
        preconditionFailure("row index sums disagree")
    }

    /// The first visible unit at or after `u` (nil when none).
    public func visibleUnit(atOrAfter unit: Unit) -> Unit? {
        let u = unit.index
        guard hasHiddenUnits else { return u < unitCount ? Unit(max(0, u)) : nil }
        var k = max(0, u)
        while k < unitCount {
            if !isHidden(unit: k) { return Unit(k) }
            k += 1
        }
        return nil
    }

    // MARK: - Changing

    /// Adds a unit at the end.
    public mutating func append(count: Int, exact: Bool) {
        let u = counts.count
        counts.append(encode(count, exact: exact, unit: u))
        if !exact { estimatedUnits += 1 }
        let g = u / Self.groupSize
        if g == groupCount {
            appendGroup()
        }
        add(count, toGroup: g)
    }

    /// Adds units at the end, one per count: `append(count:exact:)` for each, with one tree
    /// update per group instead of one per unit.
    public mutating func append(counts new: [Int], exact: Bool) {
        var k = 0
        while k < new.count {
            let u = counts.count
            let g = u / Self.groupSize
            if g == groupCount { appendGroup() }
            let n = min(new.count - k, (g + 1) * Self.groupSize - u)
            var sum = 0
            for j in k..<(k + n) {
                let c = max(0, new[j])
                counts.append(encode(c, exact: exact, unit: counts.count))
                sum += c
            }
            counts.settle(group: g)
            if !exact { estimatedUnits += n }
            add(sum, toGroup: g)
            k += n
        }
    }

    /// Sets the count of unit `u` (a layout replaced an estimate, or a new width's count).
    public mutating func setCount(_ count: Int, exact: Bool, ofUnit unit: Unit) {
        let u = unit.index
        let old = self.count(ofUnit: u)
        let wasExact = isExact(unit: u)
        store(count, exact: exact, unit: u)
        counts.settle(group: u / Self.groupSize)
        if wasExact != exact { estimatedUnits += exact ? -1 : 1 }
        if !isHidden(unit: u), old != count { add(count - old, toGroup: u / Self.groupSize) }
    }

    /// Sets exact counts for units `first..<first + n` at once (`rows(k)` for unit
    /// `first + k`), units past the end ignored: one tree update per group, not per unit,
    /// so the background pass's chunks of thousands of lines apply in microseconds.
    public mutating func setExactCounts(from first: Unit, count n: Int, _ rows: (Int) -> Int) {
        let start = first.index
        let end = min(unitCount, start + n)
        guard start >= 0, start < end else { return }
        var u = start
        while u < end {
            let g = u / Self.groupSize
            let groupEnd = min(end, (g + 1) * Self.groupSize)
            var delta = 0
            while u < groupEnd {
                let new = max(0, rows(u - start))
                let old = count(ofUnit: u)
                if !isExact(unit: u) { estimatedUnits -= 1 }
                store(new, exact: true, unit: u)
                if old != new && !isHidden(unit: u) { delta += new - old }
                u += 1
            }
            counts.settle(group: g)
            if delta != 0 { add(delta, toGroup: g) }
        }
    }

    /// Marks every count as an estimate (the width changed: they are the old width's).
    public mutating func markAllEstimated() {
        counts.formAnd(~Self.exactBit)
        estimatedUnits = counts.count
    }

    /// Keeps the first `n` units (the open tail of a growing document is replaced).
    public mutating func truncate(to n: Int) {
        guard n < unitCount else { return }
        let keep = max(0, n)
        let lastGroup = keep == 0 ? -1 : (keep - 1) / Self.groupSize
        // Rows the kept part of the last kept group loses.
        var removedFromLast = 0
        if lastGroup >= 0 {
            for u in keep..<min(unitCount, (lastGroup + 1) * Self.groupSize) { removedFromLast += visibleCount(ofUnit: u) }
        }
        var removedAfter = 0
        if lastGroup + 1 < groupCount {
            removedAfter = prefix(groups: groupCount) - prefix(groups: lastGroup + 1)
        }
        for u in keep..<unitCount {
            if !isExact(unit: u) { estimatedUnits -= 1 }
            if counts[u] & ~Self.exactBit == Self.largeMark { large[u] = nil }
        }
        counts.removeLast(unitCount - keep)
        let words = (keep + 63) / 64
        if hiddenBits.count > words { hiddenBits.removeLast(hiddenBits.count - words) }
        if !hiddenBits.isEmpty, keep & 63 != 0 {
            hiddenBits[words - 1] &= (1 << UInt64(keep & 63)) - 1
        }
        if hiddenBits.allSatisfy({ $0 == 0 }) { hiddenBits = [] }
        fenwick.removeLast(groupCount - (lastGroup + 1))
        if lastGroup >= 0, removedFromLast > 0 { add(-removedFromLast, toGroup: lastGroup) }
        rowCount -= removedAfter
    }

    /// Hides the units not in `shown` (sorted), or shows all (nil).
    public mutating func setShown(_ shown: [Unit]?) {
        hiddenBits = []
        if let shown {
            hiddenBits = [UInt64](repeating: ~0, count: (unitCount + 63) / 64)
            for unit in shown where unit.index >= 0 && unit.index < unitCount {
                let u = unit.index
                hiddenBits[u >> 6] &= ~(1 << UInt64(u & 63))
            }
            if unitCount & 63 != 0, !hiddenBits.isEmpty {
                hiddenBits[hiddenBits.count - 1] &= (1 << UInt64(unitCount & 63)) - 1
            }
        }
        rebuildSums()
    }

    /// Hides or shows one unit (a filter extended to units that arrived later).
    public mutating func setHidden(_ hidden: Bool, unit: Unit) {
        let u = unit.index
        guard isHidden(unit: u) != hidden else { return }
        let word = u >> 6
        if hiddenBits.count <= word { hiddenBits += [UInt64](repeating: 0, count: word + 1 - hiddenBits.count) }
        if hidden { hiddenBits[word] |= 1 << UInt64(u & 63) } else { hiddenBits[word] &= ~(1 << UInt64(u & 63)) }
        let n = count(ofUnit: u)
        if n != 0 { add(hidden ? -n : n, toGroup: u / Self.groupSize) }
    }

    // MARK: - Private

    private mutating func store(_ count: Int, exact: Bool, unit u: Int) {
        if counts[u] & ~Self.exactBit == Self.largeMark { large[u] = nil }
        counts[u] = encode(count, exact: exact, unit: u)
    }

    /// The byte for `count` rows of unit `u` (a large count goes into `large`).
    private mutating func encode(_ count: Int, exact: Bool, unit u: Int) -> UInt8 {
        let n = max(0, count)
        var byte: UInt8
        if n >= Int(Self.largeMark) {
            large[u] = n
            byte = Self.largeMark
        } else {
            byte = UInt8(n)
        }
        return exact ? byte | Self.exactBit : byte
    }

    /// Bytes the counts and sums hold (for tests: a text's short lines cost no byte each).
    var bytesHeld: Int { counts.bytesHeld + fenwick.capacity * 8 + hiddenBits.capacity * 8 + large.count * 16 }

    /// Rows in groups 0..<g.
    private func prefix(groups g: Int) -> Int {
        var i = g, sum = 0
        while i > 0 {
            sum += fenwick[i]
            i &= i - 1
        }
        return sum
    }

    private mutating func add(_ delta: Int, toGroup g: Int) {
        rowCount += delta
        var i = g + 1
        while i <= groupCount {
            fenwick[i] += delta
            i += i & -i
        }
    }

    /// A new, empty group at the end: its node covers groups (i − lowbit(i), i].
    private mutating func appendGroup() {
        let i = groupCount + 1
        let low = i & -i
        let covered = prefix(groups: i - 1) - prefix(groups: i - low)
        fenwick.append(covered)
    }

    private mutating func rebuildSums() {
        let groups = (unitCount + Self.groupSize - 1) / Self.groupSize
        var sums = [Int](repeating: 0, count: groups + 1)
        var total = 0
        for u in 0..<unitCount {
            let n = visibleCount(ofUnit: u)
            sums[u / Self.groupSize + 1] += n
            total += n
        }
        // In-place Fenwick construction: each node passes its sum to its parent.
        for i in 1...max(1, groups) where i <= groups {
            let parent = i + (i & -i)
            if parent <= groups { sums[parent] += sums[i] }
        }
        fenwick = sums
        rowCount = total
    }
}
