import Dispatch
import MarkdownModel

/// The whole document laid out at one width: every leaf block's rows, with a row index.
///
/// Immutable once built. Row lookups are O(log blocks) (plus O(log rows of the block) inside
/// it); nothing here walks the whole document per call except `init`. Every API is total: rows
/// out of range are clamped, stale anchors map to the nearest row, and an empty document has
/// `rowCount == 0` (then `line(at:)` returns an empty line and row lookups return 0).
///
/// "Leaves" here are the blocks that get rows: leaf blocks, plus containers without children
/// (an empty list item `-` or quote `>` still shows its marker on a row of its own).
public final class DocumentLayout: Sendable {
    public let document: Document
    public let options: LayoutOptions
    /// Leaf blocks in document order, with their rows.
    public let blocks: [BlockLayout]
    /// `rowStarts[i]` is the first row of `blocks[i]`; `rowStarts.last` is `rowCount`.
    let rowStarts: [Int]
    /// For each block id, the number of laid-out blocks with a smaller id (count + 1 entries).
    let unitsBefore: [Int32]
    /// For each block id, the last id of its subtree (pre-order).
    let subtreeEnd: [Int32]

    /// Documents with at least this many leaves are laid out on several threads.
    static let parallelThreshold = 4096

    public convenience init(document: Document, options: LayoutOptions) {
        self.init(document: document, options: options, parallel: nil)
    }

    /// `parallel`: force (true) or forbid (false) laying blocks out on several threads; nil
    /// decides by size. Each block's layout is a pure function of the block, its containers and
    /// the options, so the result is the same either way.
    public init(document: Document, options: LayoutOptions, parallel: Bool?) {
        self.document = document
        self.options = options
        let n = document.blocks.count
        var unitsBefore = [Int32](repeating: 0, count: n + 1)
        var units: [BlockID] = []
        for b in document.blocks {
            unitsBefore[b.id.rawValue] = Int32(units.count)
            if Self.isUnit(b) { units.append(b.id) }
        }
        unitsBefore[n] = Int32(units.count)
        var subtreeEnd = [Int32](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let children = document.blocks[i].children
            subtreeEnd[i] = children.last.map { subtreeEnd[$0.rawValue] } ?? Int32(i)
        }
        let containers = Containers(document)
        let width = options.width
        let unitList = units
        @Sendable func layoutUnit(_ k: Int) -> BlockLayout {
            let id = unitList[k]
            let prefix = containers.prefix(of: id, width: width)
            let separator = k + 1 < unitList.count
                ? containers.separator(between: id, and: unitList[k + 1], width: width) : nil
            return BlockLayouter.layout(document.blocks[id.rawValue], prefix: prefix, separator: separator, options: options)
        }
        let count = units.count
        let blocks: [BlockLayout]
        if parallel ?? (count >= Self.parallelThreshold) {
            blocks = [BlockLayout](unsafeUninitializedCapacity: count) { buffer, initialized in
                let out = SendableBuffer(base: buffer.baseAddress!)
                let chunks = max(1, min(64, count / 256))
                DispatchQueue.concurrentPerform(iterations: chunks) { c in
                    for k in (c * count / chunks)..<((c + 1) * count / chunks) {
                        (out.base + k).initialize(to: layoutUnit(k))
                    }
                }
                initialized = count
            }
        } else {
            blocks = (0..<count).map(layoutUnit)
        }
        var rowStarts: [Int] = [0]
        rowStarts.reserveCapacity(count + 1)
        for layout in blocks { rowStarts.append(rowStarts[rowStarts.count - 1] + layout.lines.count) }
        self.blocks = blocks
        self.rowStarts = rowStarts
        self.unitsBefore = unitsBefore
        self.subtreeEnd = subtreeEnd
    }

    static func isUnit(_ b: Block) -> Bool {
        switch b.kind {
        case .document: return false
        case .blockQuote, .list, .item: return b.children.isEmpty
        default: return true
        }
    }

    public var width: Int { options.width }
    /// Total number of visual rows.
    public var rowCount: Int { rowStarts[rowStarts.count - 1] }

    /// The row `row` (clamped to the document); an empty line for an empty document.
    public func line(at row: Int) -> VisualLine {
        guard rowCount > 0 else {
            return VisualLine(spans: [], block: document.root, range: 0..<0, sourceLine: 1, width: 0)
        }
        let r = min(max(0, row), rowCount - 1)
        let b = blockIndex(atRow: r)
        return blocks[b].lines[r - rowStarts[b]]
    }

