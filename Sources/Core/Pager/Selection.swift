import LineLayout
import MarkdownModel
import Viewport

/// Something the keyboard selection can stop on: a heading or a link.
public struct SelectableElement: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case heading(level: Int), link(String) }
    /// The unit of the layout it is in.
    public var unit: Unit
    /// UTF-8 range of the element in the block's content text.
    public var range: Range<Int>
    public var kind: Kind
}

/// Tab's elements of a Markdown document — its headings and links, in document order —
/// read from the content when asked: element i is found by bisection over the units (the
/// elements before a unit are its links before it, `UnitLinks`, and its headings before it),
/// so nothing is kept per element. (A changelog has many: as `SelectableElement`s with their
/// strings they held several times what 16-byte entries hold.) Within a unit its heading
/// comes first, then its links by position.
public struct SelectableElements: RandomAccessCollection, Sendable {
    private let content: MarkdownContent?
    /// Units of the headings, in order.
    private let headingUnits: [Int32]

    public init() { content = nil; headingUnits = [] }

    init(_ content: MarkdownContent, headings: [HeadingEntry]) {
        self.content = content
        headingUnits = headings.map { Int32(clamping: $0.unit.index) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { content.map { $0.links.count + headingUnits.count } ?? 0 }

    /// Headings in units before `u`.
    private func headings(before u: Int) -> Int {
        var lo = 0, hi = headingUnits.count
        while lo < hi { let mid = (lo + hi) / 2; if Int(headingUnits[mid]) < u { lo = mid + 1 } else { hi = mid } }
        return lo
    }

    /// Elements in units before `u`.
    private func elements(before u: Int, _ content: MarkdownContent) -> Int {
        let links = u < content.unitCount ? content.links.indices(ofUnit: u).lowerBound : content.links.count
        return links + headings(before: u)
    }

    /// Element i's unit, and its place among the unit's elements.
    private func locate(_ i: Int) -> (unit: Int, k: Int, content: MarkdownContent) {
        let content = content!
        precondition(i >= 0 && i < endIndex, "element index out of range")
        // The first unit whose elements end after i.
        var lo = 0, hi = content.unitCount - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if elements(before: mid + 1, content) > i { hi = mid } else { lo = mid + 1 }
        }
        return (lo, i - elements(before: lo, content), content)
    }

    /// The link numbers of unit u, by position.
    private static func links(ofUnit u: Int, _ content: MarkdownContent) -> [Int] {
        let links = content.links
        return links.indices(ofUnit: u).sorted { links.range($0).lowerBound < links.range($1).lowerBound }
    }

    /// What element i is: a heading (its level) or a link (its number).
    private func what(_ i: Int) -> (unit: Unit, heading: Int?, link: Int, content: MarkdownContent) {
        let (u, k, content) = locate(i)
        if let level = content.headingLevel(ofUnit: Unit(u)) {
            if k == 0 { return (Unit(u), level, -1, content) }
            return (Unit(u), nil, Self.links(ofUnit: u, content)[k - 1], content)
        }
        return (Unit(u), nil, Self.links(ofUnit: u, content)[k], content)
    }

    /// Element i's unit and range, without making the element.
    public func unit(at i: Int) -> Unit { Unit(locate(i).unit) }
    public func range(at i: Int) -> Range<Int> {
        let e = what(i)
        if e.heading != nil { return 0..<e.content.withText(ofUnit: e.unit) { $0.count } }
        return e.content.links.range(e.link)
    }

    public subscript(i: Int) -> SelectableElement {
        let e = what(i)
        if let level = e.heading {
            return SelectableElement(unit: e.unit, range: 0..<e.content.withText(ofUnit: e.unit) { $0.count },
                                     kind: .heading(level: level))
        }
        return SelectableElement(unit: e.unit, range: e.content.links.range(e.link),
                                 kind: .link(e.content.links.destination(e.link)))
    }

    /// The indices of the elements in unit `u` (elements come in unit order).
    public func indices(inUnit unit: Unit) -> Range<Int> {
        let u = unit.index
        guard let content, u >= 0, u < content.unitCount else { return endIndex..<endIndex }
        return elements(before: u, content)..<elements(before: u + 1, content)
    }
}

/// The selected element. Semantic (block + content range), so it survives re-layout.
public struct Selection: Hashable, Sendable {
    /// Index into the document's `elements` (-1 for a link of a text document, which are
    /// found as Tab goes, not listed).
    public var index: Int
    public var element: SelectableElement
}

extension DocumentState {
    /// Headings and links in document order (width-independent).
    static func elements(of content: any LayoutContent, headings: [HeadingEntry]) -> SelectableElements {
        guard let markdown = content.asMarkdown else { return SelectableElements() }
        return SelectableElements(markdown, headings: headings)
    }

