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

/// What the loop's threads posted (`Mailbox`), taken as pager events.
extension EventLoop {
    /// Takes what the reader threads and the parse worker posted, as pager events.
    mutating func takeDeliveries() -> [PagerEffect] {
        guard let mailbox else { return [] }
        var effects: [PagerEffect] = []
        var grown = Set<Int>()
        for delivery in mailbox.drain() {
            switch delivery {
            case .grew(let doc):
                grown.insert(doc)
            case .ended(let doc, let error):
                guard inputs.indices.contains(doc) else { continue }
                inputs[doc].phase = .parsing  // every byte is in; complete once indexed or parsed
                inputs[doc].endError = error.map { "\(inputs[doc].source.name): \($0)" }
                let store = inputs[doc].store
                if let lines = inputs[doc].lines {
                    if lines.indexedBytes < store.count { continue }  // indexing finishes it (`grown`, the slices)
                    indexText(doc, inputEnded: true)
                    effects += finishText(doc)
                } else {
                    // (The parse worker makes the stream's bytes one array, off the loop.)
                    inputs[doc].parser?.poke(ended: true, options: state.layoutOptions(isText: false))
                    if let error { say("\(inputs[doc].source.name): \(error)") }
                }
                grown.remove(doc)
            case .counted(let doc, let options, let counts, let content):
                counting = nil
                effects += apply(.markdownRowCounts(document: doc, options: options, counts: counts, content: content))
            case .parsed(let doc, var spec, let complete, let facts):
                guard inputs.indices.contains(doc), state.documents.indices.contains(doc) else { continue }
                if let facts { positions.adopt(facts.facts, hash: facts.hash, documentIndex: doc) }
                let old = state.documents[doc]
                let isComplete = complete
                (spec.name, spec.path, spec.isPreview) = (old.name, old.path, !isComplete)
                effects += apply(.documentReady(document: doc, spec: spec, changedUnits: []))
                // A Markdown stream is keyed by its content: its position can be restored once
                // it is whole, if the reader has not moved yet. So is a large file's, shown
                // from a preview until now.
                let waiting = inputs[doc].isStream || inputs[doc].restoreWhenComplete
                if isComplete { (inputs[doc].phase, inputs[doc].restoreWhenComplete) = (.complete, false) }
                if isComplete, restoreOnFirstShow, waiting, state.documents[doc].top == 0,
                   state.documents[doc].previousPosition == nil,
                   let m = restorePosition(doc) {
                    say(m)
                }
                if !isComplete { inputs[doc].parser?.poke(ended: inputs[doc].inputEnded, options: state.layoutOptions(isText: false)) }
                if isComplete { HeapTrim.soon() }
            case .rowCounts(let doc, let chunk, let counter):
                counter.taken()
                effects += apply(.rowCounts(document: doc, chunk: chunk))
            case .reloaded(let result, let doc):
                takeReload(result, doc: doc)
            case .reloadFailed(let doc, let generation, let message):
                if let message, inputs.indices.contains(doc), inputs[doc].reloadGeneration == generation { say(message) }
            case .highlighted(let content, let block, let note, let last):
                syntaxJobs.delivered(last: last)
                effects += apply(.codeHighlighted(content: content, blocks: [block], note: note))
            case .pictured(let content, let source, let last):
                pictureJobs.delivered(last: last)
                effects += apply(.pictureArrived(content: content, source: source))
            }
        }
        for doc in grown.sorted() where inputs.indices.contains(doc) {
            if inputs[doc].isText {
                // The input may have ended in the same batch (`.ended` left the last bytes to
                // this indexing): then this indexing is what finishes it.
                indexText(doc, limit: EventLoop.indexSliceBytes, inputEnded: inputs[doc].inputEnded)
                effects += apply(.readProgress(document: doc, bytes: inputs[doc].store.count))
                if inputs[doc].textIsComplete {
                    effects += finishText(doc)
                    continue
                }
                effects += apply(.inputArrived(document: doc))
                restorePending(doc)
            } else {
                effects += apply(.readProgress(document: doc, bytes: inputs[doc].store.count))
                inputs[doc].parser?.poke(ended: false, options: state.layoutOptions(isText: false))
            }
        }
        return effects
    }
}
