import MarkdownModel
import Viewport

extension PagerState {
    /// Replaces document `index` with a new parse of it (the full document after a quick
    /// preview of its beginning, or a reloaded file), keeping the reader's place: the view,
    /// the marks and `''` are mapped onto the new layout by leaf index (exact for a preview,
    /// whose leaves are the full document's first ones; the run loop refines it for edited
    /// files by text fingerprint).
    mutating func replaceDocument(at index: Int, with spec: DocumentSpec, changedUnits: Set<Int> = []) {
        guard documents.indices.contains(index) else { return }
        let old = documents[index]
        var doc = DocumentState(spec: spec, options: layoutOptions, contentRows: contentRows)
        doc.changedUnits = changedUnits
        doc.bytesRead = old.bytesRead
        func map(_ position: ScrollPosition) -> ScrollPosition {
            guard case .anchor(var a) = position else { return position }
            guard let i = old.layout.unitIndex(of: a.block), i < doc.layout.unitCount else { return .top }
            a.block = doc.content.id(ofUnit: i)
            return .anchor(a)
        }
        doc.viewport.position = map(old.viewport.position)
        doc.marks = old.marks.mapValues { map($0) }
        doc.previousPosition = old.previousPosition.map { map($0) }
        if let filter = old.filterPattern, let units = old.filterUnits, doc.layout.unitCount >= old.layout.unitCount {
            doc.setFilter(units, pattern: filter)
        }
        doc.prepareView()
        documents[index] = doc
        if index == current {
            selection = nil
            search?.forgetPosition()
            searchBeforeHelp?.forgetPosition()  // it pointed into the old document
        }
    }
}
