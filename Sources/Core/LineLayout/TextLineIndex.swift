#if canImport(Glibc)
import Glibc
#endif

/// Where a text input's lines start, found as its bytes arrive: a value the edge owns and
/// advances (`advance(over:limit:inputEnded:)`), and from which it makes each immutable
/// `TextContent` it hands the pager. A copy is a snapshot: advancing the edge's value never
/// changes one the pager holds, and costs no copy of the whole index (`ChunkedArray`).
///
/// Units are only ever added at the end; a line is a unit once its LF has arrived, or at the
/// end of input. A line longer than `giantLineBytes` is several units (see there).
public struct TextLineIndex: Sendable {
    /// Snapshots of one index (none reset between them) share this: the units of the earlier
    /// are the first units of the later (`TextContent.sharesLines(with:)`).
    final class Lineage: Sendable {}

    private(set) var starts = LineStarts()
    /// Bytes scanned for line ends so far.
    public private(set) var indexedBytes = 0
    /// The input has ended and every byte of it is scanned: the last line is a unit even
    /// without its LF.
    public private(set) var isComplete = false
    /// Where the line being scanned starts (its first unit's start).
    private var lineStart = 0
    /// Units that go on with the line of the unit before (pieces of a giant line), ascending.
    private(set) var continuations = ChunkedArray<Int>()
    let lineage = Lineage()

    /// An index of no lines (a new input, or one started over).
    public init() {}

    /// Lines longer than this are cut into units of about `giantPieceBytes` (at a character
    /// that starts no escape sequence or overstrike, after a space where there is one): the
    /// pager lays out a unit at a time, and one unit of 10 MB at width 1 is 10 million rows
    /// held at once. The pieces of a line keep its number; a search match across a cut is
    /// not found, and a style set before a cut does not carry over it.
    static let giantLineBytes = 64 * 1024
    static let giantPieceBytes = 16 * 1024

    /// Bytes scanned for line starts between two takes of them (`advance`).
    static let indexWindowBytes = 1 << 20

    /// Units found so far.
    public var unitCount: Int {
        guard starts.count > 0 else { return 0 }
        // The last start opens a line whose LF has not arrived: a unit only at end of input
        // (or when it is empty after a final LF: no unit at all).
        if isComplete { return starts.last < indexedBytes ? starts.count : starts.count - 1 }
        return starts.count - 1
    }

    /// The last unit is a line whose LF has not arrived, a unit only because the input ended:
    /// bytes found after it later (a followed file that grew) are its own.
    public var endsInOpenLine: Bool { isComplete && starts.count > 0 && starts.last < indexedBytes }

    /// Finds line ends in up to `limit` more bytes of what `store` holds; returns how many
    /// bytes were scanned. `inputEnded` makes a last line without LF a unit.
    @discardableResult
    public mutating func advance(over store: any ByteSource, limit: Int = .max, inputEnded: Bool = false) -> Int {
        let available = store.count
        if starts.count == 0 && available > 0 { starts.append(0) }
        let from = indexedBytes
        let end = min(available, from &+ limit < from ? available : from + limit)
        // A window of 1 MB at a time, its line starts taken in before the next is scanned:
        // the starts of a whole slice (8 MB of `yes`: 4 million lines) held 32 MB at once.
        var found: [Int] = []
        var window = from
        while window < end {
            let windowEnd = min(end, window + Self.indexWindowBytes)
            found.removeAll(keepingCapacity: true)
            store.forEachPiece(in: window..<windowEnd) { piece, base in
                var p = piece.baseAddress!
                let stop = piece.baseAddress! + piece.count
                while p < stop, let hit = memchr(p, 0x0A, stop - p) {
                    found.append(base + (UnsafeRawPointer(hit) - piece.baseAddress!) + 1)
                    p = UnsafeRawPointer(hit) + 1
                }
                return true
            }
            window = windowEnd
            // The lines that ended in this window are in; the one still open is scanned on.
            for s in found {
                cutGiantLine(before: s, lineEnded: true, store)
                starts.append(s)
                lineStart = s
            }
        }
        // A line still arriving: pieces once it is giant, leaving room for the last to grow.
        cutGiantLine(before: end, lineEnded: inputEnded && end == available, store)
        indexedBytes = end
        if inputEnded && end == available { isComplete = true }
        return max(0, end - from)
    }

    /// Where line `u` starts (`scan` finds a sampled group's: `LineStarts.Scan`).
    func start(_ u: Int, scan: LineStarts.Scan) -> Int { starts.start(u, scan: scan) }