    /// Index into `blocks` of the block that owns `row` (clamped; 0 for an empty document).
    public func blockIndex(atRow row: Int) -> Int {
        guard rowCount > 0 else { return 0 }
        let r = min(max(0, row), rowCount - 1)
        // Last block whose first row is <= r (blocks always have at least one row).
        var lo = 0, hi = blocks.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if rowStarts[mid] <= r { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Index into `blocks` of a laid-out block, nil for container blocks (and unknown ids).
    public func blockIndex(of block: BlockID) -> Int? {
        let id = block.rawValue
        guard id >= 0, id < document.blocks.count, Self.isUnit(document.blocks[id]) else { return nil }
        return Int(unitsBefore[id])
    }

    /// Rows of `blocks[index]`.
    public func rows(ofBlockAt index: Int) -> Range<Int> {
        guard index >= 0, index < blocks.count else { return rowCount..<rowCount }
        return rowStarts[index]..<rowStarts[index + 1]
    }

    /// Rows of a block; for a container block, the rows of all its leaf descendants (with their
    /// separator rows). Empty (at the nearest row) for an unknown id.
    public func rows(of block: BlockID) -> Range<Int> {
        let id = block.rawValue
        guard id >= 0, id < document.blocks.count else { return rowCount..<rowCount }
        let first = Int(unitsBefore[id])
        let end = Int(unitsBefore[Int(subtreeEnd[id]) + 1])
        guard first < end else { let r = rowStarts[min(first, blocks.count)]; return r..<r }
        return rowStarts[first]..<rowStarts[end]
    }

    /// Rows that show any of `contentRange` of a leaf block. For an empty range, the row of the
    /// offset. For a container, its rows.
    public func rows(showing contentRange: Range<Int>, in block: BlockID) -> Range<Int> {
        guard let b = blockIndex(of: block) else { return rows(of: block) }
        let lines = blocks[b].lines
        let base = rowStarts[b]
        let lo = contentRange.lowerBound, hi = contentRange.upperBound
        if lo >= hi {
            let r = row(for: Anchor(block: block, offset: lo))
            return r..<(r + 1)
        }
        // Rows' lower bounds never decrease within a block.
        var start = firstLine(in: lines) { $0.range.lowerBound >= lo }
        if start > 0 && lines[start - 1].range.upperBound > lo { start -= 1 }
        while start < lines.count && lines[start].range.isEmpty && lines[start].range.lowerBound < hi
                && start + 1 < lines.count && lines[start + 1].range.lowerBound < hi { start += 1 }
        let end = firstLine(in: lines) { $0.range.lowerBound >= hi }
        if end <= start {
            let r = row(for: Anchor(block: block, offset: lo))
            return r..<(r + 1)
        }
        return (base + start)..<(base + end)
    }

    /// The position of `row`: its block, the offset of its first character and which of the
    /// block's rows starting at that offset it is.
    public func anchor(atRow row: Int) -> Anchor {
        guard rowCount > 0 else { return Anchor(block: document.root, offset: 0) }
        let r = min(max(0, row), rowCount - 1)
        let b = blockIndex(atRow: r)
        let lines = blocks[b].lines
        let k = r - rowStarts[b]
        let offset = lines[k].range.lowerBound
        var ordinal = 0
        var j = k - 1
        while j >= 0 && lines[j].range.lowerBound == offset { ordinal += 1; j -= 1 }
        return Anchor(block: blocks[b].block, offset: offset, ordinal: ordinal)
    }

    /// The row an anchor stands on at this width.
    ///
    /// Among rows starting exactly at the offset, the `ordinal`-th (clamped); otherwise the row
    /// whose content contains the offset (non-empty rows first); otherwise (the offset is a space
    /// dropped at a wrap) the row after it; past the end, the last content row. An anchor on a container goes to its first row; an unknown block to the nearest row.
    /// Law: `row(for: anchor(atRow: r)) == r`.
    public func row(for anchor: Anchor) -> Int {
        guard rowCount > 0 else { return 0 }
        let id = anchor.block.rawValue
        if id < 0 { return 0 }
        if id >= document.blocks.count { return rowCount - 1 }
        guard let b = blockIndex(of: anchor.block) else {
            return min(rows(of: anchor.block).lowerBound, rowCount - 1)
        }
        let lines = blocks[b].lines
        let base = rowStarts[b]
        let offset = anchor.offset
        let a = firstLine(in: lines) { $0.range.lowerBound >= offset }
        if a < lines.count && lines[a].range.lowerBound == offset {
            var e = a
            while e + 1 < lines.count && lines[e + 1].range.lowerBound == offset { e += 1 }
            return base + min(a + max(0, anchor.ordinal), e)
        }
        if a == 0 { return base }
        // Rows before `a` start before the offset: among those starting where the row before
        // `a` starts (the lines of a table row share one range), the one with a span showing
        // the offset, else the last non-empty one containing it.
        var j = a - 1
        let startOfRun = lines[j].range.lowerBound
        var containing = -1
        while j >= 0 && lines[j].range.lowerBound == startOfRun {
            if !lines[j].range.isEmpty && lines[j].range.contains(offset) {
                if containing < 0 { containing = j }
                for span in lines[j].spans {
                    if let o = span.contentOffset, o <= offset, offset < o + span.text.utf8.count { return base + j }
                }
            }
            j -= 1
        }
        if containing >= 0 { return base + containing }
        // Otherwise the offset is in a gap (the spaces at a wrap): the row that starts after
        // it; or past the end: the last content row.
        if a < lines.count && !lines[a].range.isEmpty { return base + a }
        j = a - 1
        while j > 0 && lines[j].range.isEmpty { j -= 1 }
        if lines[j].range.isEmpty { j = a - 1 }
        return base + j
    }

    /// First row showing source line `line` (or the nearest line after it); the last row when
    /// the line is past the end.
    public func row(forSourceLine line: Int) -> Int {
        guard rowCount > 0 else { return 0 }
        // First block whose last source line is >= line.
        var lo = 0, hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if document[blocks[mid].block].source.last < line { lo = mid + 1 } else { hi = mid }
        }
        guard lo < blocks.count else { return rowCount - 1 }
        let lines = blocks[lo].lines
        let k = firstLine(in: lines) { $0.sourceLine >= line }
        return k < lines.count ? rowStarts[lo] + k : min(rowStarts[lo + 1], rowCount - 1)
    }

    /// Binary search: first index whose line satisfies a predicate that is monotone over lines.
    private func firstLine(in lines: [VisualLine], where predicate: (VisualLine) -> Bool) -> Int {
        var lo = 0, hi = lines.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if predicate(lines[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

/// A buffer written by several threads at disjoint indices.
private struct SendableBuffer<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}
