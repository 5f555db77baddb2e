import LineLayout
import MarkdownModel
import Viewport

/// A heading of a document, for the status line, the outline and `]]`/`[[`.
public struct HeadingEntry: Hashable, Sendable {
    /// Index into `DocumentLayout.blocks` (width-independent: leaf order never changes).
    public var blockIndex: Int
    public var block: BlockID
    public var level: Int
    public var title: String
}

/// One open document and everything the reader did in it: where they are, marks, the back
/// stack. Positions are semantic (`ScrollPosition`), so they survive re-layout.
public struct DocumentState: Sendable {
    public var name: String
    /// Canonical path for files (links are resolved against it); nil for standard input.
    public var path: String?
    public let document: Document
    public private(set) var layout: DocumentLayout
    /// Layouts at recent widths: resizing back to a width seen before costs nothing.
    private var layoutCache: LayoutCache
    public private(set) var rows: RowMap
    public var viewport: Viewport
    public var marks: [Character: ScrollPosition] = [:]
    /// Where the view was before the last jump (`''`).
    public var previousPosition: ScrollPosition?
    public let headings: [HeadingEntry]
    /// Headings and links in document order, for Tab / Shift-Tab.
    public let elements: [SelectableElement]
    /// GitHub-style anchors (`#installation`) → heading.
    public let slugs: [String: HeadingEntry]
    /// Only the beginning of the document is parsed yet (see `DocumentSpec.isPreview`).
    public var isPreview = false
    /// Filter (`&pattern`): the block indices shown, nil = all.
    public var filterPattern: String?

    public init(name: String, path: String?, document: Document, options: LayoutOptions, contentRows: Int) {
        self.name = name
        self.path = path
        self.document = document
        var cache = LayoutCache(document: document, capacity: 2)
        let layout = cache.layout(options)
        self.layoutCache = cache
        self.layout = layout
        self.rows = RowMap(layout: layout)
        self.viewport = Viewport(position: .top, contentRows: contentRows)
        var headings: [HeadingEntry] = []
        for (i, b) in layout.blocks.enumerated() {
            if case .heading(let level, _) = document[b.block].kind {
                headings.append(HeadingEntry(blockIndex: i, block: b.block, level: level, title: b.text))
            }
        }
        self.headings = headings
        self.elements = DocumentState.elements(of: layout, headings: headings)
        self.slugs = DocumentState.slugs(for: headings)
    }

    /// Lays the document out again (new width or options) keeping the same position: the
    /// viewport holds an anchor or an edge, which the new layout maps to its row.
    public mutating func relayout(options: LayoutOptions, contentRows: Int) {
        if options != layout.options {
            layout = layoutCache.layout(options)
            rows = RowMap(layout: layout, included: rows.included)
        }
        viewport.contentRows = max(0, contentRows)
    }

    public mutating func setFilter(_ included: [Int]?, pattern: String?) {
        let anchor = viewport.position
        rows = RowMap(layout: layout, included: included)
        filterPattern = pattern
        viewport.position = anchor
    }

    public var top: Int { viewport.top(in: rows) }

    /// The heading whose section contains the top row (the last heading at or before it).
    public func sectionHeading(atRow row: Int) -> HeadingEntry? {
        guard rows.rowCount > 0, !headings.isEmpty else { return nil }
        let blockIndex = rows.locate(min(row, rows.rowCount - 1)).block
        var lo = 0, hi = headings.count - 1
        guard headings[0].blockIndex <= blockIndex else { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if headings[mid].blockIndex <= blockIndex { lo = mid } else { hi = mid - 1 }
        }
        return headings[lo]
    }

    /// Titles of the headings enclosing a row, outermost first.
    public func headingPath(atRow row: Int) -> [String] {
        guard let h = sectionHeading(atRow: row), let idx = headings.firstIndex(of: h) else { return [] }
        var path = [h.title]
        var level = h.level
        var i = idx - 1
        while i >= 0 && level > 1 {
            if headings[i].level < level { path.insert(headings[i].title, at: 0); level = headings[i].level }
            i -= 1
        }
        return path
    }

    /// Moves the view, remembering where it was for `''` (a jump, in less's sense).
    public mutating func jump(to position: ScrollPosition) {
        let before = viewport.position
        viewport.position = position
        if viewport.top(in: rows) != Viewport(position: before, contentRows: viewport.contentRows).top(in: rows) {
            previousPosition = before
        }
    }

    /// The view with its top on `row`, as a jump.
    public mutating func jump(toRow row: Int) {
        jump(to: Viewport.position(forTop: row, in: rows, contentRows: viewport.contentRows))
    }
}