    /// Where the line after `u` starts, or where the bytes scanned end.
    func end(_ u: Int, scan: LineStarts.Scan) -> Int {
        u + 1 < starts.count ? start(u + 1, scan: scan) : indexedBytes
    }

    /// How many units up to and including `u` continue a line.
    func continuationsThrough(_ u: Int) -> Int {
        var lo = 0, hi = continuations.count
        while lo < hi { let m = (lo + hi) / 2; if continuations[m] <= u { lo = m + 1 } else { hi = m } }
        return lo
    }

    /// Bytes the index holds (for tests: short lines cost a fraction of a byte each).
    var bytesHeld: Int { starts.bytesHeld + continuations.bytesHeld }

    /// Cuts the line that started at `lineStart` into pieces up to `end` (its next line's
    /// start when `lineEnded`) if it is giant. The cuts depend only on the bytes, so a
    /// line cut as it arrives is cut where it would be cut whole.
    private mutating func cutGiantLine(before end: Int, lineEnded: Bool, _ store: any ByteSource) {
        guard starts.count > 0, end - lineStart > Self.giantLineBytes else { return }
        let margin = lineEnded ? Self.giantPieceBytes : 2 * Self.giantPieceBytes
        while end - starts.last > margin {
            let cut = Self.safeCut(near: starts.last + Self.giantPieceBytes, in: store)
            guard cut > starts.last, cut < end else { return }
            starts.append(cut, afterLineEnd: false)
            continuations.append(starts.count - 1)
        }
    }

    /// The offsets just after the first `count` LFs at or after `from`, among the first
    /// `scanned` bytes (`LineStarts.Scan`: a sampled group's lines, all within `sampledSpan`
    /// bytes). `complete` is false when the bytes could not all be read (a file truncated
    /// under it): the starts it could not find are then where the readable bytes end (those
    /// lines read as empty), and the scan is not kept.
    static func scanLineEnds(_ store: any ByteSource, from: Int, count: Int, scanned: Int) -> (starts: [Int], complete: Bool) {
        var found: [Int] = []
        found.reserveCapacity(count)
        var reached = from
        store.forEachPiece(in: from..<min(scanned, from + LineStarts.sampledSpan + 1)) { piece, base in
            var p = piece.baseAddress!
            let stop = piece.baseAddress! + piece.count
            while found.count < count, p < stop, let hit = memchr(p, 0x0A, stop - p) {
                found.append(base + (UnsafeRawPointer(hit) - piece.baseAddress!) + 1)
                p = UnsafeRawPointer(hit) + 1
            }
            reached = base + piece.count
            return found.count < count
        }
        let complete = found.count == count
        while found.count < count { found.append(max(found.last ?? from, reached)) }
        return (found, complete)
    }

    /// A byte offset at or shortly before `target` where a piece may start: after a space if
    /// one is near, else at a byte that starts a character, is no backspace (overstrike) and
    /// follows no recent ESC (an escape sequence).
    static func safeCut(near target: Int, in store: any ByteSource) -> Int {
        let look = 256
        let from = max(0, target - look - 64)
        let bytes = store.bytes(from..<(target + 1))
        func character(_ p: Int) -> Bool {  // p: index into `bytes`
            let b = bytes[p]
            return b & 0xC0 != 0x80 && b != 0x08 && p > 0 && bytes[p - 1] != 0x08
        }
        // Outside an escape sequence: the last ESC within 64 bytes (if any) has ended before p.
        func outsideEscape(_ p: Int) -> Bool {
            guard let e = bytes[max(0, p - 64)..<p].lastIndex(of: 0x1B) else { return true }
            guard e + 1 < p else { return false }
            switch bytes[e + 1] {
            case UInt8(ascii: "["):  // CSI: parameters, then a final byte 0x40...0x7E
                return bytes[(e + 2)..<p].contains { (0x40...0x7E).contains($0) }
            case UInt8(ascii: "]"):  // OSC: ends at BEL or ESC \
                return bytes[(e + 2)..<p].contains(0x07)
            default:
                return true  // ESC and one byte
            }
        }
        let last = bytes.count - 1
        let floor = max(1, last - look)
        var p = last
        while p > floor {
            if bytes[p - 1] == 0x20 && character(p) && outsideEscape(p) { return from + p }
            p -= 1
        }
        p = last
        while p > floor {
            if character(p) && outsideEscape(p) { return from + p }
            p -= 1
        }
        p = last
        while p > floor && !character(p) { p -= 1 }
        return from + p
    }
}
