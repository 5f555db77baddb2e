import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import TextModel
import TerminalIO
import TerminalScreen
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// Reading positions kept: restored when a document is first shown, is whole or is read
/// again; saved periodically, on leaving a document and at the end (`PositionsBridge` does
/// the store's side).
extension EventLoop {
    /// The current document is Markdown shown from a preview or a partial parse (its full
    /// parse, which hashes its input, is not in yet).
    var awaitingFullParse: Bool {
        let index = state.current
        guard inputs.indices.contains(index), inputs[index].source.kind == .markdown else { return false }
        switch inputs[index].phase {
        case .streaming, .preview, .parsing: return true
        case .complete, .following: return false
        }
    }

    mutating func saveCurrent() {
        lastSave = clock.now()
        positions.save(state: state, loaded: loaded, documentIndex: state.current)
    }

    mutating func saveAll() {
        lastSave = clock.now()
        positions.save(state: state, loaded: loaded, documentIndex: state.current)
        positions.saveHistory(state.searchHistory)
    }

    /// A piped text whose saved position needed more input than had arrived is placed once
    /// enough has (or the input ended), if the reader has not moved from the top meanwhile.
    mutating func restorePending(_ doc: Int) {
        guard inputs.indices.contains(doc), let need = inputs[doc].restoreAtBytes, let reader = inputs[doc].reader,
              inputs[doc].store.count >= need || reader.finished else { return }
        inputs[doc].restoreAtBytes = nil
        guard state.documents.indices.contains(doc), state.documents[doc].top == 0,
              state.documents[doc].previousPosition == nil else { return }
        if let m = restorePosition(doc, deferStreams: false) {
            say(m)
        }
    }

    /// A text stream that has just ended is whole, so it has an identity (its content): its
    /// saved position is restored, if the reader has not moved from the top meanwhile.
    mutating func restoreEndedStream(_ doc: Int) {
        guard inputs.indices.contains(doc) else { return }
        if inputs[doc].restoreAtBytes != nil { restorePending(doc); return }
        guard restoreOnFirstShow, inputs[doc].isStream,
              state.documents.indices.contains(doc), state.documents[doc].top == 0,
              state.documents[doc].previousPosition == nil else { return }
        if let m = restorePosition(doc) { say(m) }
    }

    /// Places document `index` at its saved position, if it has one (`PositionsBridge.placement`);
    /// returns what to say of it.
    mutating func restorePosition(_ index: Int, deferStreams: Bool = true, reopened: Bool = false) -> String? {
        let placement = positions.placement(in: state, loaded: loaded, documentIndex: index, deferStreams: deferStreams,
                                            reopened: reopened) { need in
            // The lines up to the position, handed to the pager (`.textGrew`) before it is placed.
            let indexed = inputs[index].lines?.indexedBytes ?? need
            return indexText(index, limit: need - indexed, inputEnded: inputs[index].reader.map { $0.finished } ?? true)
        }
        guard let placement else { return nil }
        place(placement.event)
        return placement.message(state)
    }

    /// Replaces document `index` with `document`, the reader kept on the same text
    /// (`PositionsBridge.reload`: the new version, then the places found in it).
    mutating func reload(_ document: LoadedDocument, index: Int, markChanges: Bool,
                         prepared: (spec: DocumentSpec, hash: StableHash, facts: DocumentFacts, changedUnits: Set<Unit>)? = nil) {
        guard inputs.indices.contains(index),
              let reload = positions.reload(document, in: state, loaded: loaded, index: index, markChanges: markChanges,
                                            prepared: prepared) else { return }
        inputs[index].source = document
        place(reload.reloaded)
        place(reload.placing(state, loaded))
    }

    /// The saved search history into the session, once.
    mutating func loadHistory() {
        guard let event = positions.loadHistory() else { return }
        place(event)
        positions.historyLoaded(count: state.searchHistory.count)
    }
}
