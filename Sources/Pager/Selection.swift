import LineLayout
import MarkdownModel
import Viewport

/// Something the keyboard selection can stop on: a heading or a link.
public struct SelectableElement: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case heading(level: Int), link(String) }
    /// Index into `DocumentLayout.blocks`.
    public var blockIndex: Int
    /// UTF-8 range of the element in the block's content text.
    public var range: Range<Int>
    public var kind: Kind
}

/// Tab's elements of a Markdown document — its headings and links, in document order — kept
/// compact: 16 bytes each, a link named by its number in the content's `UnitLinks`. An element
/// is made (with its destination string) only when it is read. (A changelog has 135,000
/// links; as `SelectableElement`s with their strings they held ~19 MB.)
public struct SelectableElements: RandomAccessCollection, Sendable {
    private struct Entry: Sendable {
        var unit: Int32
        var lower: Int32, upper: Int32
        /// A link's number in `links` (>= 0), or minus a heading's level.
        var what: Int32
    }
    private var entries: [Entry] = []
    private var links: UnitLinks?

    public init() {}

    /// The headings (`headings`, in unit order) and links of `content`, in document order:
    /// within a unit the heading first, then its links by position.
    init(_ content: MarkdownContent, headings: [HeadingEntry]) {
        let links = content.links
        self.links = links
        var h = 0
        for u in 0..<content.unitCount {
            if h < headings.count, headings[h].blockIndex == u {
                let length = content.withText(ofUnit: u) { $0.count }
                entries.append(Entry(unit: Int32(clamping: u), lower: 0, upper: Int32(clamping: length),
                                     what: -Int32(clamping: headings[h].level)))
                h += 1
            }
            let numbers = links.indices(ofUnit: u)
            guard !numbers.isEmpty else { continue }
            for i in numbers.sorted(by: { links.range($0).lowerBound < links.range($1).lowerBound }) {
                let r = links.range(i)
                entries.append(Entry(unit: Int32(clamping: u), lower: Int32(clamping: r.lowerBound),
                                     upper: Int32(clamping: r.upperBound), what: Int32(clamping: i)))
            }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    /// Element i's unit and range, without making the element.
    public func unit(at i: Int) -> Int { Int(entries[i].unit) }
    public func range(at i: Int) -> Range<Int> { Int(entries[i].lower)..<Int(entries[i].upper) }

    public subscript(i: Int) -> SelectableElement {
        let e = entries[i]
        let kind: SelectableElement.Kind = e.what < 0 ? .heading(level: Int(-e.what))
            : .link(links?.destination(Int(e.what)) ?? "")
        return SelectableElement(blockIndex: Int(e.unit), range: Int(e.lower)..<Int(e.upper), kind: kind)
    }

    /// The indices of the elements in unit `u` (elements come in unit order).
    public func indices(inUnit u: Int) -> Range<Int> {
        func first(_ above: (Int32) -> Bool) -> Int {
            var lo = 0, hi = entries.count
            while lo < hi { let mid = (lo + hi) / 2; if above(entries[mid].unit) { hi = mid } else { lo = mid + 1 } }
            return lo
        }
        return first { Int($0) >= u }..<first { Int($0) > u }
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
        guard let markdown = content as? MarkdownContent else { return SelectableElements() }
        return SelectableElements(markdown, headings: headings)
    }

    /// GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, duplicates
    /// suffixed `-1`, `-2`, … in document order. Keyed by slug → heading.
    static func slugs(for headings: [HeadingEntry]) -> [String: HeadingEntry] {
        var seen: [String: Int] = [:]
        var result: [String: HeadingEntry] = [:]
        for h in headings {
            let base = slug(h.title)
            var s = base
            if let n = seen[base] {
                s = "\(base)-\(n)"
                seen[base] = n + 1
            } else {
                seen[base] = 1
            }
            result[s] = h
        }
        return result
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
    func rows(of element: SelectableElement) -> Range<Int> {
        active.layout.rows(showing: element.range, inUnit: element.blockIndex)
    }

    /// `rows(of: elements[i])` without making the element (a link's destination string).
    func rows(ofElement i: Int, in elements: SelectableElements) -> Range<Int> {
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
        active.prepare(aroundUnit: elements[index].blockIndex)
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
        guard let content = active.content as? TextContent else { return }
        let top = active.top
        let bottom = top + contentRows
        // Where to look from: after (before) the selection when it is on screen, else from the
        // first line on screen (the last line on screen).
        var unit: Int
        var after: Int?  // links starting after (before) this offset in `unit`
        if let sel = selection, sel.element.blockIndex < content.unitCount, isOnScreen(sel.element) {
            unit = sel.element.blockIndex
            after = sel.element.range.lowerBound
        } else {
            let row = forward ? top : max(top, min(bottom, active.layout.rowCount) - 1)
            unit = active.layout.rowCount > 0 ? active.layout.unitIndex(atRow: row) : 0
            after = nil
        }
        var steps = max(1, count)
        var found: SelectableElement?
        var scanned = 0
        while unit >= 0 && unit < content.unitCount && scanned < Self.textLinkScanLimit {
            var links = content.links(ofUnit: unit).filter { link in
                guard let a = after else { return true }
                return forward ? link.range.lowerBound > a : link.range.lowerBound < a
            }
            if !forward { links.reverse() }
            for link in links {
                found = SelectableElement(blockIndex: unit, range: link.range, kind: .link(link.destination))
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
        active.prepare(aroundUnit: element.blockIndex)
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
            jumpToBlock(sel.element.blockIndex)
            return []
        case .link(let destination):
            return follow(destination)
        }
    }

    mutating func follow(_ destination: String) -> [PagerEffect] {
        switch LinkTarget(destination, hostName: config.hostName) {
        case .heading(let raw):
            let fragment = raw.removingPercentEscapes()
            let unit = (active.slugs[fragment.lowercased()] ?? active.slugs[fragment]).map(\.blockIndex)
                ?? (active.content as? MarkdownContent)?.unit(ofAnchor: fragment)  // footnotes and their way back
            guard let unit else {
                message = "No heading #\(fragment)"
                return []
            }
            pushBack()
            jumpToBlock(unit)
            selection = nil
            return []
        case .localFile(let path, let fragment):
            return [.openFile(path: resolved(path), fragment: fragment)]
        case .external(let url):
            message = url
            return [.openURL(url)]
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
        backStack.append(BackEntry(document: current, position: active.viewport.position))
        if backStack.count > 200 { backStack.removeFirst() }
    }

    /// Puts a block's first row at the top of the view (a jump: `''` returns).
    mutating func jumpToBlock(_ blockIndex: Int) {
        active.prepare(aroundUnit: blockIndex)
        let r = active.layout.rows(ofUnit: blockIndex)
        guard !r.isEmpty else { return }
        active.jump(toRow: r.lowerBound)
    }

    /// Backspace: back to where the last link or outline jump came from.
    mutating func goBack() -> [PagerEffect] {
        guard help == nil else { closeHelp(); return [] }
        guard let entry = backStack.popLast() else { message = "Nothing to go back to"; return [] }
        var effects: [PagerEffect] = []
        if entry.document != current, documents.indices.contains(entry.document) {
            effects = switchTo(entry.document)
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
        let effects = switchTo(index)
        if let fragment, let h = active.slugs[fragment.removingPercentEscapes().lowercased()] {
            jumpToBlock(h.blockIndex)
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
