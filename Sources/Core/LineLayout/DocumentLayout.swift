import Threads
import Synchronization
import MarkdownModel

/// A document laid out at one width, lazily: row counts for every unit (`RowIndex`), rows
/// only for the units the reader looks at. This is the one row space the pager scrolls
/// through; less's `&` filter hides units in it.
///
/// A screen is drawn from the units it shows, so nothing here walks the whole document per
/// key. Counts of units not laid out at this width yet may be estimates (after a resize,
/// or while the background layout catches up); `prepare` lays out the units around a
/// place and makes their counts exact, and the pager prepares around the view after every
/// change. Row look-ups on units that were not prepared still answer consistently with the
/// index (a unit shows exactly as many rows as the index gives it), so nothing breaks when a
/// caller forgets; it only costs a layout.
///
/// Every API is total: rows out of range are clamped, stale anchors map to the nearest row,
/// and an empty document has `rowCount == 0` (then `line(at:)` returns an empty line and row
/// look-ups return 0).
public struct DocumentLayout: Sendable {
    public private(set) var content: any LayoutContent
    public let options: LayoutOptions
    public private(set) var index: RowIndex
    /// Units laid out at `options`, the most recently prepared last.
    private var laidOut: [Unit: BlockLayout] = [:]
    private var recent: [Unit] = []
    private var laidOutRows = 0
    /// Rows held laid out (the cache of units around the view; for tests).
    var laidOutRowCount: Int { laidOutRows }
    /// The last unit laid out by a non-mutating look-up (shared by copies of this value, all at
    /// the same options), so walking a unit row by row lays it out once, not once per row.
    private let lastLookup = LastUnitMemo()
    /// Rows of laid-out units kept (a few screens of the largest terminal, and then some).
    static let cacheRows = 16_384

    /// A layout of `content` whose unit counts are given (exact), or estimated when nil.
    public init(content: any LayoutContent, options: LayoutOptions, rowCounts: [Int]? = nil) {
        self.content = content
        self.options = options
        var index = RowIndex()
        if let rowCounts {
            precondition(rowCounts.count == content.unitCount, "one count per unit")
            for n in rowCounts { index.append(count: n, exact: true) }
        } else {
            DocumentLayout.appendEstimates(to: &index, content: content, units: content.unitRange, options: options)
        }
        self.index = index
    }

    /// A Markdown document laid out whole (every count exact): tests, `-F`, small documents.
    public init(document: Document, options: LayoutOptions, parallel: Bool? = nil) {
        let (content, counts, layouts) = MarkdownContent.buildKeepingLayouts(document, options: options, parallel: parallel)
        self.init(content: content, options: options, rowCounts: counts)
        // A small document's layouts were made anyway: keep them (they fit the cache), but not
        // code blocks when highlighting: the counting pass does not highlight, display does.
        if let layouts {
            for (k, layout) in layouts.enumerated() {
                let u = Unit(k)
                if options.highlighter != nil && content.isCodeBlock(unit: u) { continue }
                if options.pictures != nil && content.isPictureParagraph(unit: u) { continue }
                laidOut[u] = layout; recent.append(u); laidOutRows += layout.lines.count
            }
        }
    }

    /// The same content at other options: counts carried over where the width is the same
    /// (link styles do not change counts), otherwise estimates to be corrected.
    public func relaidOut(options newOptions: LayoutOptions, rowCounts: RowIndex? = nil) -> DocumentLayout {
        var copy = DocumentLayout(content: content, options: newOptions, index: rowCounts ?? index)
        if rowCounts == nil,
           newOptions.width != options.width || newOptions.chopLongLines != options.chopLongLines {
            copy.index = RowIndex()
            DocumentLayout.appendEstimates(to: &copy.index, content: content, units: unitRange,
                                           options: newOptions)
            if index.hasHiddenUnits {
                for u in unitRange where index.isHidden(unit: u) { copy.index.setHidden(true, unit: u) }
            }
        }
        return copy
    }

