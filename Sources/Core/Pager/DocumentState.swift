import LineLayout
import MarkdownModel
import TextSearch
import Viewport

/// A heading of a document, for the status line, the outline and `]]`/`[[`.
public struct HeadingEntry: Hashable, Sendable {
    /// The heading's unit in the layout (width-independent: unit order never changes).
    public var unit: Unit
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
    /// The document laid out at the current width: the one row space (filter included).
    public private(set) var layout: DocumentLayout
    /// Exact row counts at recent widths: resizing back to a width seen before costs nothing.
    private var layoutCache = LayoutCache(capacity: 2)
    public var viewport: Viewport
    public var marks: [Character: ScrollPosition] = [:]
    /// Marks set with `M`: their line is the view's bottom row, not its top (`|` pipes from it).
    public var bottomMarks: Set<Character> = []
    /// Where the view was before the last jump (`''`).
    public var previousPosition: ScrollPosition?
    public private(set) var headings: [HeadingEntry]
    /// Headings and links in document order, for Tab / Shift-Tab.
    public private(set) var elements: SelectableElements
    /// GitHub-style anchors (`#installation`) → heading. Made when asked (a test, the
    /// following of a link: `heading(slug:)`): kept for every document, they were a large
    /// part of a big changelog's navigation.
    public var slugs: [String: HeadingEntry] { DocumentState.slugs(for: headings) }

    /// The heading a GitHub-style anchor names, as `slugs` has it (the last heading with that
    /// slug), found by walking the headings.
    public func heading(slug: String) -> HeadingEntry? {
        var found: HeadingEntry?
        DocumentState.forEachSlug(of: headings) { s, h in if s == slug { found = h } }
        return found
    }
    /// Only the beginning of the document is parsed yet (see `DocumentSpec.isPreview`).
    public var isPreview = false
    /// A preview's share of the whole file (`DocumentSpec.previewShare`).
    public var previewShare = 1.0
    /// The key reference (`h`), which the pager makes itself: not a file of the list, no
    /// input behind it (see `PagerState.openHelp` for where that matters).
    public internal(set) var isHelp = false
    /// Filter (`&pattern`): its pattern and the units it shows, in order; nil = all.
    public private(set) var filterPattern: String?
    public private(set) var filterUnits: [Unit]?
    /// The filter's compiled pattern (to work it out again over a document that replaces this one).
    public private(set) var filterSearch: SearchPattern?
    /// The filter shows the units that match (`&`), or those that do not (`&!`).
    public private(set) var filterMatching = true
    /// A filter carried over from the document this one replaced (the preview before the
    /// full parse, the file before a reload), worked out again over this one a slice of
    /// units at a time (`PagerState.idle`), so that no key waits for a scan of the whole
    /// document; the units it had found show meanwhile.
    var refilter: Refilter?
    struct Refilter {
        let pattern: SearchPattern
        let text: String
        var matching = true
        /// The next text to search (of all the units': text i is unit i).
        var next: TextIndex = 0
        var found: [Unit] = []
    }
    /// Bytes of input read so far while it is still being read (status line).
    public var bytesRead = 0
    /// The input ended on a read error (shown once, then kept for `=`).
    public var readError: String?
    /// Why a code block of this document was shown without colours (the first such note),
    /// said on the status line once.
    public internal(set) var highlightNote: String?
    /// Units that changed in the last reload (a cue in the margin until the next key).
    public var changedUnits: Set<Unit> = []
    /// The top row the view's surroundings were last laid out ahead for (`prefetch`).
    private var prefetchedTop: Row?
    /// The options whose exact row counts this document waits for: a large document re-laid
    /// out at a width not seen before shows estimated counts (exact around the view) until the
    /// run loop counts its rows off the run loop and hands them over (`takeRowCounts`).
    public private(set) var countsWanted: LayoutOptions?
    /// Documents with at least this many units are counted off the run loop after a resize.
    public static let backgroundCountUnits = 4096
    /// … or with this much text (a few long blocks: one 10 MB paragraph at width 1 is 10
    /// million rows to count).
    public static let backgroundCountBytes = 1 << 20

