import MarkdownModel

extension PagerState {
    /// Replaces document `index` with a new parse of it (the full document after a quick
    /// preview of its beginning, or a reloaded file), keeping the reader's position: the
    /// viewport's edge or anchor is mapped onto the new layout. Marks and `''` are kept only
    /// as edges (their anchors referred to the old block ids).
    public mutating func replaceDocument(at index: Int, with spec: DocumentSpec) {
        guard documents.indices.contains(index) else { return }
        let old = documents[index]
        var doc = DocumentState(name: spec.name, path: spec.path, document: spec.document,
                                options: layoutOptions, contentRows: contentRows)
        switch old.viewport.position {
        case .top, .bottom: doc.viewport.position = old.viewport.position
        case .anchor:
            // Same text on top: the old top row's block maps to the new document by its index
            // among leaves, which a prefix parse shares with the full one.
            let top = old.top
            if old.rows.rowCount > 0 {
                let a = old.rows.anchor(atRow: top)
                if let i = old.layout.blockIndex(of: a.block), i < doc.layout.blocks.count {
                    var anchor = a
                    anchor.block = doc.layout.blocks[i].block
                    doc.viewport.position = .anchor(anchor)
                }
            }
        }
        doc.filterPattern = nil
        documents[index] = doc
        if index == current {
            selection = nil
            if search != nil { search!.current = nil; search!.counter = nil; search!.ordinal = nil }
        }
    }
}
