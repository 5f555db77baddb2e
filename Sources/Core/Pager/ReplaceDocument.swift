import LineLayout
import MarkdownModel
import TextSearch
import Viewport

extension PagerState {
    /// Replaces document `index` with a new parse of it (the full document after a quick
    /// preview of its beginning, or a reloaded file), keeping the reader's place: the view,
    /// the marks and `''` are mapped onto the new layout by leaf index (exact for a preview,
    /// whose leaves are the full document's first ones; the run loop refines it for edited
    /// files by text fingerprint).
    mutating func replaceDocument(at index: Int, with spec: DocumentSpec, changedUnits: Set<Unit> = []) {
        guard documents.indices.contains(index) else { return }
        let old = documents[index]
        var doc = DocumentState(spec: spec, options: layoutOptions(isText: spec.isText), contentRows: contentRows)
        doc.changedUnits = changedUnits
        doc.bytesRead = old.bytesRead
        func map(_ position: ScrollPosition) -> ScrollPosition {
            guard case .anchor(var a) = position else { return position }
            guard let i = old.layout.unitIndex(of: a.block), i < doc.layout.endUnit else { return .top }
            a.block = doc.content.id(ofUnit: i)
            return .anchor(a)
        }
        doc.viewport.position = map(old.viewport.position)
        doc.marks = old.marks.mapValues { map($0) }
        doc.bottomMarks = old.bottomMarks
        doc.previousPosition = old.previousPosition.map { map($0) }
        // A filter is worked out again over the new document (`Refilter`, in the background);
        // meanwhile the units it found that the new document has show.
        // (Also one still being worked out over the old document: a reload can come first.)
        if let text = old.filterPattern ?? old.refilter?.text {
            let matching = old.filterPattern != nil ? old.filterMatching : old.refilter?.matching ?? true
            let kept = (old.filterUnits ?? []).filter { $0 < doc.layout.endUnit }
            if !kept.isEmpty { doc.setFilter(kept, pattern: text, compiled: old.filterSearch, matching: matching) }
            if let pattern = old.filterSearch ?? old.refilter?.pattern {
                doc.refilter = .init(pattern: pattern, text: text, matching: matching)
            }
        }
        doc.prepareView()
        documents[index] = doc
        if index == current {
            selection = nil
            carrySearch()
        }
        // A match kept for coming back pointed into the old document.
        for i in backStack.indices where backStack[i].document == index { backStack[i].search?.forgetPosition() }
    }

    /// The active document was replaced (the full parse after its preview, a reload): the
    /// current match stays when the same unit of the new document still holds it (a
    /// preview's units are the full document's first ones), and its count starts again over
    /// the new document (a search typed during the preview counted the preview only); else
    /// it is forgotten, and the pattern stays, so `n` searches the new document.
    mutating func carrySearch() {
        guard let s = search, let c = s.current, c.unit < active.layout.endUnit,
              s.pattern.matches(in: active.layout.text(ofUnit: c.unit)).contains(c.range) else {
            search?.forgetPosition()
            return
        }
        recountSearch()
    }

    /// A slice of the filter carried over to a new document (`DocumentState.refilter`); once
    /// all units are done, the filter shows what it found (or is lifted when nothing), and
    /// it says so: true.
    @discardableResult
    mutating func stepRefilter(units budget: Int = 8192) -> Bool {
        guard var r = active.refilter else { return false }
        let texts = SearchTexts(content: active.content, shown: nil)
        let end = min(texts.endText, r.next + budget)
        // The texts are all the units (no filter): text i is unit i.
        r.found += DocumentSearcher(pattern: r.pattern, texts: texts).textIndices(in: r.next..<end, matching: r.matching)
            .map { texts.unit(ofText: $0) }
        r.next = end
        guard end == texts.endText else { active.refilter = r; return false }
        if r.found.isEmpty {
            active.setFilter(nil, pattern: nil)
            message = "Pattern not found: the filter \(r.text) is lifted"
        } else {
            showFilter(r.found, text: r.text, pattern: r.pattern, matching: r.matching)
        }
        recountSearch()
        return true
    }
}
