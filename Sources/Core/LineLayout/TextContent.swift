import CellWidth
#if canImport(Glibc)
import Glibc
#endif
import MarkdownModel
import Synchronization
import Styling
import TextModel

/// A text document: each input line is one unit, shown as written (terminal styles decoded,
/// controls made visible), wrapped at the width between characters like less, or chopped.
///
/// An immutable snapshot: the store's bytes and the lines found in them so far (a
/// `TextLineIndex`, which the edge advances and makes a new snapshot of each time it holds
/// more lines or the end; a growing input reaches the pager as a series of these, each with
/// the same first units as the one before). Unit `u`'s id is `BlockID(u)`, its source line
/// `u + 1` (less the pieces of giant lines before it: see `TextLineIndex.giantLineBytes`).
///
/// The one thing that changes inside is a memo of the last sampled group of lines scanned
/// (`LineStarts`), so that reading lines in order scans each group once; it changes no
/// answer.
public final class TextContent: LayoutContent, Sendable {
    public var asText: TextContent? { self }
    public var asMarkdown: MarkdownContent? { nil }
    public let store: any ByteSource
    /// Tab stops every this many columns (less's `-x`): part of the text, which search matches.
    public let tabWidth: Int
    /// The lines of this snapshot.
    public let lines: TextLineIndex
    /// The last sampled group scanned: where it starts, and its other lines' starts.
    private let scanned = Mutex<(from: Int, starts: [Int])>((-1, []))

    /// The lines of `lines` over `store` (`lines` found in `store`'s bytes).
    public init(store: any ByteSource, lines: TextLineIndex = TextLineIndex(), tabWidth: Int = 8) {
        self.store = store
        self.lines = lines
        self.tabWidth = max(1, min(tabWidth, 64))
    }

    /// All of `store`'s lines, its input ended (print mode, a test's text).
    public static func whole(_ store: any ByteSource, tabWidth: Int = 8) -> TextContent {
        var lines = TextLineIndex()
        lines.advance(over: store, inputEnded: true)
        return TextContent(store: store, lines: lines, tabWidth: tabWidth)
    }

    /// Whether `other` is a snapshot of the same index, none reset between them: the units of
    /// the one with fewer are the first units of the other.
    public func sharesLines(with other: TextContent) -> Bool {
        lines.lineage === other.lines.lineage
    }

    /// The start of a sampled group's line (`LineStarts.Scan`), from the memo when the group
    /// is the last one scanned. A scan cut short (a file truncated under it) is not kept.
    private func scanGroup(from: Int, k: Int) -> Int {
        if let start = scanned.withLock({ $0.from == from ? $0.starts[k - 1] : nil }) { return start }
        let found = TextLineIndex.scanLineEnds(store, from: from, count: LineStarts.groupSize - 1, scanned: lines.indexedBytes)
        if found.complete { scanned.withLock { $0 = (from, found.starts) } }
        return found.starts[k - 1]
    }

    private func start(_ u: Int) -> Int { lines.start(u, scan: scanGroup) }
    private func end(_ u: Int) -> Int { lines.end(u, scan: scanGroup) }

    /// Bytes scanned for line ends.
    public var indexedBytes: Int { lines.indexedBytes }

    /// Bytes the line index holds (for tests: short lines cost a fraction of a byte each).
    var indexBytesHeld: Int { lines.bytesHeld }

    // MARK: - LayoutContent

    public var unitCount: Int { lines.unitCount }

    public var isComplete: Bool { lines.isComplete }

    public func id(ofUnit u: Unit) -> BlockID { BlockID(u.index) }
    public func unit(of id: BlockID) -> Unit? { id.rawValue >= 0 && id.rawValue < unitCount ? Unit(id.rawValue) : nil }
    public func units(covering id: BlockID) -> Range<Unit>? { unit(of: id).map { $0..<($0 + 1) } }

    /// The bytes of line `u` without its line end (LF, or CR LF).
    public func lineBytes(_ u: Int) -> [UInt8] {
        var bytes = store.bytes(start(u)..<end(u))
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes
    }

    /// Byte offset in the input where line `u` starts.
    public func startOffset(ofUnit u: Unit) -> Int { start(u.index) }