    /// GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, duplicates
    /// suffixed `-1`, `-2`, … in document order. Keyed by slug → heading.
    static func slugs(for headings: [HeadingEntry]) -> [String: HeadingEntry] {
        var result: [String: HeadingEntry] = [:]
        forEachSlug(of: headings) { s, h in result[s] = h }
        return result
    }

    /// Each heading with its slug, in document order.
    static func forEachSlug(of headings: [HeadingEntry], _ body: (String, HeadingEntry) -> Void) {
        var seen: [String: Int] = [:]
        for h in headings {
            let base = slug(h.title)
            var s = base
            if let n = seen[base] {
                s = "\(base)-\(n)"
                seen[base] = n + 1
            } else {
                seen[base] = 1
            }
            body(s, h)
        }
    }

    /// One title's slug, as GitHub computes it: `downcase`, drop everything that is not a
    /// letter, mark, number, `_`, `-` or space, then spaces → `-`.
    public static func slug(_ title: String) -> String {
        var out = ""
        for scalar in title.lowercased().unicodeScalars {
            let p = scalar.properties
            switch p.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                out.unicodeScalars.append(scalar)
            default:
                if scalar == "-" { out.append("-") } else if scalar == " " { out.append("-") }
            }
        }
        return out
    }
}

extension PagerState {
    /// Rows the element covers in the current row map.
    func rows(of element: SelectableElement) -> Range<Row> {
        active.layout.rows(showing: element.range, inUnit: element.unit)
    }

    /// `rows(of: elements[i])` without making the element (a link's destination string).
    func rows(ofElement i: Int, in elements: SelectableElements) -> Range<Row> {
        active.layout.rows(showing: elements.range(at: i), inUnit: elements.unit(at: i))
    }

    /// Tab / Shift-Tab: the next (previous) link or heading; the view follows it with the
    /// minimal reveal, so it moves only when the element is not fully on screen.
    mutating func selectNext(forward: Bool, count: Int) {
        if active.isText { return selectNextTextLink(forward: forward, count: count) }
        let elements = active.elements
        guard !elements.isEmpty else { message = "No links or headings"; return }
        let top = active.top
        let bottom = top + contentRows  // exclusive
        var index: Int
        var steps = count
        if let sel = selection, sel.index >= 0, sel.index < elements.count, isOnScreen(elements[sel.index]) {
            index = sel.index
        } else {
            // No selection, or it is off screen: start from the view.
            // Elements come in row order, so the first one at or after the top (the last one
            // ending by the bottom) is found by bisection: a few layouts, not one per element.
            if forward {
                var i = firstIndex(in: elements) { rows(ofElement: $0, in: elements).lowerBound >= top }
                while i < elements.count && rows(ofElement: i, in: elements).isEmpty { i += 1 }
                guard i < elements.count else { message = "No more links or headings"; return }
                index = i
            } else {
                var i = firstIndex(in: elements) { rows(ofElement: $0, in: elements).upperBound > bottom } - 1
                while i >= 0 && rows(ofElement: i, in: elements).isEmpty { i -= 1 }
                guard i >= 0 else { message = "No more links or headings"; return }
                index = i
            }
            steps -= 1
        }
        var atEnd = false
        while steps > 0 {
            let next = index + (forward ? 1 : -1)
            guard next >= 0 && next < elements.count else { atEnd = true; break }
            if rows(ofElement: next, in: elements).isEmpty { index = next; continue }  // filtered out
            index = next
            steps -= 1
        }
        selection = Selection(index: index, element: elements[index])
        active.prepare(aroundUnit: elements[index].unit)
        let r = rows(of: elements[index])
        if let moved = active.viewport.revealing(r, in: active.layout, requireWhole: true) {
            active.viewport = moved
        }
        if atEnd {
            message = forward ? "Last link or heading" : "First link or heading"
        } else if case .link(let url) = elements[index].kind {
            message = url
        }
    }

