import CellWidth
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Threads
import MarkdownModel
import Styling
import TextModel

/// A text document: each input line is one unit, shown as written (terminal styles decoded,
/// controls made visible), wrapped at the width between characters like less, or chopped.
///
/// The content grows as its input is read (`indexMore`): units are only ever added at the end;
/// a line is a unit once its LF has arrived, or at the end of input. Unit `u`'s id is
/// `BlockID(u)`, its source line `u + 1` (less the pieces of giant lines before it: see
/// `giantLineBytes`).
public final class TextContent: LayoutContent, Sendable {
    public var asText: TextContent? { self }
    public var asMarkdown: MarkdownContent? { nil }
    public let store: any ByteSource
    /// Tab stops every this many columns (less's `-x`): part of the text, which search matches.
    public let tabWidth: Int
    private let index = Locked(Index())

    /// The lines found so far, behind the lock.
    private struct Index {
        var starts = LineStarts()
        /// Bytes scanned for line ends so far.
        var scanned = 0
        var ended = false
        /// Where the line being scanned starts (its first unit's start).
        var lineStart = 0
        /// Units that go on with the line of the unit before (pieces of a giant line), ascending.
        var continuations: [Int] = []

        /// Where line `u` starts.
        mutating func start(_ u: Int, _ store: any ByteSource) -> Int {
            let scanned = scanned
            return starts.start(u) { TextContent.scanLineEnds(store, from: $0, count: $1, scanned: scanned) }
        }

        /// Where the line after `u` starts, or where the bytes scanned end.
        mutating func end(_ u: Int, _ store: any ByteSource) -> Int { u + 1 < starts.count ? start(u + 1, store) : scanned }

        var unitCount: Int {
            guard starts.count > 0 else { return 0 }
            // The last start opens a line whose LF has not arrived: a unit only at end of input
            // (or when it is empty after a final LF: no unit at all).
            if ended { return starts.last < scanned ? starts.count : starts.count - 1 }
            return starts.count - 1
        }

        /// How many units up to and including `u` continue a line.
        func continuationsThrough(_ u: Int) -> Int {
            var lo = 0, hi = continuations.count
            while lo < hi { let m = (lo + hi) / 2; if continuations[m] <= u { lo = m + 1 } else { hi = m } }
            return lo
        }

        /// Cuts the line that started at `lineStart` into pieces up to `end` (its next line's
        /// start when `lineEnded`) if it is giant. The cuts depend only on the bytes, so a
        /// line cut as it arrives is cut where it would be cut whole.
        mutating func cutGiantLine(before end: Int, lineEnded: Bool, _ store: any ByteSource) {
            guard starts.count > 0, end - lineStart > TextContent.giantLineBytes else { return }
            let margin = lineEnded ? TextContent.giantPieceBytes : 2 * TextContent.giantPieceBytes
            while end - starts.last > margin {
                let cut = TextContent.safeCut(near: starts.last + TextContent.giantPieceBytes, in: store)
                guard cut > starts.last, cut < end else { return }
                starts.append(cut, afterLineEnd: false)
                continuations.append(starts.count - 1)
            }
        }
    }

    /// Lines longer than this are cut into units of about `giantPieceBytes` (at a character
    /// that starts no escape sequence or overstrike, after a space where there is one): the
    /// pager lays out a unit at a time, and one unit of 10 MB at width 1 is 10 million rows
    /// held at once. The pieces of a line keep its number; a search match across a cut is
    /// not found, and a style set before a cut does not carry over it.
    static let giantLineBytes = 64 * 1024
    static let giantPieceBytes = 16 * 1024

    public init(store: any ByteSource, tabWidth: Int = 8) {
        self.store = store
        self.tabWidth = max(1, min(tabWidth, 64))
    }

    /// Bytes scanned for line starts between two takes of them (`indexMore`).
    static let indexWindowBytes = 1 << 20

