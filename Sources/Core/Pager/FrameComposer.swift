import CellWidth
import LineLayout
import TerminalScreen
import Viewport

extension PagerState {
    /// The whole screen as a grid: content rows, scroll indicator, status row. Pure; it
    /// looks only at the rows on screen, so its cost does not grow with the document.
    public func frame() -> Grid {
        var grid = Grid(rows: screenRows, columns: screenColumns)
        if let o = outline {
            drawOutline(o, into: &grid)
        } else {
            drawDocument(into: &grid)
        }
        drawStatus(into: &grid)
        return grid
    }

    /// Overlay ranges of one block, strongest last.
    private struct Overlays {
        var matches: [Range<Int>] = []
        var current: Range<Int>?
        var selected: Range<Int>?
        var isEmpty: Bool { matches.isEmpty && current == nil && selected == nil }
    }

    private func overlays(forUnit b: Unit) -> Overlays {
        var o = Overlays()
        let h = highlights(inUnit: b)
        o.matches = h.all
        o.current = h.current
        if let sel = selection, sel.element.unit == b { o.selected = sel.element.range }
        return o
    }

    func drawDocument(into grid: inout Grid) {
        let doc = active
        let theme = config.theme
        let count = doc.layout.rowCount
        let top = doc.top
        var cache: [Unit: Overlays] = [:]
        let gutter = gutterColumns
        var previousSourceLine = top > 0 && top - 1 < doc.layout.endRow ? doc.layout.line(at: top - 1).sourceLine : 0
        for screenRow in 0..<contentRows {
            let row = top + screenRow
            guard row < doc.layout.endRow else { break }
            let line = doc.layout.line(at: row)
            let (unit, rowInUnit) = doc.layout.locate(row)
            if gutter > 0 {
                // A number where a source line starts (or a unit does), blank on its other rows.
                if line.sourceLine != previousSourceLine || rowInUnit == 0 && !doc.isText {
                    let number = String(line.sourceLine)
                    let text = String(repeating: " ", count: max(0, gutter - 1 - number.count)) + number
                    grid.put(text, style: theme.lineNumber, row: screenRow, column: 0)
                }
                previousSourceLine = line.sourceLine
            }
            if !doc.changedUnits.isEmpty, doc.changedUnits.contains(unit), screenColumns > 1,
               rowInUnit == 0 || line.spans.contains(where: { $0.text.contains { !$0.isWhitespace } }) {
                // A reload changed this unit: a cue in the last column until the next key, on
                // its rows with text (not the blank row that separates it from the next block).
                grid.put("▐", style: theme.changeCue, row: screenRow, column: screenColumns - 1)
            }
            let overlay: Overlays
            if let c = cache[unit] { overlay = c } else { overlay = overlays(forUnit: unit); cache[unit] = overlay }
            let drag = mouseDrag.flatMap { $0.moved ? $0 : nil }
            var column = gutter
            for span in line.spans {
                let base = theme.style(for: span.style)
                if (overlay.isEmpty || span.contentOffset == nil) && drag == nil {
                    column = grid.put(span.text, style: base, row: screenRow, column: column)
                    continue
                }
                var offset = span.contentOffset
                for ch in span.text {
                    var style = base
                    if let o = offset {
                        let end = o + ch.utf8.count
                        func hits(_ r: Range<Int>) -> Bool { r.lowerBound < end && o < r.upperBound }
                        if overlay.matches.contains(where: hits) { style = theme.match(base) }
                        if let c = overlay.current, hits(c) { style = theme.currentMatch(base) }
                        if let s = overlay.selected, hits(s) { style = theme.selection(base) }
                        offset = end
                    }
                    if let d = drag, d.contains(row: row, column: column) { style = theme.selection(base) }
                    column = grid.put(String(ch), style: style, row: screenRow, column: column)
                }
            }
        }
        if doc.changedUnits.isEmpty {
            // A preview's rows in proportion to the file: the thumb is about the size it keeps.
            let whole = doc.isPreview && doc.previewShare < 1 ? max(count, Int((Double(count) / doc.previewShare).rounded())) : count
            drawScrollIndicator(top: top, count: whole, into: &grid)
        }
    }

    /// One column on the right edge: the track shows the whole document, the thumb where the
    /// view is and how much of the document it shows (never less than one cell).
    func drawScrollIndicator(top: Row, count: Int, into grid: inout Grid) {
        let top = top.index
        let rows = contentRows
        guard config.showsScrollbar(isText: active.isText), screenColumns > 1, rows > 0, count > rows else { return }
        let column = screenColumns - 1
        let theme = config.theme
        let thumbLength = max(1, min(rows, (rows * rows + count / 2) / count))
        let maxTop = max(1, count - rows)
        let span = rows - thumbLength
        let thumbStart = top >= count - rows ? span : (top * span + maxTop / 2) / maxTop
        let mono = !theme.addsColour
        for r in 0..<rows {
            let onThumb = r >= thumbStart && r < thumbStart + thumbLength
            if onThumb {
                grid.put(mono ? " " : "┃", style: theme.scrollThumb, row: r, column: column)
            } else {
                grid.put("│", style: theme.scrollTrack, row: r, column: column)
            }
        }
    }

    func drawOutline(_ o: OutlineState, into grid: inout Grid) {
        let theme = config.theme
        let headings = active.headings
        let title = "Outline of \(active.name): \(o.entries.count) of \(headings.count) headings"
        grid.put(PagerState.truncate(title, to: screenColumns), style: theme.style(for: .init(role: .heading(1))), row: 0, column: 0)
        let rows = outlineRows
        for i in 0..<rows {
            let e = o.top + i
            guard e < o.entries.count, i + 1 < screenRows - 1 else { break }
            let h = headings[o.entries[e]]
            let marker = o.entries[e] == o.reading ? "▸ " : "  "
            let indent = String(repeating: "  ", count: max(0, h.level - 1))
            let text = PagerState.truncate(marker + indent + h.title, to: screenColumns)
            var style = theme.style(for: .init(role: .heading(min(h.level, 3))))
            style.bold = h.level <= 2
            if e == o.selected { style = theme.selection(style) }
            let end = grid.put(text, style: style, row: i + 1, column: 0)
            if e == o.selected, end < screenColumns {
                grid.put(String(repeating: " ", count: screenColumns - end), style: style, row: i + 1, column: end)
            }
        }
    }

    func drawStatus(into grid: inout Grid) {
        let row = screenRows - 1
        let status = statusText()
        let theme = config.theme
        let style = status.isMessage ? theme.message : theme.statusLine
        let width = screenColumns
        let right = status.right
        let rightWidth = CellWidth.of(right)
        var left = status.left
        let room = width - (rightWidth > 0 ? rightWidth + 2 : 0)
        if room >= 8 || rightWidth == 0 {
            left = PagerState.fitStatusLeft(left, to: max(0, rightWidth > 0 ? room : width))
            grid.put(String(repeating: " ", count: width), style: style, row: row, column: 0)
            grid.put(left, style: style, row: row, column: 0)
            if rightWidth > 0 { grid.put(right, style: style, row: row, column: width - rightWidth) }
        } else {
            // Too narrow for both: the right part (position) wins over the name.
            let text = PagerState.truncate(rightWidth <= width ? right : left, to: width)
            grid.put(String(repeating: " ", count: width), style: style, row: row, column: 0)
            grid.put(text, style: style, row: row, column: 0)
        }
    }
}