    /// Appends the estimated counts of `units` to `index`, 65,536 at a time (a pipe of short
    /// lines brings millions at once: their counts are never all held twice).
    static func appendEstimates(to index: inout RowIndex, content: any LayoutContent, units: Range<Unit>,
                                options: LayoutOptions) {
        let exact = content.estimatesAreExact(options: options)
        var start = units.lowerBound
        while start < units.upperBound {
            let end = min(units.upperBound, start + 65_536)
            index.append(counts: content.estimatedRows(of: start..<end, options: options), exact: exact)
            start = end
        }
    }

    private init(content: any LayoutContent, options: LayoutOptions, index: RowIndex) {
        self.content = content
        self.options = options
        self.index = index
    }

    public var width: Int { options.width }
    public var rowCount: Int { index.rowCount }
    /// The last row (`rowCount - 1`; -1 for an empty document).
    public var lastRow: Row { Row(rowCount - 1) }
    public var unitCount: Int { index.unitCount }
    /// Every unit, in order.
    public var unitRange: Range<Unit> { 0..<endUnit }
    /// The unit after the last (`unitCount`).
    public var endUnit: Unit { Unit(unitCount) }
    /// The last unit (`unitCount - 1`; -1 for an empty document).
    public var lastUnit: Unit { Unit(unitCount - 1) }
    /// Every row, in order.
    public var rowRange: Range<Row> { 0..<endRow }
    /// Every unit's count is exact (no estimate left).
    public var isExact: Bool { index.isExact }

    /// The Markdown document, for Markdown content.
    public var document: Document? { content.asMarkdown?.document }

    // MARK: - Units

    /// Unit `u` laid out (from the cache, else now).
    public func unit(_ u: Unit) -> BlockLayout {
        if let cached = laidOut[u] { return cached }
        if let memo = lastLookup.get(u) { return memo }
        let layout = content.layout(unit: u, options: options)
        lastLookup.set(u, layout)
        return layout
    }

    /// The rows unit `u` shows: exactly the index's count of them (a laid-out unit whose count
    /// is still an estimate is cut or padded with blank rows until `prepare` corrects it).
    public func lines(ofUnit u: Unit) -> [VisualLine] {
        let layout = unit(u)
        let n = index.count(ofUnit: u)
        if layout.lines.count == n { return layout.lines }
        if layout.lines.count > n { return Array(layout.lines.prefix(n)) }
        let end = layout.text.utf8.count
        let last = layout.lines.last
        let filler = VisualLine(spans: [], block: content.id(ofUnit: u), range: end..<end,
                                sourceLine: last?.sourceLine ?? content.sourceLines(ofUnit: u).last, width: 0)
        return layout.lines + Array(repeating: filler, count: n - layout.lines.count)
    }

    public func text(ofUnit u: Unit) -> String { content.text(ofUnit: u) }

    /// Lays out the units around unit `u` — `before` rows above its first row and `after`
    /// rows from it — making their counts exact and keeping their rows.
    public mutating func prepare(aroundUnit u: Unit, before: Int, after: Int) {
        guard unitCount > 0 else { return }
        let start = min(max(0, u), lastUnit)
        // Only the units shown: a filter that shows few blocks of a large document (`&`)
        // made this lay out every hidden unit to the end, on every key.
        var covered = 0
        var next = index.nextShown(from: start)
        while let k = next, covered <= after {
            covered += ensureLaidOut(k)
            next = index.nextShown(from: k + 1)
        }
        covered = 0
        var previous = index.previousShown(before: start)
        while let k = previous, covered < before {
            covered += ensureLaidOut(k)
            previous = index.previousShown(before: k)
        }
        trimCache(keeping: start)
    }

    /// Prepares around the unit of `anchor` (see `prepare(aroundUnit:before:after:)`).
    public mutating func prepare(around anchor: Anchor, before: Int, after: Int) {
        let u = content.unit(of: anchor.block) ?? content.units(covering: anchor.block)?.lowerBound
            ?? (anchor.block.rawValue < 0 ? 0 : lastUnit)
        prepare(aroundUnit: u, before: before, after: after)
    }