    /// Whether any row of `element` is on screen (Tab then moves on from it).
    func isOnScreen(_ element: SelectableElement) -> Bool {
        let r = rows(of: element)
        return !r.isEmpty && r.lowerBound < active.top + contentRows && r.upperBound > active.top
    }

    /// The most lines Tab looks through for the next link of a text document.
    static let textLinkScanLimit = 100_000

    /// Tab / Shift-Tab in a text document: its OSC 8 links (`ls --hyperlink`, gcc, systemd)
    /// are found line by line from the selection (or the view), not listed up front: a text
    /// document can be a 1 GB log. Lines without an escape are skipped without decoding.
    mutating func selectNextTextLink(forward: Bool, count: Int) {
        guard let content = active.content.asText else { return }
        let top = active.top
        let bottom = top + contentRows
        // Where to look from: after (before) the selection when it is on screen, else from the
        // first line on screen (the last line on screen).
        var unit: Unit
        var after: Int?  // links starting after (before) this offset in `unit`
        if let sel = selection, sel.element.unit < content.endUnit, isOnScreen(sel.element) {
            unit = sel.element.unit
            after = sel.element.range.lowerBound
        } else {
            let row = forward ? top : max(top, min(bottom, active.layout.endRow) - 1)
            unit = active.layout.rowCount > 0 ? active.layout.unitIndex(atRow: row) : 0
            after = nil
        }
        var steps = max(1, count)
        var found: SelectableElement?
        var scanned = 0
        while unit >= 0 && unit < content.endUnit && scanned < Self.textLinkScanLimit {
            var links = content.links(ofUnit: unit).filter { link in
                guard let a = after else { return true }
                return forward ? link.range.lowerBound > a : link.range.lowerBound < a
            }
            if !forward { links.reverse() }
            for link in links {
                found = SelectableElement(unit: unit, range: link.range, kind: .link(link.destination))
                steps -= 1
                if steps == 0 { break }
            }
            if steps == 0 { break }
            after = nil
            unit += forward ? 1 : -1
            scanned += 1
        }
        guard let element = found else {
            message = scanned >= Self.textLinkScanLimit ? "No link in the next \(Self.textLinkScanLimit) lines"
                : forward ? "No more links" : "No links before"
            return
        }
        selection = Selection(index: -1, element: element)
        active.prepare(aroundUnit: element.unit)
        if let moved = active.viewport.revealing(rows(of: element), in: active.layout, requireWhole: true) {
            active.viewport = moved
        }
        if case .link(let url) = element.kind { message = url }
    }