    /// Finds line ends in up to `limit` more bytes of what the store holds; returns how many
    /// bytes were scanned. `inputEnded` makes a last line without LF a unit.
    @discardableResult
    public func indexMore(limit: Int = .max, inputEnded: Bool = false) -> Int {
        let available = store.count
        let from = index.withLock { index in
            if index.starts.count == 0 && available > 0 { index.starts.append(0) }
            return index.scanned
        }
        let end = min(available, from &+ limit < from ? available : from + limit)
        let store = store
        // The last window's lines and the end of the scan are taken in at once.
        func finish(_ index: inout Index) {
            // A line still arriving: pieces once it is giant, leaving room for the last to grow.
            index.cutGiantLine(before: end, lineEnded: inputEnded && end == available, store)
            index.scanned = end
            if inputEnded && end == available { index.ended = true }
        }
        guard from < end else {
            index.withLock(finish)
            return 0
        }
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
                    let at = base + (UnsafeRawPointer(hit) - piece.baseAddress!) + 1
                    found.append(at)
                    p = UnsafeRawPointer(hit) + 1
                }
                return true
            }
            window = windowEnd
            // The lines that ended in this window are in; the one still open is scanned on.
            index.withLock { index in
                for s in found {
                    index.cutGiantLine(before: s, lineEnded: true, store)
                    index.starts.append(s)
                    index.lineStart = s
                }
                if let last = found.last { index.scanned = last }
                if window >= end { finish(&index) }
            }
        }
        return end - from
    }

    /// The offsets just after the first `count` LFs at or after `from`, among the bytes
    /// scanned (`LineStarts.Scan`: a sampled group's lines, all within `sampledSpan` bytes).
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

    /// Bytes scanned for line ends.
    public var indexedBytes: Int { index.withLock { $0.scanned } }

    /// Bytes the line index holds (for tests: short lines cost a fraction of a byte each).
    var indexBytesHeld: Int { index.withLock { $0.starts.bytesHeld + $0.continuations.capacity * 8 } }

    /// Forgets all lines (the input started over).
    public func reset() { index.withLock { $0 = Index() } }

    // MARK: - LayoutContent

    public var unitCount: Int { index.withLock { $0.unitCount } }

    public var isComplete: Bool { index.withLock { $0.ended } }

    public func id(ofUnit u: Unit) -> BlockID { BlockID(u.index) }
    public func unit(of id: BlockID) -> Unit? { id.rawValue >= 0 && id.rawValue < unitCount ? Unit(id.rawValue) : nil }
    public func units(covering id: BlockID) -> Range<Unit>? { unit(of: id).map { $0..<($0 + 1) } }

    /// The bytes of line `u` without its line end (LF, or CR LF).
    public func lineBytes(_ u: Int) -> [UInt8] {
        let store = store
        let range = index.withLock { $0.start(u, store)..<$0.end(u, store) }
        var bytes = store.bytes(range)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes
    }

    /// Byte offset in the input where line `u` starts.
    public func startOffset(ofUnit u: Unit) -> Int {
        let store = store
        return index.withLock { $0.start(u.index, store) }
    }

    /// The line holding byte `offset` of the input, among the lines found so far (nil when
    /// the offset is not in one yet).
    public func unit(containingByte offset: Int) -> Unit? {
        let store = store
        return index.withLock { index in
            let units = index.unitCount
            guard units > 0, offset >= 0, offset < index.end(units - 1, store) else { return nil }
            let scanned = index.scanned
            return Unit(index.starts.line(startingAtOrBefore: offset, among: units) {
                TextContent.scanLineEnds(store, from: $0, count: $1, scanned: scanned)
            })
        }
    }

    /// Byte offsets where lines `start...` begin, followed by where the last of them ends:
    /// at most `maxUnits` lines, and no more than `maxBytes` bytes unless the first line alone
    /// is longer. Empty when `start` is not a line.
    func lineBounds(from start: Int, maxUnits: Int, maxBytes: Int) -> [Int] {
        let store = store
        return index.withLock { index in
            let units = index.unitCount
            guard start >= 0, start < units else { return [] }
            var bounds = [index.start(start, store)]
            var u = start
            while u < units && u - start < maxUnits {
                let end = index.end(u, store)
                if u > start && end - bounds[0] > maxBytes { break }
                bounds.append(end)
                u += 1
            }
            return bounds
        }
    }

    /// Byte length of line `u` (line end included).
    func byteLength(_ u: Int) -> Int {
        let store = store
        return index.withLock { $0.end(u, store) - $0.start(u, store) }
    }

    public func decoded(_ u: Int) -> StyledLine {
        TerminalTextDecoder.decode(lineBytes(u), tabWidth: tabWidth)
    }

    public func text(ofUnit u: Unit) -> String { decoded(u.index).text }

    public func estimatesAreExact(options: LayoutOptions) -> Bool { options.chopLongLines }

    public func estimatedRows(ofUnit u: Unit, options: LayoutOptions) -> Int {
        if options.chopLongLines { return 1 }
        return estimatedRows(of: u..<(u + 1), options: options)[0]
    }

    public func estimatedRows(of unitRange: Range<Unit>, options: LayoutOptions) -> [Int] {
        let units = unitRange.indexRange
        if options.chopLongLines { return [Int](repeating: 1, count: units.count) }
        let width = max(1, options.width)
        let store = store
        return index.withLock { index in
            var out = [Int]()
            out.reserveCapacity(units.count)
            var u = units.lowerBound
            while u < units.upperBound {
                if let group = index.starts.sampledGroup(holding: u) {
                    // Lines whose starts are not kept are estimated by their group's mean
                    // length: finding each one's would read the group's bytes again (the
                    // background count reads them anyway, and makes the counts exact).
                    let mean = group.bytes / group.lines.count
                    let end = min(units.upperBound, group.lines.upperBound)
                    out.append(contentsOf: repeatElement(max(1, (mean - 1 + width - 1) / width), count: end - u))
                    u = end
                } else {
                    out.append(max(1, (index.end(u, store) - index.start(u, store) - 1 + width - 1) / width))
                    u += 1
                }
            }
            return out
        }
    }

    public func sourceLines(ofUnit u: Unit) -> SourceLines {
        let line = sourceLine(ofUnit: u.index)
        return SourceLines(line, line)
    }

    func sourceLine(ofUnit u: Int) -> Int {
        index.withLock { $0.continuations.isEmpty ? u + 1 : u + 1 - $0.continuationsThrough(u) }
    }

    public var sourceLineCount: Int {
        index.withLock { index in
            let units = index.unitCount
            return units - (index.continuations.isEmpty ? 0 : index.continuationsThrough(units - 1))
        }
    }

    public func rowCounts(of unitRange: Range<Unit>, options: LayoutOptions) -> [Int] {
        let units = unitRange.indexRange
        if options.chopLongLines { return units.map { _ in 1 } }
        var counts: [Int] = []
        counts.reserveCapacity(units.count)
        var u = units.lowerBound
        while u < units.upperBound,
              let chunk = rowCountChunk(from: Unit(u), width: options.width, maxUnits: units.upperBound - u) {
            counts += chunk.counts
            u += chunk.count
        }
        return counts
    }

    public func layout(unit: Unit, options: LayoutOptions) -> BlockLayout {
        let u = unit.index
        return TextLineLayouter.layout(decoded(u), block: BlockID(u), sourceLine: sourceLine(ofUnit: u), width: options.width,
                                options: options)
    }

    /// Links written in line `u` (OSC 8), by position in its text. A line without an escape
    /// has none and is not decoded (Tab scans many lines for the next link).
    public func links(ofUnit u: Unit) -> [LinkTarget] {
        let bytes = lineBytes(u.index)
        guard bytes.contains(0x1B) else { return [] }
        return TerminalTextDecoder.decode(bytes, tabWidth: tabWidth).links
            .map { LinkTarget(destination: $0.url, range: $0.range) }
            .sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}

