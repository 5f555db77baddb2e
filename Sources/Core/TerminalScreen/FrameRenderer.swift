/// Turns successive frames into the bytes that update a terminal from one to the next.
///
/// A value type holding what the terminal is known to show: the previous grid, the cursor
/// position and the current SGR style. `render` diffs the new grid against the previous one
/// (in the manner of ratatui's `Buffer::diff`, wide characters included), uses the terminal's
/// own scrolling when a block of rows moved, and emits only what changed:
///
/// ```
/// ESC[?2026h  [ESC[?25l OSC8 ESC[0m ESC[r ESC[2J]  [DECSTBM SU/SD ESC[r]  (CUP SGR OSC8 text)*  ESC[?2026l
///  sync on      full redraw only                    scroll, if detected     changed cells        sync off
/// ```
///
/// Pure: it never writes anything; the caller writes the returned bytes in one `write`.
public struct FrameRenderer: Sendable {
    /// What the terminal shows, or nil when unknown (first frame, after `invalidate`).
    public private(set) var previous: Grid?
    private var cursor: (row: Int, column: Int)?
    private var style: CellStyle?
    /// `ANSI.sgr` results by (from, to) style, links left out: a screen uses a handful of
    /// styles, and working each change out anew was a large part of drawing one.
    private var encoded: [StyleChange: [UInt8]] = [:]
    private struct StyleChange: Hashable, Sendable { var from: CellStyle; var to: CellStyle }
    /// The style of the last cell emitted in `style` (before it was reduced to the depth);
    /// nil when `style` was set otherwise since. Valid within one `render` (one depth).
    private var emittedStyle: CellStyle?
    /// Uses DECSTBM + SU/SD when a block of rows moved. On by default.
    public var usesScrolling: Bool

    public init(usesScrolling: Bool = true) {
        self.usesScrolling = usesScrolling
    }

    /// Forgets what the terminal shows: the next frame is drawn in full (after a resize,
    /// Ctrl-L, resuming from suspension, or any foreign output).
    public mutating func invalidate() {
        previous = nil; cursor = nil; style = nil; emittedStyle = nil
    }

    /// The bytes that turn the previous frame into `grid`, with colours reduced to `depth`;
    /// none when they show the same.
    /// `scrollRows` limits scroll detection to those rows (e.g. the content area without the
    /// status line); nil lets the renderer consider every row.
    /// `trailer`: bytes written after the cells, inside the same synchronized update (a
    /// graphics protocol's pictures over blank cells); they may move the cursor.
    public mutating func render(_ grid: Grid, depth: ColorDepth, scrollRows: Range<Int>? = nil,
                                trailer: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = ANSI.beginSynchronizedUpdate
        out.reserveCapacity(grid.rows * grid.columns + 64)
        if var old = previous, old.rows == grid.rows, old.columns == grid.columns {
            if usesScrolling, let shift = ScrollShift.detect(from: old, to: grid, within: scrollRows) {
                if style?.hyperlink != nil { out += ANSI.hyperlink(nil) }  // SGR 0 does not end a link
                if style != .plain {  // scrolled-in rows take the current background (bce)
                    out += ANSI.resetStyle
                    style = .plain
                }
                emittedStyle = nil
                out += ANSI.setScrollRegion(shift.region) + ANSI.scroll(by: shift.amount) + ANSI.resetScrollRegion
                cursor = (0, 0)  // DECSTBM homes the cursor
                old.scroll(region: shift.region, by: shift.amount)
            }
            Self.forEachChange(from: old, to: grid) { cell, row, column in
                emit(cell, row: row, column: column, depth: depth, columns: grid.columns, into: &out)
            }
        } else {
            // Known state from scratch: no open hyperlink, no style, no scroll region, and a
            // cleared screen, which is a grid of plain blanks: what differs from one is drawn
            // (no blank grid is built to diff against, nor scrolling looked for in it).
            out += ANSI.hideCursor + ANSI.hyperlink(nil) + ANSI.resetStyle + ANSI.resetScrollRegion + ANSI.clearScreen
            style = .plain
            emittedStyle = nil
            cursor = nil
            Self.forEachChange(from: nil, to: grid) { cell, row, column in
                emit(cell, row: row, column: column, depth: depth, columns: grid.columns, into: &out)
            }
        }
        if style?.hyperlink != nil {
            out += ANSI.hyperlink(nil)
            style?.hyperlink = nil
        }
        emittedStyle = nil
        previous = grid
        // Nothing changed: nothing to write (an idle pager writes nothing, as less does; an
        // empty synchronized update every poll was traffic and wake-ups over ssh and tmux).
        if out.count == ANSI.beginSynchronizedUpdate.count && trailer.isEmpty { return [] }
        if !trailer.isEmpty {
            out += trailer
            cursor = nil
        }
        out += ANSI.endSynchronizedUpdate
        return out
    }

