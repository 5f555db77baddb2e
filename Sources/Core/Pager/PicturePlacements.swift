import LineLayout

/// A picture on the screen, for a graphics protocol to draw over its blank cells: its rows
/// `firstRow..<firstRow + visibleRows` of `rows` are on screen from `screenRow`, at `column`.
public struct PicturePlacement: Hashable, Sendable {
    public var source: String
    public var cols: Int
    public var rows: Int
    public var firstRow: Int
    public var visibleRows: Int
    public var screenRow: Int
    public var column: Int
    public init(source: String, cols: Int, rows: Int, firstRow: Int, visibleRows: Int, screenRow: Int, column: Int) {
        self.source = source; self.cols = cols; self.rows = rows; self.firstRow = firstRow
        self.visibleRows = visibleRows; self.screenRow = screenRow; self.column = column
    }
}

extension PagerState {
    /// The pictures on the content rows of the screen now, each clipped to the rows it shows
    /// (never the status row), in screen order. None while the outline covers the screen.
    public func picturePlacements() -> [PicturePlacement] {
        guard outline == nil, !active.isText else { return [] }
        let doc = active
        let count = doc.layout.rowCount
        var placements: [PicturePlacement] = []
        for screenRow in 0..<contentRows {
            let row = doc.top + screenRow
            guard row < Row(count) else { break }
            guard let p = doc.layout.line(at: row).picture else { continue }
            if var last = placements.last, last.source == p.source, last.screenRow + last.visibleRows == screenRow,
               last.firstRow + last.visibleRows == p.row, last.column == gutterColumns + p.column {
                last.visibleRows += 1
                placements[placements.count - 1] = last
            } else {
                placements.append(PicturePlacement(source: p.source, cols: p.cols, rows: p.rows, firstRow: p.row,
                                                   visibleRows: 1, screenRow: screenRow, column: gutterColumns + p.column))
            }
        }
        return placements
    }
}