    /// The first element for which `predicate` (false, then true, along the elements) holds.
    /// The first index whose element satisfies `predicate` (false then true along the list).
    private func firstIndex(in elements: SelectableElements, where predicate: (Int) -> Bool) -> Int {
        var lo = 0, hi = elements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if predicate(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Enter on the selection: follow the link (or jump to the heading).
    mutating func followSelection() -> [PagerEffect] {
        guard let sel = selection else { return [] }
        switch sel.element.kind {
        case .heading:
            pushBack()
            jumpToUnit(sel.element.unit)
            return []
        case .link(let destination):
            return follow(destination)
        }
    }

    mutating func follow(_ destination: String) -> [PagerEffect] {
        switch LinkTarget(destination, hostName: config.hostName) {
        case .heading(let raw):
            let fragment = raw.removingPercentEscapes()
            let unit = (active.heading(slug: fragment.lowercased()) ?? active.heading(slug: fragment)).map(\.unit)
                ?? active.content.asMarkdown?.unit(ofAnchor: fragment)  // footnotes and their way back
            guard let unit else {
                message = "No heading #\(fragment)"
                return []
            }
            pushBack()
            jumpToUnit(unit)
            selection = nil
            return []
        case .localFile(let path, let fragment):
            return [.openFile(path: resolved(path), fragment: fragment)]
        case .external(let url):
            message = url
            return [.openURL(url)]
        case .picture(let path):
            let file = resolved(path)
            message = file
            return [.openURL(file.hasPrefix("-") ? "./" + file : file)]
        case .shown(let text):
            message = text
            return []
        }
    }

    /// `path` against the current document's folder (`.` for standard input), unless absolute.
    func resolved(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let base = active.path.map { p -> String in
            guard let slash = p.lastIndex(of: "/") else { return "." }
            return String(p[..<slash])
        } ?? "."
        return base + "/" + path
    }

    mutating func pushBack() {
        backStack.append(BackEntry(document: current, position: active.viewport.position, search: search))
        if backStack.count > 200 { backStack.removeFirst() }
    }

    /// Puts a block's first row at the top of the view (a jump: `''` returns).
    mutating func jumpToUnit(_ unit: Unit) {
        active.prepare(aroundUnit: unit)
        let r = active.layout.rows(ofUnit: unit)
        guard !r.isEmpty else { return }
        active.jump(toRow: r.lowerBound)
    }

    /// Backspace: back to where the last link, outline jump or `h` came from. Back in
    /// another document, the search's match and count there come back when the search is
    /// still the one they belong to (a highlight toggled meanwhile stays toggled); a new
    /// search made meanwhile has no match there yet.
    mutating func goBack() -> [PagerEffect] {
        guard let entry = backStack.popLast() else { message = "Nothing to go back to"; return [] }
        var effects: [PagerEffect] = []
        if entry.document != current, documents.indices.contains(entry.document) {
            effects = switchTo(entry.document)
            if var saved = entry.search, let now = search, now.pattern == saved.pattern, now.forward == saved.forward {
                saved.highlight = now.highlight
                search = saved
            }
        }
        active.jump(to: entry.position)
        selection = nil
        return effects
    }

    /// A followed local file is loaded (`.linkedFileLoaded`).
    mutating func openLinked(_ spec: DocumentSpec, fragment: String?) -> [PagerEffect] {
        pushBack()
        let existing = documents.firstIndex { $0.path != nil && $0.path == spec.path }
        let index = existing ?? open(spec)
        if examining {
            // `:e`: after the current file in the list, as less puts it (a file in the list
            // already stays where it is).
            examining = false
            if existing == nil || !fileList.contains(index) { placeAfterCurrent(index) }
        }
        let effects = switchTo(index)
        if let fragment, let h = active.heading(slug: fragment.removingPercentEscapes().lowercased()) {
            jumpToUnit(h.unit)
        } else if active.isText, let line = LinkTarget.line(fragment: fragment) {
            // Before the lines are all indexed it reads on to the line, as `Ng` does.
            if active.isGrowing { return effects + seek(.line(line)) }
            goToSourceLine(line)
        }
        return effects
    }
}

extension String {
    /// `%20` → space; invalid escapes are kept as written.
    func removingPercentEscapes() -> String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var it = Array(utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%"), it.count >= 2,
               let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v); it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
