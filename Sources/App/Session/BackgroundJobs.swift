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

/// Work the event loop starts off its thread: a document's row counts at a new width, a text's
/// exact counts, the release of a replaced document.
extension EventLoop {
    /// Starts, restarts or cancels the background pass that makes the current text
    /// document's row counts exact, from what the pager asks for (`rowCountRequest`): a new
    /// width or `-S` cancels the pass under way and starts one for the new options; lines
    /// added after a pass finished (`F`) are counted by another from where it ended.
    mutating func scheduleRowCounts() {
        let want = state.documents.indices.contains(state.current)
            ? state.documents[state.current].rowCountRequest : nil
        if let counter = rowCounter, let want, counter.request == want, counter.doc == state.current {
            guard counter.finished else { return }
            // Finished, yet not exact: lines came since (counted from its end), or the input
            // started over (counted again from the top).
            let units = want.content.endUnit
            if counter.end < units {
                startRowCounter(want, from: counter.end)
            } else if units < counter.end {
                startRowCounter(want, from: 0)
            }  // else nothing left to count: never spin
            return
        }
        guard let want else {
            // Exact now: a finished pass is kept, so lines that arrive later (`F`) are
            // counted from its end, not from the top.
            if let counter = rowCounter, !counter.finished || counter.doc != state.current {
                counter.cancel()
                rowCounter = nil
            }
            return
        }
        rowCounter?.cancel()
        startRowCounter(want, from: 0)
    }

    private mutating func startRowCounter(_ request: RowCountRequest, from: Unit) {
        guard let mailbox else { return }
        let counter = RowCounter(request: request, doc: state.current, from: from, mailbox: mailbox)
        rowCounter = counter
        counter.start()
    }

    /// Counts the rows of a document that waits for them (a large document at a new width)
    /// on another thread, one document at a time; keys go on meanwhile, on estimated counts
    /// made exact around the view. A result for options no longer wanted is dropped by the
    /// pager, and the next wanted count starts then.
    mutating func startCounting() {
        guard counting == nil, let mailbox else { return }
        guard let doc = state.documents.indices.first(where: { state.documents[$0].countsWanted != nil }),
              let options = state.documents[doc].countsWanted else { return }
        counting = doc
        let content = state.documents[doc].content
        startThread(stackSize: 8 << 20) {
            let counts = content.backgroundRowCounts(of: content.unitRange, options: options)
            mailbox.post(.counted(doc: doc, options: options, counts: counts, content: content))
        }
    }

    /// Lets go of a replaced document on another thread: the last release of a large parse
    /// frees millions of objects (~50 ms for 20 MB of Markdown), which keys must not wait
    /// for. (The caller hands over its only reference; the state holds none any more.)
    func releaseElsewhere(_ value: consuming DocumentState) {
        let box = Locked<DocumentState?>(value)
        startThread(stackSize: 8 << 20) { box.withLock { $0 = nil } }
    }
}