    /// Lays out unit `u` if needed and corrects its count; returns the rows it shows.
    @discardableResult
    public mutating func ensureLaidOut(_ u: Unit) -> Int {
        if laidOut[u] == nil {
            let layout = content.layout(unit: u, options: options)
            laidOut[u] = layout
            recent.append(u)
            laidOutRows += layout.lines.count
        }
        let n = laidOut[u]!.lines.count
        if !index.isExact(unit: u) || index.count(ofUnit: u) != n { index.setCount(n, exact: true, ofUnit: u) }
        return index.visibleCount(ofUnit: u)
    }

    /// Takes a new snapshot of its growing text (`TextContent.sharesLines(with:)`: the units
    /// it had are the snapshot's first, unchanged but for a last line shown without its LF):
    /// the units it adds get estimated counts; those there were keep their counts and
    /// laid-out rows, so the cost is the new units', whatever the document's size. Returns
    /// how many units were added.
    @discardableResult
    public mutating func grow(to snapshot: TextContent) -> Int {
        precondition(content.asText?.sharesLines(with: snapshot) == true, "a later snapshot of the same lines")
        let before = index.unitCount
        let openLine = content.asText?.lines.endsInOpenLine == true && snapshot.indexedBytes > content.asText!.indexedBytes
        content = snapshot
        // The one unit that may change: a last line shown without its LF (the input had
        // ended) that a followed file went on with.
        if openLine && before > 0 { invalidate(unit: Unit(before - 1)) }
        let total = snapshot.unitCount
        guard total > before else { return 0 }
        DocumentLayout.appendEstimates(to: &index, content: snapshot, units: Unit(before)..<Unit(total), options: options)
        return total - before
    }

    /// Forgets the laid-out rows of unit `u` (its content changed).
    public mutating func invalidate(unit u: Unit) {
        if let layout = laidOut.removeValue(forKey: u) { laidOutRows -= layout.lines.count }
        lastLookup.forget()
        if u.index < index.unitCount { index.setCount(index.count(ofUnit: u), exact: false, ofUnit: u) }
    }

    /// An image of `source` was drawn (`MarkdownContent.storePicture`): the units laid out
    /// that show it are laid out again when next prepared, with its rows. (Units not laid out
    /// get them when they are: an image is asked for by the display of a unit showing it.)
    public mutating func pictureArrived(source: String) {
        guard let content = content.asMarkdown else { return }
        for u in Array(laidOut.keys) where content.unit(u, shows: source) { invalidate(unit: u) }
    }

    /// Forgets the laid-out rows of unit `u` whose colours changed but not its rows (its code
    /// block's syntax runs came in): its count stays exact.
    public mutating func refresh(unit u: Unit) {
        if let layout = laidOut.removeValue(forKey: u) { laidOutRows -= layout.lines.count }
        lastLookup.forget()
    }

    /// Sets exact counts computed elsewhere (the background layout) for units `start...`.
    public mutating func setExactCounts(_ counts: [Int], from start: Unit) {
        for (k, n) in counts.enumerated() where (start + k).index < unitCount {
            index.setCount(n, exact: true, ofUnit: start + k)
        }
    }

    /// Takes in exact counts from the background pass (counted in an earlier snapshot of the
    /// same lines, maybe). False (nothing changed) when the chunk was counted for other content
    /// (another document, an input started over) or another width, or this layout chops lines.
    @discardableResult
    public mutating func apply(_ chunk: RowCountChunk) -> Bool {
        guard content.asText?.sharesLines(with: chunk.content) == true, chunk.units.upperBound.index <= unitCount,
              chunk.width == options.width, !options.chopLongLines else {
            return false
        }
        index.setExactCounts(from: chunk.firstUnit, count: chunk.count) { chunk[$0] }
        return true
    }