/// Rows of one decoded text line.
enum TextLineLayouter {
    static func layout(_ line: StyledLine, block: BlockID, sourceLine: Int, width: Int,
                       options: LayoutOptions) -> BlockLayout {
        let text = line.text
        let links = line.links.map { LinkTarget(destination: $0.url, range: $0.range) }
        var rows: [VisualLine] = []
        var utf8 = Array(text.utf8)
        if utf8.isEmpty {
            rows.append(VisualLine(spans: [], block: block, range: 0..<0, sourceLine: sourceLine, width: 0))
            return BlockLayout(block: block, text: text, links: links, lines: rows)
        }
        utf8.withUnsafeMutableBufferPointer { mbuf in
            let bytes = UnsafeBufferPointer(mbuf)
            if options.chopLongLines {
                // One row: the columns shift..<shift+width of the line.
                var cursor = GraphemeCursor(text, bytes)
                var col = 0, i = 0
                var start = -1, end = bytes.count, shown = 0
                while i < bytes.count {
                    let (length, w) = cursor.next(at: i)
                    if start < 0 {
                        if col >= options.horizontalShift { start = i }
                    }
                    if start >= 0 {
                        if shown + w > width { end = i; break }
                        shown += w
                    }
                    col += w
                    i += length
                }
                if start < 0 { start = bytes.count; end = bytes.count }
                rows.append(row(text, bytes, start..<end, width: shown, line: line, links: links, block: block,
                                sourceLine: sourceLine, overwide: false))
            } else {
                for w in Wrapper.hardWrap(text, bytes, from: 0, to: bytes.count, width: width, continuationWidth: width) {
                    rows.append(row(text, bytes, w.start..<w.end, width: w.width, line: line, links: links, block: block,
                                    sourceLine: sourceLine, overwide: w.overwide))
                }
            }
        }
        return BlockLayout(block: block, text: text, links: links, lines: rows)
    }

