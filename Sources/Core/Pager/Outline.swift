import TerminalScreen
import Viewport
import TextBasics

/// The full-screen table of contents (`o`).
public struct OutlineState: Hashable, Sendable {
    public var filter = LineEditor()
    /// Indices into the document's headings that pass the filter.
    public var entries: [Int]
    /// Index into `entries` of the selected heading.
    public var selected: Int
    /// First entry on screen.
    public var top: Int
    /// The heading of the section being read when the outline opened.
    public var reading: Int?
}

extension PagerState {
    /// Rows of the outline list: the screen minus the title row and the status row.
    var outlineRows: Int { max(1, screenRows - 2) }

    mutating func openOutline() {
        let doc = active
        guard !doc.headings.isEmpty else { message = "No headings"; return }
        let reading = doc.layout.rowCount > 0 ? doc.sectionHeading(atRow: doc.top).flatMap { h in doc.headings.firstIndex(of: h) } : nil
        var o = OutlineState(entries: Array(doc.headings.indices), selected: reading ?? 0, top: 0, reading: reading)
        followOutlineSelection(&o)
        outline = o
    }

    func outlineFiltered(_ filter: String) -> [Int] {
        let headings = active.headings
        guard !filter.isEmpty else { return Array(headings.indices) }
        let needle = filter.lowercased()
        return headings.indices.filter { headings[$0].title.lowercased().containsText(needle) }
    }

    /// The list follows its selection with the same minimal reveal as the document.
    func followOutlineSelection(_ o: inout OutlineState) {
        let rows = outlineRows
        o.selected = min(max(0, o.selected), max(0, o.entries.count - 1))
        if let t = ScrollGeometry.reveal(o.selected..<(o.selected + 1), top: o.top, contentRows: rows,
                                         rowCount: o.entries.count) {
            o.top = t
        }
        o.top = ScrollGeometry.clampTop(o.top, rowCount: o.entries.count, contentRows: rows)
    }

    mutating func outlineKey(_ key: Key) -> [PagerEffect] {
        guard var o = outline else { return [] }
        let filtering = !o.filter.characters.isEmpty
        var key = key
        if !filtering {
            // Until a filter is typed, less-style letters move; any other character starts one.
            switch key {
            case .char("j"): key = .down
            case .char("k"): key = .up
            case .char(" "): key = .pageDown
            case .char("b"): key = .pageUp
            case .char("g"): key = .home
            case .char("G"): key = .end
            case .char("q"), .char("o"): outline = nil; return []
            default: break
            }
        }
        switch key {
        case .escape, .ctrl("c"):
            if filtering {
                o.filter = LineEditor(); o.entries = outlineFiltered("")
                o.selected = o.reading ?? 0
            } else {
                outline = nil; return []
            }
        case .down, .tab, .ctrl("n"):
            o.selected += 1
        case .up, .backTab, .ctrl("p"):
            o.selected -= 1
        case .pageDown, .ctrl("f"):
            o.selected += max(1, outlineRows - 1)
        case .pageUp, .ctrl("b"):
            o.selected -= max(1, outlineRows - 1)
        case .home:
            o.selected = 0
        case .end:
            o.selected = o.entries.count - 1
        case .enter:
            outline = nil
            guard o.entries.indices.contains(o.selected) else { return [] }
            let heading = active.headings[o.entries[o.selected]]
            pushBack()
            jumpToUnit(heading.unit)
            return []
        default:
            let selectedHeading = o.entries.indices.contains(o.selected) ? o.entries[o.selected] : nil
            guard o.filter.handle(key) == .edited else { return [] }
            o.entries = outlineFiltered(o.filter.text)
            o.selected = selectedHeading.flatMap { o.entries.firstIndex(of: $0) } ?? 0
        }
        followOutlineSelection(&o)
        outline = o
        return []
    }
}