    private mutating func trimCache(keeping center: Unit) {
        guard laidOutRows > Self.cacheRows else { return }
        // Forget the units laid out longest ago, never the one just prepared around.
        var i = 0
        while laidOutRows > Self.cacheRows / 2 && i < recent.count {
            let u = recent[i]
            if u != center, let layout = laidOut.removeValue(forKey: u) { laidOutRows -= layout.lines.count }
            i += 1
        }
        recent.removeFirst(i)
    }

    // MARK: - Filter

    /// Shows only the units given (sorted), or all (nil).
    public mutating func setShown(_ units: [Unit]?) { index.setShown(units) }

    // MARK: - Rows

    /// (unit, row within it) of `row`, clamped; (0, 0) for an empty document.
    /// (`line` is an index into `lines(ofUnit:)`, not a row of the document.)
    public func locate(_ row: Row) -> (unit: Unit, line: Int) {
        guard let found = index.unit(atRow: row) else { return (0, 0) }
        return found
    }

    /// The row `row` (clamped to the document); an empty line for an empty document.
    public func line(at row: Row) -> VisualLine {
        guard rowCount > 0 else {
            return VisualLine(spans: [], block: BlockID(0), range: 0..<0, sourceLine: 1, width: 0)
        }
        let (u, k) = locate(row)
        if let cached = laidOut[u], cached.lines.count == index.count(ofUnit: u) { return cached.lines[k] }
        return lines(ofUnit: u)[k]
    }

    /// Unit index of the unit showing `row` (clamped; 0 for an empty document).
    public func unitIndex(atRow row: Row) -> Unit { locate(row).unit }

    /// Unit index of a unit id, nil for ids that are not units (containers, unknown ids).
    public func unitIndex(of id: BlockID) -> Unit? { content.unit(of: id) }

    /// Rows of unit `u`; empty (where it would stand) when it is hidden or out of range.
    public func rows(ofUnit u: Unit) -> Range<Row> {
        guard u.index >= 0, u.index < unitCount else { return endRow..<endRow }
        return index.rows(ofUnit: u)
    }

    /// The row after the last (`rowCount`): where an empty range at the end stands.
    public var endRow: Row { Row(rowCount) }

    /// Rows of a block: a unit's rows; for a container, the rows of all its units. Empty (at
    /// the nearest row) for an unknown id.
    public func rows(of id: BlockID) -> Range<Row> {
        guard let units = content.units(covering: id) else { return endRow..<endRow }
        guard !units.isEmpty else {
            let at = units.lowerBound.index < unitCount ? index.firstRow(ofUnit: units.lowerBound) : endRow
            return at..<at
        }
        return index.firstRow(ofUnit: units.lowerBound)..<index.firstRow(ofUnit: units.upperBound)
    }

    /// Rows showing any of `range` (UTF-8 offsets in the unit's content text) of unit `u`.
    /// For an empty range, the row showing its offset. Empty when the unit is hidden.
    public func rows(showing range: Range<Int>, inUnit u: Unit) -> Range<Row> {
        let unitRows = rows(ofUnit: u)
        guard !unitRows.isEmpty else { return unitRows }
        let lines = lines(ofUnit: u)
        let base = unitRows.lowerBound
        if range.isEmpty {
            let r = row(forOffset: range.lowerBound, ordinal: 0, in: lines)
            return (base + r)..<(base + r + 1)
        }
        var first: Int?
        var last = 0
        for (i, line) in lines.enumerated() {
            let r = line.range
            if !r.isEmpty, r.lowerBound < range.upperBound, range.lowerBound < r.upperBound {
                if first == nil { first = i }
                last = i
            }
        }
        guard let f = first else {
            let r = row(forOffset: range.lowerBound, ordinal: 0, in: lines)
            return (base + r)..<(base + r + 1)
        }
        return (base + f)..<(base + last + 1)
    }

    /// Rows showing `range` of the unit with id `id` (for a container: its rows).
    public func rows(showing range: Range<Int>, in id: BlockID) -> Range<Row> {
        guard let u = content.unit(of: id) else { return rows(of: id) }
        return rows(showing: range, inUnit: u)
    }

