import CellWidth

/// A rectangle of cells: one whole frame, composed in memory before anything is written.
///
/// Coordinates are 0-based `(row, column)`. Writes outside the grid are clipped, never a
/// trap. Invariant: a cell of width w at column c is always followed by its w - 1 continuations
/// (c+1 ..< c+w), and every continuation belongs to the wide cell before it; writes that would
/// break a wide cell turn the rest of it into spaces.
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

    /// Writes `text` from `column` on, one grapheme cluster per cell (covering as many columns
    /// as `CellWidth` gives it), and returns the column after the last cell written (at most
    /// `columns`).
    ///
    /// - Clips at the right edge; a wide cluster that does not fit before it becomes spaces in
    ///   `style` up to the edge and writing stops.
    /// - A wide cluster cut by the left edge (column < 0) shows as spaces in its visible columns.
    /// - C0 controls and DEL are shown in caret notation (`^M`, `^?`), C1 controls as U+FFFD.
    /// - Zero-width clusters (a lone combining mark, ZWSP) are dropped.
    /// - Columns left of 0 are skipped (the text is clipped on the left as well).
    @discardableResult
    public mutating func put(_ text: String, style: CellStyle = .plain, row: Int, column: Int) -> Int {
        guard row >= 0, row < rows else { return column }
        if column >= 0, let end = putSimple(text, style: style, row: row, column: column) { return end }
        return putByCharacter(text, style: style, row: row, column: column)
    }

    /// Whether a scalar is a grapheme cluster of its own between any two such scalars, and no
    /// control character: printable ASCII, Latin, Greek and Cyrillic letters, punctuation,
    /// symbols, arrows, box drawing, kana, CJK ideographs, Hangul syllables. (A law test checks
    /// every one of them against the standard library's segmentation and `CellWidth`.)
    @inline(__always)
    static func isSimple(_ v: UInt32) -> Bool {
        switch v {
        case 0x20...0x7E, 0xA0...0x2FF, 0x370...0x482, 0x2010...0x205F, 0x2070...0x20CF, 0x2100...0x2BFF,
             0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }

    /// `put` of text made only of simple scalars (`isSimple`; nil otherwise, nothing written),
    /// at `column` ≥ 0: one cell per scalar, with no grapheme segmentation, and printable ASCII
    /// in one pass. Nearly all of a frame is such text, and `put` by Character (clusters,
    /// widths, control checks, a `set` per cell) was most of the time a frame took to compose.
    private mutating func putSimple(_ text: String, style: CellStyle, row: Int, column: Int) -> Int? {
        var ascii = true
        for scalar in text.unicodeScalars {
            guard Self.isSimple(scalar.value) else { return nil }
            if scalar.value >= 0x80 { ascii = false }
        }
        if ascii, let end = text.utf8.withContiguousStorageIfAvailable({ putASCII($0, style: style, row: row, column: column) }) {
            return end
        }
        var col = column
        for scalar in text.unicodeScalars {
            if col >= columns { break }
            let v = scalar.value
            let width = v < 0x7F ? 1 : CellWidth.of(scalar)
            if width <= 0 { continue }
            if col + width > columns {
                for c in col ..< columns { set(.blank(style), row: row, column: c) }
                return columns
            }
            set(Cell(verified: v < 0x7F ? Cell.asciiTexts[Int(v) - 0x20] : String(scalar), width: width, style: style),
                row: row, column: col)
            col += width
        }
        return min(col, columns)
    }

    /// `put` of printable ASCII at `column` ≥ 0: one cell per byte, written in one pass.
    private mutating func putASCII(_ bytes: UnsafeBufferPointer<UInt8>, style: CellStyle, row: Int, column: Int) -> Int {
        let end = min(columns, column + bytes.count)
        guard column < end else { return min(column, columns) }
        let base = row * columns
        let texts = Cell.asciiTexts
        blankWideCellsCut(row: row, from: column, to: end)
        cells.withUnsafeMutableBufferPointer { cells in
            for i in 0..<(end - column) {
                cells[base + column + i] = Cell(verified: texts[Int(bytes[i]) - 0x20], width: 1, style: style)
            }
        }
        return end
    }

    /// `put`, one grapheme cluster at a time (any text).
    mutating func putByCharacter(_ text: String, style: CellStyle = .plain, row: Int, column: Int) -> Int {
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
            let width = CellWidth.of(character)
            if width <= 0 { continue }
            if col < 0 {
                // A cluster cut by the left edge: its visible columns are spaces.
                for c in 0 ..< max(0, min(col + width, columns)) { set(.blank(style), row: row, column: c) }
                col += width
                continue
            }
            if col + width > columns {
                for c in col ..< columns { set(.blank(style), row: row, column: c) }
                return columns
            }
            set(Cell(verified: String(character), width: width, style: style), row: row, column: col)
            col += width
        }
        return min(max(col, 0), columns)
    }

    /// Places one cell (and its continuations when wide), repairing any wide cell it cuts.
    public mutating func set(_ cell: Cell, row: Int, column: Int) {
        guard row >= 0, row < rows, column >= 0, column < columns, !cell.isContinuation else { return }
        if column + cell.width > columns {
            set(.blank(cell.style), row: row, column: column)
            return
        }
        let base = row * columns
        let end = column + cell.width  // first column after the new cell
        blankWideCellsCut(row: row, from: column, to: end)
        cells[base + column] = cell
        for k in column + 1 ..< end { cells[base + k] = .continuation(cell.style) }
    }

    /// Before columns `column..<end` of `row` are overwritten: the columns of a wide cell they
    /// cut that lie outside them become spaces (in that cell's style).
    private mutating func blankWideCellsCut(row: Int, from column: Int, to end: Int) {
        let base = row * columns
        // Left: we overwrite a continuation, so the wide cell it belongs to starts before
        // `column`; its columns left of `column` become spaces.
        if column > 0 && column < columns && cells[base + column].isContinuation {
            var head = column - 1
            while head > 0 && cells[base + head].isContinuation { head -= 1 }
            for c in head..<column { cells[base + c] = .blank(cells[base + c].style) }
        }
        // Right: continuations from `end` on belong to a wide cell we overwrite the start of.
        var c = end
        while c < columns && cells[base + c].isContinuation {
            cells[base + c] = .blank(cells[base + c].style)
            c += 1
        }
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
