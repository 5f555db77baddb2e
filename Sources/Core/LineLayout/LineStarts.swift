/// Where each line (unit) of a text input starts, as `TextLineIndex` finds them.
///
/// Kept sampled where lines are short, as less keeps no index of them at all: 100 MB of
/// `y` lines are 52 million lines, and four bytes a line would be twice the input.
/// Lines are taken in groups of `groupSize`; each group keeps where its first line starts,
/// and either
/// - nothing more, when the group spans at most `sampledSpan` bytes and each of its lines
///   starts after a line end: the others are found again by scanning those bytes for LF
///   (`scan`: memchr over at most 32 KB; `TextContent` keeps the last group scanned, so
///   reading lines in order scans each group once), or
/// - each line's start (four bytes a line, relative to the group's first), when the group
///   is longer — scanning it would cost more than the index saves — or holds a piece of a
///   giant line, which starts where no LF is.
/// The group still being filled keeps its starts as they come. So the index costs about
/// 0.1 byte a line of short lines, and at most 4 bytes per line and 1/8,192 of the bytes
/// of long ones.
///
/// What grows with the input is kept in `ChunkedArray`s: a copy (a snapshot the pager holds)
/// shares all but their tails, so the next append does not copy the index whole.
struct LineStarts: Sendable {
    static let groupSize = 128
    static let sampledSpan = 32 * 1024

    /// The start of line `k` (`1..<groupSize`) of a sampled group whose first line starts
    /// at `from`: just after the `k`th LF at or after it (`TextLineIndex.scanLineEnds`, which
    /// says where the bytes of a file truncated under it end instead). An `Int` rather than
    /// the group's starts, so that a look-up through a memo copies and retains nothing.
    typealias Scan = (_ from: Int, _ k: Int) -> Int

    private(set) var count = 0
    /// Where each group's first line starts.
    private var bases = ChunkedArray<Int>()
    /// Per finished group: -1 when sampled, else its first entry in `relative`.
    private var slots = ChunkedArray<Int32>()
    /// The starts of the kept groups' lines, relative to their group's base, `groupSize` a
    /// group (UInt32.max: see `overflow`).
    private var relative = ChunkedArray<UInt32>()
    private var overflow: [Int: Int] = [:]
    /// The starts of the group being filled.
    private var open: [Int] = []
    /// The group being filled holds a start that follows no LF (a piece of a giant line).
    private var openKeepsStarts = false

    private var finishedGroups: Int { slots.count }

    /// Adds the start of the next line; `afterLineEnd` is false for a piece of a giant line.
    mutating func append(_ start: Int, afterLineEnd: Bool = true) {
        if open.count == Self.groupSize { finishGroup(nextStart: start) }
        if open.isEmpty { bases.append(start) }
        open.append(start)
        if !afterLineEnd && open.count > 1 { openKeepsStarts = true }
        count += 1
    }

    private mutating func finishGroup(nextStart: Int) {
        let base = open[0]
        if !openKeepsStarts && nextStart - base <= Self.sampledSpan {
            slots.append(-1)
        } else {
            let g = slots.count
            slots.append(Int32(relative.count / Self.groupSize))
            for (k, s) in open.enumerated() {
                let r = s - base
                if r < Int(UInt32.max) { relative.append(UInt32(r)) } else { relative.append(UInt32.max); overflow[g * Self.groupSize + k] = s }
            }
        }
        open.removeAll(keepingCapacity: true)
        openKeepsStarts = false
    }

    var last: Int { open.last ?? 0 }

    /// The start of line `i` (`0 <= i < count`).
    func start(_ i: Int, scan: Scan) -> Int {
        let g = i / Self.groupSize, k = i % Self.groupSize
        if g == finishedGroups { return open[k] }
        if k == 0 { return bases[g] }
        let slot = slots[g]
        if slot >= 0 {
            let r = relative[Int(slot) * Self.groupSize + k]
            return r == UInt32.max ? overflow[i]! : bases[g] + Int(r)
        }
        return scan(bases[g], k)
    }

    /// The lines of the sampled group holding line `i` and the bytes they span (nil when its
    /// starts are kept, or it is still being filled).
    func sampledGroup(holding i: Int) -> (lines: Range<Int>, bytes: Int)? {
        let g = i / Self.groupSize
        guard g < finishedGroups, slots[g] < 0 else { return nil }
        return ((g * Self.groupSize)..<((g + 1) * Self.groupSize), bases[g + 1] - bases[g])  // a finished group has a next
    }

    /// The last line among the first `lines` that starts at or before `offset` (0 when none).
    func line(startingAtOrBefore offset: Int, among lines: Int, scan: Scan) -> Int {
        guard lines > 1 else { return 0 }
        // The group: the last whose first line starts at or before the offset.
        var lo = 0, hi = (lines - 1) / Self.groupSize
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if bases[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var a = lo * Self.groupSize, b = min(lines, a + Self.groupSize) - 1
        while a < b {
            let mid = (a + b + 1) >> 1
            if start(mid, scan: scan) <= offset { a = mid } else { b = mid - 1 }
        }
        return a
    }

    /// Bytes held, for tests and the benchmark's account.
    var bytesHeld: Int {
        bases.bytesHeld + slots.bytesHeld + relative.bytesHeld + open.capacity * 8 + overflow.count * 16
    }
}
