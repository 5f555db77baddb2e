/// Pure scroll arithmetic on row numbers, for one layout at one width.
///
/// Rows are 0-based indices into the laid-out document; `contentRows` is the height of the
/// content area (the screen minus the status row). Everything here is total: any Int input,
/// including 0 rows and 0-height views, gives a valid answer.
///
/// ```
///  row 0  ┌──────────────┐
///         │              │
///  top ─▶ ├──────────────┤ ─┐
///         │  visible     │  │ contentRows
///         ├──────────────┤ ─┘
///         │              │
///  count  └──────────────┘   maxTop = max(0, count − contentRows)
/// ```
public enum ScrollGeometry {
    /// The greatest top row: the last row of the document sits on the last content row.
    public static func maxTop(rowCount: Int, contentRows: Int) -> Int {
        max(0, rowCount - max(0, contentRows))
    }

    public static func clampTop(_ top: Int, rowCount: Int, contentRows: Int) -> Int {
        min(max(0, top), maxTop(rowCount: rowCount, contentRows: contentRows))
    }

    /// Rows moved by one page: the content height minus the overlap, at least 1.
    /// With the default overlap of 1 the last row of a page is the first row of the next.
    public static func pageStep(contentRows: Int, overlap: Int) -> Int {
        max(1, contentRows - max(0, overlap))
    }

    /// How a target range is brought into view.
    public enum RevealPolicy: Hashable, Sendable {
        /// Move as little as possible (the default).
        case minimal
        /// less's `-j`: put the target's first row on this content row (0-based from the top;
        /// negative counts from the bottom, -1 = last content row), when it has to move at all.
        case row(Int)
        /// less's `-j.5`: put the target's first row at this fraction of the content height.
        case fraction(Double)
    }

    /// The top row that reveals `target` (rows of the document), or nil when no move is needed.
    ///
    /// Laws (each a test): nothing moves if any row of the target is visible (or, with
    /// `requireWhole`, if all of it is); a target below ends with its last row on the last
    /// content row; a target above starts on the top row; a target taller than the view starts
    /// on the top row. The result is always a valid (clamped) top.
    public static func reveal(
        _ target: Range<Int>, top: Int, contentRows: Int, rowCount: Int,
        policy: RevealPolicy = .minimal, requireWhole: Bool = false
    ) -> Int? {
        let rows = max(0, contentRows)
        guard rows > 0, rowCount > 0 else { return nil }
        let t = clampTop(top, rowCount: rowCount, contentRows: rows)
        let first = min(max(0, target.lowerBound), rowCount - 1)
        let last = min(max(first, target.upperBound - 1), rowCount - 1)
        let viewEnd = t + rows  // exclusive
        let anyVisible = first < viewEnd && last >= t
        let allVisible = first >= t && last < viewEnd
        if requireWhole ? allVisible : anyVisible { return nil }
        var newTop: Int
        switch policy {
        case .minimal:
            if last - first + 1 > rows || first < t {
                newTop = first
            } else {
                newTop = last - rows + 1
            }
        case .row(let r):
            let row = r >= 0 ? min(r, rows - 1) : max(0, rows + r)
            newTop = first - row
        case .fraction(let f):
            let row = Int(Double(rows) * min(max(f, 0), 1))  // truncation = floor for non-negative
            newTop = first - min(row, rows - 1)
        }
        newTop = clampTop(newTop, rowCount: rowCount, contentRows: rows)
        return newTop == t ? nil : newTop
    }
}
