import LessOptions
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import Viewport
import Threads

/// Positions captured from the pager's state and saved; the session's searches added to the history.
extension PositionsBridge {
    /// What a position is captured against: the facts of every leaf, or a large text's lines.
    enum Facts {
        case leaves(DocumentFacts)
        case largeText(TextContent)
    }

    private func captureFacts(_ state: PagerState, _ loaded: [LoadedDocument], _ index: Int) -> Facts {
        if PositionsBridge.isLarge(loaded[index]), let text = state.documents[index].layout.content.asText {
            return .largeText(text)
        }
        return .leaves(facts(state, loaded, index))
    }

    func capturePosition(_ position: ScrollPosition, doc: DocumentState, facts: Facts) -> ReadingPosition? {
        let rows = doc.layout
        guard rows.rowCount > 0 else { return nil }
        let top = Viewport(position: position, contentRows: doc.viewport.contentRows).top(in: doc.layout)
        let anchor = doc.layout.anchor(atRow: min(top, max(0, doc.layout.lastRow)))
        guard case .leaves(let facts) = facts else {
            if case .largeText(let text) = facts { return LargeText.capture(anchor: anchor, in: text) }
            return nil
        }
        let line = doc.layout.line(at: min(top, doc.layout.lastRow))
        let fraction = Double(top.index) / Double(max(1, doc.layout.rowCount))
        return capture(anchor: anchor, facts: facts, fraction: fraction, sourceLine: line.sourceLine)
    }

    /// Saves document `index`'s position, `''` and marks. Skips the write when nothing changed.
    func save(state: PagerState, loaded: [LoadedDocument], documentIndex index: Int) {
        guard enabled, PositionsBridge.keepsPosition(loaded, index), state.documents.indices.contains(index) else { return }
        let doc = state.documents[index]
        let facts = captureFacts(state, loaded, index)
        guard let position = capturePosition(doc.viewport.position, doc: doc, facts: facts) else { return }
        let hash = contentHash(loaded, index)
        let key = PositionsBridge.key(for: loaded[index], hash: hash)
        var marks: [Character: ReadingPosition] = [:]
        for (letter, p) in doc.marks { marks[letter] = capturePosition(p, doc: doc, facts: facts) }
        let previous = doc.previousPosition.flatMap { capturePosition($0, doc: doc, facts: facts) }
        let entry = DocumentEntry(key: key, contentHash: hash, timestamp: 0, position: position,
                                  previous: previous, marks: marks)
        if lastSaved[key] == entry { return }
        let now = Platform.secondsSinceEpoch()
        let result = store.updateReporting { snapshot in
            var e = entry
            e.timestamp = now
            snapshot.merge(e)
        }
        saved(result)
        // Only a save that reached the disk counts as done (a failed one is tried again).
        if result.saved { lastSaved[key] = entry }
    }

    private func saved(_ result: PositionStore.SaveReport) {
        note(result.notice)
        note(result.failure, atExit: false)
        saveFailure = result.failure
    }

    /// Adds the searches made in this session to the persisted history.
    func saveHistory(_ history: [String]) {
        guard enabled, history.count > recordedSearches else { return }
        let now = Platform.secondsSinceEpoch()
        let new = history[recordedSearches...]
        recordedSearches = history.count
        let result = store.updateReporting { snapshot in
            snapshot.mergeSearches(new.enumerated().map { SearchRecord(pattern: $1, timestamp: now + Double($0) * 0.001) })
        }
        note(result.notice)
        note(result.failure, atExit: false)
        if saveFailure == nil { saveFailure = result.failure }
    }
}
