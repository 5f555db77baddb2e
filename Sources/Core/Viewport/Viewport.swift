import LineLayout

/// Rows of a laid-out document, as the viewport needs them. `DocumentLayout` conforms; tests
/// use small fakes.
public protocol RowSpace {
    var rowCount: Int { get }
    func anchor(atRow row: Row) -> Anchor
    func row(for anchor: Anchor) -> Row
}

extension DocumentLayout: RowSpace {}

/// Where the view is, semantically: an edge or an anchor, never a row number.
///
/// `.top` and `.bottom` are sticky edges (a view at the bottom stays at the bottom when the
/// width changes or rows are added); an anchor is the first character on the top row.
public enum ScrollPosition: Hashable, Sendable {
    case top
    case bottom
    case anchor(Anchor)
}

/// The visible window onto a document: a position plus the height of the content area.
/// Rows in and out are `Row`s of the row space; `ScrollGeometry` does the arithmetic on their
/// plain numbers.
public struct Viewport: Hashable, Sendable {
    public var position: ScrollPosition
    /// Content rows on screen (the terminal's rows minus the status row); may be 0.
    public var contentRows: Int

    public init(position: ScrollPosition = .top, contentRows: Int) {
        self.position = position
        self.contentRows = max(0, contentRows)
    }

    /// The top row in `rows`, always within `0...maxTop`.
    public func top(in rows: some RowSpace) -> Row {
        let count = rows.rowCount
        switch position {
        case .top: return 0
        case .bottom: return Row(ScrollGeometry.maxTop(rowCount: count, contentRows: contentRows))
        case .anchor(let a):
            guard count > 0 else { return 0 }
            return Row(ScrollGeometry.clampTop(rows.row(for: a).index, rowCount: count, contentRows: contentRows))
        }
    }

    public func maxTop(in rows: some RowSpace) -> Row {
        Row(ScrollGeometry.maxTop(rowCount: rows.rowCount, contentRows: contentRows))
    }

    /// The position for a top row: the `.top` edge at row 0, the `.bottom` edge at the last
    /// possible top (when the document is longer than the view), else the row's anchor.
    public static func position(forTop top: Row, in rows: some RowSpace, contentRows: Int) -> ScrollPosition {
        let count = rows.rowCount
        let t = ScrollGeometry.clampTop(top.index, rowCount: count, contentRows: contentRows)
        if t == 0 { return .top }
        if t == ScrollGeometry.maxTop(rowCount: count, contentRows: contentRows) { return .bottom }
        return .anchor(rows.anchor(atRow: Row(t)))
    }

    /// This viewport moved so that `top` is the top row (clamped).
    public func withTop(_ top: Row, in rows: some RowSpace) -> Viewport {
        var v = self
        v.position = Viewport.position(forTop: top, in: rows, contentRows: contentRows)
        return v
    }

    public func scrolled(by delta: Int, in rows: some RowSpace) -> Viewport {
        withTop(top(in: rows) + delta, in: rows)
    }

    /// One page forward (`pages` > 0) or back (< 0), each page `pageStep` rows.
    public func paged(_ pages: Int, overlap: Int, in rows: some RowSpace) -> Viewport {
        let step = ScrollGeometry.pageStep(contentRows: contentRows, overlap: overlap)
        return scrolled(by: pages * step, in: rows)
    }

    /// The viewport that reveals `target` rows with the least movement, or nil if no move is
    /// needed. Search and selection-follow both go through here.
    public func revealing(
        _ target: Range<Row>, in rows: some RowSpace,
        policy: ScrollGeometry.RevealPolicy = .minimal, requireWhole: Bool = false
    ) -> Viewport? {
        let t = top(in: rows)
        guard let n = ScrollGeometry.reveal(
            target.indexRange, top: t.index, contentRows: contentRows, rowCount: rows.rowCount,
            policy: policy, requireWhole: requireWhole)
        else { return nil }
        return withTop(Row(n), in: rows)
    }
}

/// Page indicator arithmetic: pages counted with the overlap, as the reader pages.
public enum PageCounter {
    /// (current page, total pages), both 1-based. Page k starts at row (k−1)·step, as paging
    /// from the top reaches it; the last page is the one that shows the last row.
    public static func pages(top: Int, rowCount: Int, contentRows: Int, overlap: Int) -> (current: Int, total: Int) {
        let rows = max(1, contentRows)
        let step = ScrollGeometry.pageStep(contentRows: rows, overlap: overlap)
        let maxTop = ScrollGeometry.maxTop(rowCount: rowCount, contentRows: rows)
        let total = maxTop == 0 ? 1 : 1 + (maxTop + step - 1) / step
        let current = top >= maxTop ? total : min(total, 1 + max(0, top) / step)
        return (max(1, current), total)
    }
}