    public init(name: String, path: String?, document: Document, options: LayoutOptions, contentRows: Int) {
        // (The layouts the count made are kept: the first screen's blocks are not laid out twice.)
        self.init(name: name, path: path, layout: DocumentLayout(document: document, options: options), contentRows: contentRows)
    }

    public init(spec: DocumentSpec, options: LayoutOptions, contentRows: Int) {
        switch spec.source {
        case .markdown(let document):
            if let built = spec.prebuilt {
                // Counted without the highlighter (the parse started before it joined): the
                // same rows, which the pager's options then lay out with their colours.
                let sameRows = built.options.rowsKey == options.rowsKey
                self.init(name: spec.name, path: spec.path,
                          layout: DocumentLayout(content: built.content, options: sameRows ? options : built.options,
                                                 rowCounts: built.rowCounts),
                          contentRows: contentRows, navigation: built.navigation)
                // Built for options the pager had before (a resize during the parse): the
                // content is the same at every width, only the counts are not.
                if !sameRows {
                    relayout(options: options, contentRows: contentRows)
                }
            } else {
                self.init(name: spec.name, path: spec.path, document: document, options: options, contentRows: contentRows)
            }
            isPreview = spec.isPreview
            previewShare = spec.isPreview ? min(1, max(0.000_001, spec.previewShare)) : 1
        case .text(let text):
            self.init(name: spec.name, path: spec.path, layout: DocumentLayout(content: text, options: options),
                      contentRows: contentRows)
        }
    }


    public var isText: Bool { layout.content.asText != nil }

    /// The input is still being read (more units may come), or only its beginning is parsed
    /// (a preview: the full parse replaces it). Keys that need the whole document (`G`, `Ng`,
    /// `N%`, a search past what is here) wait for it, as on a pipe.
    public var isGrowing: Bool { isPreview || !layout.content.isComplete }

    /// Takes a new snapshot of its text (the same lines and maybe more, `.textGrew`): the new
    /// units are added with estimated counts; the units it had never change, so they keep
    /// their counts and rows.
    public mutating func textGrew(_ snapshot: TextContent) {
        if layout.grow(to: snapshot) > 0, filterUnits != nil {
            // A filter shows only the units it found; new units are hidden until `&` again.
            layout.setShown(filterUnits)
        }
        prepareView()
    }

    /// What the background pass should count to make this document's row counts exact: its
    /// text lines at the layout's width, once the input is whole (a growing pipe stays
    /// estimated until its end) and while some count is still an estimate. Nil otherwise
    /// (Markdown is counted when laid out; chopped lines are one row each).
    public var rowCountRequest: RowCountRequest? {
        guard let text = layout.content.asText, text.isComplete, !layout.isExact,
              !layout.options.chopLongLines else { return nil }
        return RowCountRequest(content: text, width: layout.options.width)
    }

    /// Takes in exact counts from the background pass (dropped when they were counted for
    /// another width or content). The view keeps its anchor, so no text moves on screen.
    public mutating func apply(_ chunk: RowCountChunk) {
        layout.apply(chunk)
    }

    public init(name: String, path: String?, layout: DocumentLayout, contentRows: Int) {
        self.init(name: name, path: path, layout: layout, contentRows: contentRows,
                  navigation: Navigation(layout.content))
    }

    init(name: String, path: String?, layout: DocumentLayout, contentRows: Int, navigation: Navigation) {
        self.name = name
        self.path = path
        self.layout = layout
        self.viewport = Viewport(position: .top, contentRows: contentRows)
        self.headings = navigation.headings
        self.elements = navigation.elements
        layoutCache.store(layout.index, for: layout.options)
        prepareView()
    }

    /// Headings and Tab's elements of a content: a walk over every unit, made with the
    /// prebuilt content off the run loop (`DocumentSpec.prebuild`) for a large parse.
    struct Navigation: Sendable {
        var headings: [HeadingEntry]
        var elements: SelectableElements

        init(_ content: any LayoutContent) {
            headings = DocumentState.headings(of: content)
            elements = DocumentState.elements(of: content, headings: headings)
        }
    }

    /// The Markdown document (nil for other content).
    public var document: Document? { layout.document }
    public var content: any LayoutContent { layout.content }

