import CellWidth
import LineLayout
import TerminalScreen
import Viewport

/// A mouse drag selecting text, in document coordinates (row of the row map, screen column).
public struct MouseDrag: Hashable, Sendable {
    public var startRow: Row
    public var startColumn: Int
    public var endRow: Row
    public var endColumn: Int
    public var moved = false
    /// -1 while the pointer is held above the view, +1 below, nil inside.
    public var edgeDirection: Int?

    /// The selected span, ordered.
    var ordered: (from: (Row, Int), to: (Row, Int)) {
        let a = (startRow, startColumn), b = (endRow, endColumn)
        return (a.0, a.1) <= (b.0, b.1) ? (a, b) : (b, a)
    }

    func contains(row: Row, column: Int) -> Bool {
        let (from, to) = ordered
        return (row, column) >= from && (row, column) <= to
    }
}

extension PagerState {
    /// Rows a wheel notch scrolls.
    static let wheelRows = 3

    mutating func mouse(_ event: MouseEvent) -> [PagerEffect] {
        if outline != nil {
            switch event.kind {
            case .wheelUp: return outlineKey(.up)
            case .wheelDown: return outlineKey(.down)
            default: return []
            }
        }
        switch event.kind {
        case .wheelUp: scroll(by: -PagerState.wheelRows); return []
        case .wheelDown: scroll(by: PagerState.wheelRows); return []
        case .press(.left):
            guard event.row < contentRows else { return [] }
            let row = active.top + event.row
            let clicked = lastClickedLink
            lastClickedLink = nil
            mouseDrag = MouseDrag(startRow: row, startColumn: event.column, endRow: row, endColumn: event.column)
            // A click on a link selects it; a second click on the same link follows it.
            if let element = element(atRow: row, column: event.column) {
                let elements = active.elements
                let index = elements.indices(inUnit: element.unit).first { elements[$0] == element } ?? 0
                let again = clicked == element && selection?.element == element
                selection = Selection(index: index, element: element)
                if case .link(let url) = element.kind { message = url }
                if again, case .link = element.kind {
                    mouseDrag = nil
                    return followSelection()
                }
            }
            return []
        case .drag(.left):
            guard var drag = mouseDrag else { return [] }
            drag.moved = true
            // The report is clamped to the window: the status row (or below) means "past the
            // bottom edge", the top row with more above means "past the top edge".
            if event.row >= contentRows {
                drag.edgeDirection = 1
                scroll(by: 1)
            } else if event.row <= 0 && active.top > 0 {
                drag.edgeDirection = -1
                scroll(by: -1)
            } else {
                drag.edgeDirection = nil
            }
            let top = active.top
            let screenRow = min(max(0, event.row), max(0, contentRows - 1))
            drag.endRow = top + screenRow
            drag.endColumn = event.row >= contentRows ? screenColumns : event.column
            mouseDrag = drag
            return []
        case .release:
            guard let drag = mouseDrag else { return [] }
            mouseDrag = nil
            guard drag.moved else {
                // A click (press and release in place): remember the link for a second click.
                lastClickedLink = element(atRow: drag.startRow, column: drag.startColumn)
                return []
            }
            let text = selectedText(drag)
            guard !text.isEmpty else { return [] }
            message = "Copied \(text.count) characters"
            return [.copy(text)]
        default:
            return []
        }
    }

    /// While the pointer is held past an edge, keep scrolling one row at a time.
    mutating func dragIdle() -> [PagerEffect] {
        guard var drag = mouseDrag, let dir = drag.edgeDirection else { return [] }
        let before = active.top
        scroll(by: dir)
        let after = active.top
        if after == before { drag.edgeDirection = nil; mouseDrag = drag; return [] }
        drag.endRow = dir > 0 ? after + contentRows - 1 : after
        drag.endColumn = dir > 0 ? screenColumns : 0
        mouseDrag = drag
        return []
    }

    /// The link (or heading) under a screen cell.
    func element(atRow row: Row, column: Int) -> SelectableElement? {
        guard row >= 0, row < active.layout.endRow else { return nil }
        let line = active.layout.line(at: row)
        guard let offset = contentOffset(in: line, column: column) else { return nil }
        let unit = active.layout.locate(row).unit
        let elements = active.elements
        return elements.indices(inUnit: unit).lazy.map { elements[$0] }.first { el in
            el.range.contains(offset) && { if case .link = el.kind { return true } else { return false } }()
        }
    }

    /// The content offset of the character drawn at `column` of a line, if it is content.
    func contentOffset(in line: VisualLine, column: Int) -> Int? {
        var x = 0
        for span in line.spans {
            if column < x + span.width {
                guard var offset = span.contentOffset else { return nil }
                var cx = x
                for ch in span.text {
                    let w = CellWidth.of(ch)
                    if column < cx + max(1, w) { return offset }
                    cx += w
                    offset += ch.utf8.count
                }
                return nil
            }
            x += span.width
        }
        return nil
    }

    /// The rendered text of a drag, as the reader would paste it: content only (no bars or
    /// bullets); rows wrapped from one paragraph joined with the space the wrap consumed;
    /// different blocks on separate lines.
    func selectedText(_ drag: MouseDrag) -> String {
        let (from, to) = drag.ordered
        guard active.layout.rowCount > 0 else { return "" }
        var out = ""
        var previous: (block: Unit, end: Int)?
        for row in max(0, from.0)...min(to.0, active.layout.lastRow) {
            let line = active.layout.line(at: row)
            let block = active.layout.locate(row).unit
            var piece = ""
            var x = 0
            var firstOffset: Int?
            var lastOffset: Int?
            for span in line.spans {
                var offset = span.contentOffset
                for ch in span.text {
                    let w = CellWidth.of(ch)
                    let inside = (row, x) >= from && (row, x) <= to
                    if inside, let o = offset {
                        piece.append(ch)
                        if firstOffset == nil { firstOffset = o }
                        lastOffset = o + ch.utf8.count
                    }
                    x += w
                    if offset != nil { offset! += ch.utf8.count }
                }
            }
            if let f = firstOffset {
                if let p = previous {
                    if p.block == block {
                        // What the wrap consumed: a space for a soft wrap, a line feed for a
                        // hard line break.
                        if f > p.end { out += gapBreaksLine(unit: block, from: p.end, to: f) ? "\n" : " " }
                    } else {
                        out += "\n"
                    }
                }
                out += piece
                previous = (block, lastOffset ?? f)
            }
        }
        return out
    }

    /// Whether the content text between two rows of one block holds a line feed (a hard
    /// line break, or a new line of a code block), rather than only the space a wrap consumed.
    func gapBreaksLine(unit: Unit, from: Int, to: Int) -> Bool {
        let utf8 = active.layout.text(ofUnit: unit).utf8
        guard from >= 0, from < to, to <= utf8.count else { return false }
        let start = utf8.index(utf8.startIndex, offsetBy: from)
        let end = utf8.index(utf8.startIndex, offsetBy: to)
        return utf8[start..<end].contains(UInt8(ascii: "\n"))
    }
}