    /// A row showing `range` of the text, split into spans where the style or link changes.
    static func row(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, width: Int,
                    line: StyledLine, links: [LinkTarget], block: BlockID, sourceLine: Int, overwide: Bool) -> VisualLine {
        // Cut points: style run and link edges inside the range. Runs and links are sorted and
        // disjoint (StyledLine's invariants), so only those overlapping the row are visited: a
        // 1 MB line of a million runs (a binary file's controls) costs per row, not per line.
        let runs = overlapping(line.runs, range) { $0.range }
        let rowLinks = overlapping(links, range) { $0.range }
        var cuts: [Int] = [range.lowerBound, range.upperBound]
        for r in runs {
            cuts.append(max(r.range.lowerBound, range.lowerBound)); cuts.append(min(r.range.upperBound, range.upperBound))
        }
        for l in rowLinks {
            cuts.append(max(l.range.lowerBound, range.lowerBound)); cuts.append(min(l.range.upperBound, range.upperBound))
        }
        cuts = CharacterEdge.snappedUp(Array(Set(cuts)).sorted(), text, bytes)
        var spans: [Span] = []
        var total = 0
        for (a, b) in zip(cuts, cuts.dropFirst()) where a < b {
            var piece = String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
            var w = CellWidth.of(piece)
            if overwide && w > width {
                // Only the characters wider than the width (a zero-width one beside a wide one
                // made two U+FFFD, two columns at width 1).
                piece = narrowed(piece, to: width)
                w = CellWidth.of(piece)
            }
            let attributes = runs.first { $0.range.contains(a) }?.attributes
            let link = rowLinks.first { $0.range.contains(a) }?.destination
            spans.append(Span(text: piece, style: SpanStyle(role: .body, link: link, literal: attributes), width: w,
                              contentOffset: a))
            total += w
        }
        return VisualLine(spans: spans, block: block, range: range, sourceLine: sourceLine, width: min(total, width))
    }

    /// The elements of `sorted` (sorted, disjoint ranges) that overlap `range`.
    static func overlapping<T>(_ sorted: [T], _ range: Range<Int>, _ key: (T) -> Range<Int>) -> ArraySlice<T> {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if key(sorted[mid]).upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < sorted.count && key(sorted[end]).lowerBound < range.upperBound { end += 1 }
        return sorted[lo..<end]
    }
}