    static func headings(of content: any LayoutContent) -> [HeadingEntry] {
        guard let markdown = content.asMarkdown else { return [] }
        var headings: [HeadingEntry] = []
        for u in markdown.unitRange {
            if let level = markdown.headingLevel(ofUnit: u) {
                headings.append(HeadingEntry(unit: u, block: markdown.id(ofUnit: u), level: level,
                                             title: markdown.text(ofUnit: u)))
            }
        }
        return headings
    }

    /// Lays the document out again (new width or options) keeping the same position: the
    /// viewport holds an anchor or an edge, which the new layout maps to its row. Counts seen
    /// at this width before come back exact; otherwise they are counted now.
    /// Lays the units of `blocks` out again (their colours changed, not their rows). True when
    /// `note` is this document's first note about highlighting (kept in `highlightNote`).
    mutating func codeHighlighted(blocks: [BlockID], note: String?) -> Bool {
        for block in blocks {
            guard let units = layout.content.units(covering: block) else { continue }
            for u in units { layout.refresh(unit: u) }
        }
        guard let note, highlightNote == nil else { return false }
        highlightNote = note
        return true
    }

    /// An image of this document's content was drawn: the units showing it get its rows, and
    /// counts kept for other widths are dropped (they were made without it).
    mutating func pictureArrived(source: String) {
        layout.pictureArrived(source: source)
        layoutCache = LayoutCache(capacity: 2)
    }

    public mutating func relayout(options: LayoutOptions, contentRows: Int) {
        viewport.contentRows = max(0, contentRows)
        if options != layout.options, isText {
            // Text: estimates from line lengths, made exact around the view as it goes (a
            // 1 GB log is never laid out whole). Chopped lines are one row each.
            layout = layout.relaidOut(options: options,
                                      rowCounts: options.width == layout.options.width
                                          && options.chopLongLines == layout.options.chopLongLines ? layout.index : nil)
        } else if options != layout.options, options.rowsKey == layout.options.rowsKey {
            // Only the highlighter changed (it joins after the first frame): the same counts;
            // the rows are laid out again for their colours. (Counting a large changelog again
            // for it, off the loop, delayed its exact page numbers noticeably.)
            layout = layout.relaidOut(options: options, rowCounts: layout.index)
            if countsWanted != nil { countsWanted = options }
        } else if options != layout.options {
            layoutCache.store(layout.index, for: layout.options)
            var counts = layoutCache.counts(for: options)
            countsWanted = nil
            let big = layout.unitCount >= DocumentState.backgroundCountUnits
                || (layout.content.asMarkdown?.textBytes ?? 0) >= DocumentState.backgroundCountBytes
            if counts == nil, big {
                // Estimates now (made exact around the view); the exact counts come later.
                layout = layout.relaidOut(options: options)
                countsWanted = options
            } else if counts == nil {
                var fresh = RowIndex()
                for n in layout.content.rowCounts(of: layout.unitRange, options: options) {
                    fresh.append(count: n, exact: true)
                }
                counts = fresh
            }
            if var counts {
                counts.setShown(filterUnits)
                layout = layout.relaidOut(options: options, rowCounts: counts)
            }
        }
        prepareView()
    }

    /// Exact row counts of every unit at `options`, counted off the run loop for `content`
    /// (see `countsWanted`); ignored when the document or its options changed since.
    public mutating func takeRowCounts(_ counts: [Int], options: LayoutOptions, content: any LayoutContent) {
        // By `rowsKey`: the highlighter may have joined while the counts were made.
        guard countsWanted?.rowsKey == options.rowsKey, layout.options.rowsKey == options.rowsKey,
              counts.count == layout.unitCount,
              content as AnyObject === layout.content as AnyObject else { return }
        var index = RowIndex()
        for n in counts { index.append(count: n, exact: true) }
        index.setShown(filterUnits)
        layout = layout.relaidOut(options: layout.options, rowCounts: index)
        layoutCache.store(layout.index, for: options)
        countsWanted = nil
        prepareView()
    }

    /// Lays out the units around the view (a screen above, two below) so that scrolling,
    /// searching and drawing there work on exact rows. Called after every change of the view.
    public mutating func prepareView() {
        let rows = max(1, viewport.contentRows)
        switch viewport.position {
        case .top:
            layout.prepare(aroundUnit: 0, before: 0, after: 2 * rows)
        case .bottom:
            layout.prepare(aroundUnit: max(0, layout.lastUnit), before: 2 * rows, after: 0)
        case .anchor(let a):
            layout.prepare(around: a, before: rows, after: 2 * rows)
        }
    }