    /// The position of `row`: its unit's id, the offset of its first character and which of
    /// the unit's rows starting at that offset it is.
    public func anchor(atRow row: Row) -> Anchor {
        guard rowCount > 0 else { return Anchor(block: BlockID(0), offset: 0) }
        let (u, k) = locate(row)
        let lines = lines(ofUnit: u)
        let offset = lines[k].range.lowerBound
        var ordinal = 0
        var j = k - 1
        while j >= 0 && lines[j].range.lowerBound == offset { ordinal += 1; j -= 1 }
        return Anchor(block: content.id(ofUnit: u), offset: offset, ordinal: ordinal)
    }

    /// The row an anchor stands on at this width. A hidden unit's anchor goes to the next
    /// shown row; a container's to its first row; an unknown id to the nearest row.
    /// Law: `row(for: anchor(atRow: r)) == r`.
    public func row(for anchor: Anchor) -> Row {
        guard rowCount > 0 else { return 0 }
        let id = anchor.block.rawValue
        if id < 0 { return 0 }
        guard let u = content.unit(of: anchor.block) else {
            if let units = content.units(covering: anchor.block) {
                return min(index.firstRow(ofUnit: min(units.lowerBound, Unit(unitCount))), lastRow)
            }
            return lastRow
        }
        let rows = self.rows(ofUnit: u)
        if rows.isEmpty { return min(rows.lowerBound, lastRow) }
        return rows.lowerBound + row(forOffset: anchor.offset, ordinal: anchor.ordinal, in: lines(ofUnit: u))
    }

    /// Within one unit's rows: among rows starting exactly at `offset`, the `ordinal`-th
    /// (clamped); otherwise the row whose content contains the offset (non-empty rows first);
    /// otherwise (the offset is a space dropped at a wrap) the row after it; past the end,
    /// the last content row.
    func row(forOffset offset: Int, ordinal: Int, in lines: [VisualLine]) -> Int {
        guard !lines.isEmpty else { return 0 }
        let a = firstLine(in: lines) { $0.range.lowerBound >= offset }
        if a < lines.count && lines[a].range.lowerBound == offset {
            var e = a
            while e + 1 < lines.count && lines[e + 1].range.lowerBound == offset { e += 1 }
            return min(a + max(0, ordinal), e)
        }
        if a == 0 { return 0 }
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
                    if let o = span.contentOffset, o <= offset, offset < o + span.text.utf8.count { return j }
                }
            }
            j -= 1
        }
        if containing >= 0 { return containing }
        if a < lines.count && !lines[a].range.isEmpty { return a }
        j = a - 1
        while j > 0 && lines[j].range.isEmpty { j -= 1 }
        if lines[j].range.isEmpty { j = a - 1 }
        return j
    }

    /// First row showing source line `line` (or the nearest line after it); the last row when
    /// the line is past the end.
    public func row(forSourceLine line: Int) -> Row {
        guard rowCount > 0 else { return 0 }
        var u = content.unit(forSourceLine: line)
        if content.sourceLines(ofUnit: u).last < line { return lastRow }
        guard let shown = index.visibleUnit(atOrAfter: u) else { return lastRow }
        u = shown
        let lines = lines(ofUnit: u)
        let k = firstLine(in: lines) { $0.sourceLine >= line }
        let rows = self.rows(ofUnit: u)
        return k < lines.count ? rows.lowerBound + k : min(rows.upperBound, lastRow)
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

/// One remembered unit layout, safe to share between threads.
final class LastUnitMemo: Sendable {
    private let memo = Mutex<(unit: Unit, layout: BlockLayout?)>((-1, nil))

    func get(_ u: Unit) -> BlockLayout? { memo.withLock { $0.unit == u ? $0.layout : nil } }

    func forget() { memo.withLock { $0 = (-1, nil) } }

    func set(_ u: Unit, _ value: BlockLayout) { memo.withLock { $0 = (u, value) } }
}
