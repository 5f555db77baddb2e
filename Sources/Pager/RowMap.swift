import LineLayout
import MarkdownModel
import Viewport

/// The rows the pager shows: the whole layout, or only some of its blocks (less's `&pattern`
/// filter). Every screen computation goes through here, so filtering is one concept.
public struct RowMap: RowSpace, Sendable {
    public let layout: DocumentLayout
    /// Indices (into `layout.blocks`) of the blocks shown, in order; nil = all.
    public let included: [Int]?
    /// For a filtered map: prefix sums of the included blocks' row counts.
    private let starts: [Int]
    public let rowCount: Int

    public init(layout: DocumentLayout, included: [Int]? = nil) {
        self.layout = layout
        self.included = included
        if let included {
            var starts: [Int] = []
            starts.reserveCapacity(included.count)
            var total = 0
            for i in included {
                starts.append(total)
                total += layout.blocks[i].lines.count
            }
            self.starts = starts
            self.rowCount = total
        } else {
            self.starts = []
            self.rowCount = layout.rowCount
        }
    }

    /// (block index in the layout, line index within that block) for a row of this map.
    public func locate(_ row: Int) -> (block: Int, line: Int) {
        guard let included else {
            let b = layout.blockIndex(atRow: row)
            return (b, row - layout.rows(of: layout.blocks[b].block).lowerBound)
        }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        return (included[lo], row - starts[lo])
    }

    public func line(at row: Int) -> VisualLine {
        guard included != nil else { return layout.line(at: row) }
        let (b, l) = locate(row)
        return layout.blocks[b].lines[l]
    }

    /// Rows of the layout's block at `blockIndex` in this map; empty when filtered out.
    public func rows(ofBlockIndex blockIndex: Int) -> Range<Int> {
        guard let included else { return layout.rows(of: layout.blocks[blockIndex].block) }
        var lo = 0, hi = included.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if included[mid] < blockIndex { lo = mid + 1 } else { hi = mid }
        }
        guard lo < included.count, included[lo] == blockIndex else {
            let at = lo < starts.count ? starts[lo] : rowCount
            return at..<at
        }
        return starts[lo]..<(starts[lo] + layout.blocks[blockIndex].lines.count)
    }

    /// Rows showing a content range of a block.
    public func rows(showing range: Range<Int>, inBlockIndex blockIndex: Int) -> Range<Int> {
        let blockRows = rows(ofBlockIndex: blockIndex)
        guard !blockRows.isEmpty else { return blockRows }
        let lines = layout.blocks[blockIndex].lines
        var first: Int?
        var last = 0
        for (i, line) in lines.enumerated() {
            let r = line.range
            let hit = r.isEmpty ? false : (r.lowerBound < range.upperBound && range.lowerBound < r.upperBound)
                || (range.isEmpty && r.contains(range.lowerBound))
            if hit {
                if first == nil { first = i }
                last = i
            }
        }
        guard let f = first else {
            // Nothing shows it (e.g. an empty match at the very end): the nearest content row.
            let target = lines.lastIndex { $0.range.lowerBound <= range.lowerBound && !$0.range.isEmpty } ?? 0
            return (blockRows.lowerBound + target)..<(blockRows.lowerBound + target + 1)
        }
        return (blockRows.lowerBound + f)..<(blockRows.lowerBound + last + 1)
    }

    public func anchor(atRow row: Int) -> Anchor {
        guard included != nil else { return layout.anchor(atRow: row) }
        let (b, l) = locate(row)
        let lines = layout.blocks[b].lines
        let offset = lines[l].range.lowerBound
        var ordinal = 0
        for i in 0..<l where lines[i].range.lowerBound == offset { ordinal += 1 }
        return Anchor(block: layout.blocks[b].block, offset: offset, ordinal: ordinal)
    }

    public func row(for anchor: Anchor) -> Int {
        guard included != nil else { return layout.row(for: anchor) }
        guard rowCount > 0 else { return 0 }
        let full = layout.row(for: anchor)
        let b = layout.blockIndex(atRow: min(full, max(0, layout.rowCount - 1)))
        let rows = rows(ofBlockIndex: b)
        if !rows.isEmpty {
            let blockStart = layout.rows(of: layout.blocks[b].block).lowerBound
            return rows.lowerBound + (full - blockStart)
        }
        // The anchor's block is filtered out: the next shown block.
        return min(rows.lowerBound, rowCount - 1)
    }
}