    /// The line holding byte `offset` of the input, among the lines found so far (nil when
    /// the offset is not in one yet).
    public func unit(containingByte offset: Int) -> Unit? {
        let units = unitCount
        guard units > 0, offset >= 0, offset < end(units - 1) else { return nil }
        return Unit(lines.starts.line(startingAtOrBefore: offset, among: units, scan: scanGroup))
    }

    /// Byte offsets where lines `start...` begin, followed by where the last of them ends:
    /// at most `maxUnits` lines, and no more than `maxBytes` bytes unless the first line alone
    /// is longer. Empty when `start` is not a line.
    func lineBounds(from start: Int, maxUnits: Int, maxBytes: Int) -> [Int] {
        let units = unitCount
        guard start >= 0, start < units else { return [] }
        var inOrder = InOrder(content: self)
        var bounds = [inOrder.start(start)]
        var u = start
        while u < units && u - start < maxUnits {
            let end = inOrder.end(u)
            if u > start && end - bounds[0] > maxBytes { break }
            bounds.append(end)
            u += 1
        }
        return bounds
    }

    /// Line look-ups in order (`lineBounds`, which the background count calls on a thread of
    /// its own): each sampled group is scanned once and kept here, with no lock per line.
    private struct InOrder {
        let content: TextContent
        var group = -1
        var starts: [Int] = []

        mutating func start(_ u: Int) -> Int {
            content.lines.start(u) { from, k in
                if group != from {
                    group = from
                    starts = TextLineIndex.scanLineEnds(content.store, from: from, count: LineStarts.groupSize - 1,
                                                        scanned: content.lines.indexedBytes).starts
                }
                return starts[k - 1]
            }
        }

        mutating func end(_ u: Int) -> Int {
            u + 1 < content.lines.starts.count ? start(u + 1) : content.lines.indexedBytes
        }
    }

    /// Byte length of line `u` (line end included).
    func byteLength(_ u: Int) -> Int { end(u) - start(u) }

    public func decoded(_ u: Int) -> StyledLine {
        TerminalTextDecoder.decode(lineBytes(u), tabWidth: tabWidth)
    }

    public func text(ofUnit u: Unit) -> String { decoded(u.index).text }

    /// What search reads. A line of printable ASCII alone (most lines of a log) is its own
    /// content text, read as it is: the decoder changes only escapes, controls, tabs,
    /// overstrike and bytes that are not UTF-8, none of which such a line holds. Other lines
    /// are decoded (`text(ofUnit:)`).
    public func withText<R>(ofUnit u: Unit, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let bytes = lineBytes(u.index)
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return bytes.withUnsafeBufferPointer(body) }
        var text = text(ofUnit: u)
        return text.withUTF8(body)
    }

    public func estimatesAreExact(options: LayoutOptions) -> Bool { options.chopLongLines }

    public func estimatedRows(ofUnit u: Unit, options: LayoutOptions) -> Int {
        if options.chopLongLines { return 1 }
        return estimatedRows(of: u..<(u + 1), options: options)[0]
    }

    public func estimatedRows(of unitRange: Range<Unit>, options: LayoutOptions) -> [Int] {
        let units = unitRange.indexRange
        if options.chopLongLines { return [Int](repeating: 1, count: units.count) }
        let width = max(1, options.width)
        var out = [Int]()
        out.reserveCapacity(units.count)
        var u = units.lowerBound
        while u < units.upperBound {
            if let group = lines.starts.sampledGroup(holding: u) {
                // Lines whose starts are not kept are estimated by their group's mean
                // length: finding each one's would read the group's bytes again (the
                // background count reads them anyway, and makes the counts exact).
                let mean = group.bytes / group.lines.count
                let end = min(units.upperBound, group.lines.upperBound)
                out.append(contentsOf: repeatElement(max(1, (mean - 1 + width - 1) / width), count: end - u))
                u = end
            } else {
                out.append(max(1, (end(u) - start(u) - 1 + width - 1) / width))
                u += 1
            }
        }
        return out
    }

    public func sourceLines(ofUnit u: Unit) -> SourceLines {
        let line = sourceLine(ofUnit: u.index)
        return SourceLines(line, line)
    }

    func sourceLine(ofUnit u: Int) -> Int {
        lines.continuations.isEmpty ? u + 1 : u + 1 - lines.continuationsThrough(u)
    }

    public var sourceLineCount: Int {
        let units = unitCount
        return units - (lines.continuations.isEmpty ? 0 : lines.continuationsThrough(units - 1))
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
