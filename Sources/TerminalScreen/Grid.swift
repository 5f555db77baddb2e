import CellWidth

/// A rectangle of cells: one whole frame, composed in memory before anything is written.
///
/// Coordinates are 0-based `(row, column)`. Writes outside the grid are clipped, never a
/// trap. Invariant: a wide cell at column c is always followed by its continuation at c+1,
/// and a continuation always follows a wide cell; writes that would break a wide cell in two
/// turn the remaining half into a space.
public struct Grid: Hashable, Sendable {
    public let rows: Int
    public let columns: Int
    /// Row-major cells, `rows * columns` of them.
    public private(set) var cells: [Cell]

    public init(rows: Int, columns: Int, style: CellStyle = .plain) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
        cells = Array(repeating: .blank(style), count: self.rows * self.columns)
    }

    /// Builds a grid from plain text lines (for tests): each line is put at column 0 of its row.
    public init(lines: [String], columns: Int, style: CellStyle = .plain) {
        self.init(rows: lines.count, columns: columns)
        for (row, line) in lines.enumerated() { put(line, style: style, row: row, column: 0) }
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * columns + column]
    }

    /// The cells of one row.
    public func cells(row: Int) -> ArraySlice<Cell> {
        cells[row * columns ..< (row + 1) * columns]
    }

    /// Writes `text` from `column` on, one grapheme cluster per cell (two for wide ones),
    /// and returns the column after the last cell written (at most `columns`).
    ///
    /// - Clips at the right edge; a wide cluster that does not fit in the last column becomes
    ///   a space in `style` and writing stops.
    /// - C0 controls and DEL are shown in caret notation (`^M`, `^?`), C1 controls as U+FFFD.
    /// - Zero-width clusters (a lone combining mark, ZWSP) are dropped.
    /// - Columns left of 0 are skipped (the text is clipped on the left as well).
    @discardableResult
    public mutating func put(_ text: String, style: CellStyle = .plain, row: Int, column: Int) -> Int {
        guard row >= 0, row < rows else { return column }
        var col = column
        for character in text {
            if col >= columns { break }
            if Cell.isControl(character) {
                for scalar in character.unicodeScalars {
                    for shown in Self.caret(scalar) {
                        if col >= columns { break }
                        if col >= 0 { set(Cell(verified: String(shown), width: 1, style: style), row: row, column: col) }
                        col += 1
                    }
                }
                continue
            }
            let width = min(CellWidth.of(character), 2)
            if width <= 0 { continue }
            if col < 0 { col += width; continue }
            if col + width > columns {
                set(.blank(style), row: row, column: col)
                return columns
            }
            set(Cell(verified: String(character), width: width, style: style), row: row, column: col)
            col += width
        }
        return min(max(col, 0), columns)
    }

    /// Places one cell (and its continuation when wide), repairing any wide cell it cuts in two.
    public mutating func set(_ cell: Cell, row: Int, column: Int) {
        guard row >= 0, row < rows, column >= 0, column < columns, !cell.isContinuation else { return }
        if cell.width == 2 && column + 1 >= columns {
            set(.blank(cell.style), row: row, column: column)
            return
        }
        let base = row * columns
        // Left neighbour: we overwrite the right half of a wide cell.
        if cells[base + column].isContinuation, column > 0 {
            cells[base + column - 1] = .blank(cells[base + column - 1].style)
        }
        let end = column + cell.width  // first column after the new cell
        // Right neighbour: we overwrite the left half of a wide cell whose right half survives.
        if end < columns, cells[base + end].isContinuation {
            cells[base + end] = .blank(cells[base + end].style)
        }
        cells[base + column] = cell
        if cell.width == 2 { cells[base + column + 1] = .continuation(cell.style) }
    }

    /// Fills a rectangle (clipped to the grid) with `character` in `style`.
    public mutating func fill(
        rows rowRange: Range<Int>? = nil, columns columnRange: Range<Int>? = nil,
        with character: Character = " ", style: CellStyle = .plain
    ) {
        let rr = (rowRange ?? 0..<rows).clamped(to: 0..<rows)
        let cr = (columnRange ?? 0..<columns).clamped(to: 0..<columns)
        let cell = Cell(character, style: style)
        for r in rr {
            var c = cr.lowerBound
            while c < cr.upperBound {
                if c + cell.width > cr.upperBound { set(.blank(style), row: r, column: c); break }
                set(cell, row: r, column: c)
                c += cell.width
            }
        }
    }

    /// The plain text of a row: every cluster, continuation cells skipped, trailing spaces kept.
    public func row(_ row: Int) -> String {
        var s = ""
        for cell in cells(row: row) where !cell.isContinuation { s += cell.text }
        return s
    }

    /// The rows as text with a visible right edge, one line per row: `"row text|"`.
    /// With `styles`, each row that has non-plain cells is followed by one line per style
    /// run: `"  3..<7 bold fg=1"` (columns, half-open).
    public func dump(styles: Bool = false) -> String {
        var lines: [String] = []
        for r in 0..<rows {
            lines.append(row(r) + "|")
            guard styles else { continue }
            var c = 0
            let rowCells = Array(cells(row: r))
            while c < columns {
                let style = rowCells[c].style
                var end = c + 1
                while end < columns && rowCells[end].style == style { end += 1 }
                if style != .plain { lines.append("  \(c)..<\(end) \(style.summary)") }
                c = end
            }
        }
        return lines.joined(separator: "\n")
    }

    /// How a control scalar is shown: `^@`…`^_`, `^?` for DEL, U+FFFD for C1.
    static func caret(_ scalar: Unicode.Scalar) -> [Character] {
        switch scalar.value {
        case 0..<0x20: return ["^", Character(Unicode.Scalar(UInt8(scalar.value) + 0x40))]
        case 0x7F: return ["^", "?"]
        default: return ["\u{FFFD}"]
        }
    }

    /// Moves the rows of `region` by `amount` (positive: content moves up, as with SU),
    /// filling the vacated rows with blanks — what a terminal does on scroll.
    public mutating func scroll(region: Range<Int>, by amount: Int, fill style: CellStyle = .plain) {
        let region = region.clamped(to: 0..<rows)
        guard amount != 0, !region.isEmpty else { return }
        let old = self
        for r in region {
            let source = r + amount
            let base = r * columns
            if region.contains(source) {
                for c in 0..<columns { cells[base + c] = old.cells[source * columns + c] }
            } else {
                for c in 0..<columns { cells[base + c] = .blank(style) }
            }
        }
    }
}
