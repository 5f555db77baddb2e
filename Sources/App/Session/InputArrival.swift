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

/// Input that arrives while the reader reads: text indexed in slices between keys, the
/// reader let on as the view nears the end of what has arrived.
extension EventLoop {
    /// Bytes of a file indexed per slice between keys (a few ms each).
    static let indexSliceBytes = 8 << 20

    /// Bytes indexed per slice when the reader asked for the end (`G`, `F`, a search).
    static let demandSliceBytes = 64 << 20

    /// Text whose lines are not all found yet (a file, or a pipe that delivered faster
    /// than one slice): indexed a slice at a time between keys, so keys are never kept waiting.
    var hasBackgroundWork: Bool {
        inputs.contains { slot in
            guard let lines = slot.lines else { return false }
            return slot.reader == nil ? !lines.isComplete : lines.indexedBytes < slot.store.count
        }
    }

    /// Finds more of text document `doc`'s lines (`DocumentInput.indexText`) and hands the
    /// pager their new snapshot (`.textGrew`) when it holds more lines or the end; returns
    /// that snapshot (nil: nothing new).
    @discardableResult
    mutating func indexText(_ doc: Int, limit: Int = .max, inputEnded: Bool) -> TextContent? {
        guard inputs[doc].indexText(limit: limit, inputEnded: inputEnded), let text = inputs[doc].text else { return nil }
        place(.textGrew(document: doc, content: text))
        return text
    }

    /// Indexes the next slice of every text input not done yet.
    mutating func indexSlice() -> [PagerEffect] {
        var effects: [PagerEffect] = []
        for i in inputs.indices {
            guard let lines = inputs[i].lines else { continue }
            if inputs[i].reader != nil {
                guard lines.indexedBytes < inputs[i].store.count else { continue }
                // Complete only once `.ended` has been taken (with its error, if any).
                indexText(i, limit: EventLoop.indexSliceBytes, inputEnded: inputs[i].inputEnded)
                if inputs[i].textIsComplete {
                    effects += finishText(i)
                } else {
                    effects += apply(.inputArrived(document: i))
                }
                continue
            }
            guard !lines.isComplete else { continue }
            let limit = inputs[i].indexToEnd ? EventLoop.demandSliceBytes : EventLoop.indexSliceBytes
            indexText(i, limit: limit, inputEnded: true)
            effects += apply(.readProgress(document: i, bytes: inputs[i].lines?.indexedBytes ?? 0))
            if inputs[i].textIsComplete {
                inputs[i].indexToEnd = false
                inputs[i].settleTextFile()
                effects += apply(.inputEnded(document: i, error: nil))
            } else {
                effects += apply(.inputArrived(document: i))
            }
        }
        return effects
    }

    /// A text input whose lines are all indexed after its end: the pager hears that it ended
    /// (with its read error, if any), and a saved position can be restored.
    mutating func finishText(_ doc: Int) -> [PagerEffect] {
        inputs[doc].phase = .complete
        keepSmallInput(doc)
        let error = inputs[doc].endError
        let effects = apply(.inputEnded(document: doc, error: error))
        if error == nil { restoreEndedStream(doc) }
        return effects
    }

    /// A finished text input small enough to keep a reading position keeps its bytes.
    mutating func keepSmallInput(_ doc: Int) {
        let store = inputs[doc].store
        if store.count <= LoadedDocument.positionLimit, inputs.indices.contains(doc) {
            inputs[doc].source.bytes = store.bytes(0..<store.count)
        }
    }

    /// Lets the reader of the current text stream read on when the view nears the end of
    /// what has arrived (a bounded read-ahead, as less).
    mutating func demandInput() {
        let index = state.current
        guard inputs.indices.contains(index), let reader = inputs[index].reader, !reader.finished,
              inputs[index].isText else { return }
        let doc = state.documents[index]
        let rows = max(1, state.contentRows)
        if let stopped = inputs[index].stoppedAt {
            // Stopped by a key: reading starts again only on a new request (a move, `G`, `F`).
            if stopped == doc.viewport.position && !state.following && state.seeking == nil { return }
            inputs[index].stoppedAt = nil
        }
        // Read-ahead is counted from what is indexed, not from what is held: while `G` or `F`
        // reads on, the reader stays a bounded distance ahead of the lines taken in, so a key
        // that stops it leaves little behind to take in (less holds what it read, too).
        if state.following || state.seeking != nil || doc.top + 4 * rows >= doc.layout.endRow {
            reader.demand(inputs[index].lines?.indexedBytes ?? inputs[index].store.count)
        }
    }
}