    /// One cell that must be printed.
    public struct Change: Hashable, Sendable {
        public var row: Int
        public var column: Int
        public var cell: Cell
    }

    /// The cells to print to turn `old` into `new` (same size), in row-major order.
    ///
    /// As in ratatui: continuation cells are never printed; a cell is reprinted when it
    /// changed or when a wide cell in either frame covered it (a narrow cell printed over
    /// half of a wide one leaves the other half undefined).
    public static func changes(from old: Grid, to new: Grid) -> [Change] {
        var result: [Change] = []
        forEachChange(from: old, to: new) { result.append(Change(row: $1, column: $2, cell: $0)) }
        return result
    }

    /// `changes` without the array; `old == nil` stands for a grid of plain blanks (a cleared
    /// screen).
    static func forEachChange(from old: Grid?, to new: Grid, _ body: (Cell, Int, Int) -> Void) {
        if let old { precondition(old.rows == new.rows && old.columns == new.columns, "frames differ in size") }
        let blank = Cell.blank()
        for r in 0..<new.rows {
            var invalidated = 0, toSkip = 0
            for c in 0..<new.columns {
                let current = new[r, c]
                let before = old?[r, c] ?? blank
                if !current.isContinuation && (current != before || invalidated > 0) && toSkip == 0 {
                    body(current, r, c)
                }
                toSkip = current.isContinuation ? max(0, toSkip - 1) : max(0, current.width - 1)
                let affected = max(current.width, before.width)
                invalidated = max(affected, invalidated) - 1
            }
        }
    }

    private mutating func emit(_ cell: Cell, row: Int, column: Int, depth: ColorDepth, columns: Int, into out: inout [UInt8]) {
        if let cursor, cursor.row == row, cursor.column == column {
            // already there
        } else if let cursor, cursor.row == row, column > cursor.column, column - cursor.column <= 4 {
            out += ANSI.cursorForward(column - cursor.column)
        } else {
            out += ANSI.moveCursor(row: row, column: column)
        }
        // Runs of cells share a style: the terminal is in this one's already when the cell
        // before (emitted since `style` was last set) had it.
        if style == nil || cell.style != emittedStyle {
            let target = cell.style.downgraded(to: depth)
            let current = style ?? .plain
            if style == nil { out += ANSI.resetStyle }
            if current != target {
                if current.hyperlink != target.hyperlink {
                    if current.hyperlink != nil { out += ANSI.hyperlink(nil) }
                    if let link = target.hyperlink { out += ANSI.hyperlink(link) }
                }
                out += sgr(from: current, to: target)
            }
            style = target
            emittedStyle = cell.style
        }
        let oneByte = cell.text.utf8.count == 1
        if oneByte { out.append(cell.text.utf8.first!) } else { out.append(contentsOf: cell.text.utf8) }
        let next = column + cell.width
        // After the last column the cursor is in the "pending wrap" state, and terminals may
        // disagree with us on the width of a cluster of several code points (emoji sequences,
        // Indic conjuncts): in both cases forget the position, so the next cell is placed
        // absolutely.
        if next >= columns || cell.width != 1 || !oneByte && cell.text.unicodeScalars.count > 1 {
            cursor = nil
        } else {
            cursor = (row, next)
        }
    }

    private mutating func sgr(from: CellStyle, to: CellStyle) -> [UInt8] {
        var change = StyleChange(from: from, to: to)
        change.from.hyperlink = nil; change.to.hyperlink = nil
        if let bytes = encoded[change] { return bytes }
        let bytes = ANSI.sgr(from: change.from, to: change.to)
        if encoded.count >= 256 { encoded.removeAll(keepingCapacity: true) }
        encoded[change] = bytes
        return bytes
    }
}