    /// Whether the rows a page or two away from the view may not be laid out yet.
    public var wantsPrefetch: Bool { layout.rowCount > 0 && prefetchedTop != top }

    /// Lays out (and highlights) two pages before and four after the view, in the time
    /// between keys, so that paging into them costs a key no layout: a screen of code
    /// otherwise runs the highlighter on the key's time.
    public mutating func prefetch() {
        let rows = max(1, viewport.contentRows)
        switch viewport.position {
        case .top: layout.prepare(aroundUnit: 0, before: 0, after: 5 * rows)
        case .bottom: layout.prepare(aroundUnit: max(0, layout.lastUnit), before: 5 * rows, after: 0)
        case .anchor(let a): layout.prepare(around: a, before: 2 * rows, after: 4 * rows)
        }
        prefetchedTop = top
    }

    /// Prepares the rows around unit `u` (before a jump or a reveal lands there).
    public mutating func prepare(aroundUnit u: Unit) {
        let rows = max(1, viewport.contentRows)
        layout.prepare(aroundUnit: u, before: 2 * rows, after: 2 * rows)
    }

    public mutating func setFilter(_ units: [Unit]?, pattern: String?, compiled: SearchPattern? = nil,
                                   matching: Bool = true) {
        let anchor = viewport.position
        layout.setShown(units)
        filterUnits = units
        filterPattern = units == nil ? nil : pattern
        filterSearch = units == nil ? nil : compiled
        filterMatching = units == nil || matching
        refilter = nil
        viewport.position = anchor
        prepareView()
    }

    public var top: Row { viewport.top(in: layout) }

    /// The heading whose section contains the top row (the last heading at or before it).
    public func sectionHeading(atRow row: Row) -> HeadingEntry? {
        guard layout.rowCount > 0, !headings.isEmpty else { return nil }
        let unit = layout.locate(min(row, Row(layout.rowCount - 1))).unit
        var lo = 0, hi = headings.count - 1
        guard headings[0].unit <= unit else { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if headings[mid].unit <= unit { lo = mid } else { hi = mid - 1 }
        }
        return headings[lo]
    }

    /// Titles of the headings enclosing a row, outermost first.
    public func headingPath(atRow row: Row) -> [String] {
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

    /// Keeps the view on the rows it shows while input still arrives. At the bottom it would
    /// follow the end as lines come in (`.bottom` is sticky), and the run loop would read on
    /// to keep it filled: after `G` or `F` is stopped by a key, the reading stops, and so
    /// must the view, as in less.
    public mutating func holdView() {
        guard isGrowing, case .bottom = viewport.position, layout.rowCount > 0 else { return }
        viewport.position = .anchor(layout.anchor(atRow: top))
    }

    /// Moves the view, remembering where it was for `''` (a jump, in less's sense).
    public mutating func jump(to position: ScrollPosition) {
        let before = viewport.position
        viewport.position = position
        prepareView()
        if viewport.top(in: layout) != Viewport(position: before, contentRows: viewport.contentRows).top(in: layout) {
            previousPosition = before
        }
    }

    /// The view with its top on `row`, as a jump.
    public mutating func jump(toRow row: Row) {
        jump(to: Viewport.position(forTop: row, in: layout, contentRows: viewport.contentRows))
    }

    /// Scrolls by `delta` rows from the current top (the rows between are prepared first, so
    /// the step is exact however far the estimates around it are off).
    public mutating func scroll(by delta: Int) {
        let rows = max(1, viewport.contentRows)
        if case .anchor(let a) = viewport.position {
            layout.prepare(around: a, before: max(0, -delta) + rows, after: max(0, delta) + 2 * rows)
        } else if case .bottom = viewport.position {
            layout.prepare(aroundUnit: max(0, layout.lastUnit), before: max(0, -delta) + 2 * rows, after: 0)
        } else {
            layout.prepare(aroundUnit: 0, before: 0, after: max(0, delta) + 2 * rows)
        }
        viewport = viewport.scrolled(by: delta, in: layout)
        prepareView()
    }
}
