import Threads
import LineLayout
#if canImport(Glibc)
import Glibc
#endif

/// The background pass that makes a text document's row counts exact: counts every line's
/// rows at one width on its own thread (niced, so keys and the reader come first) and posts
/// them to the run loop a chunk at a time, which hands them to the pager as
/// `.rowCounts` events. Never touches the pager's state.
///
/// Bounded: at most `inFlight` chunks (65,536 lines each, a byte a line) wait in the mailbox;
/// the thread waits until the run loop has taken one. `cancel` stops it between chunks (a
/// resize, `-S`, `-N`, another document).
final class RowCounter: Sendable {
    static let inFlight = 4
    let request: RowCountRequest
    let doc: Int
    private let mailbox: Mailbox
    private let slots = Semaphore(value: RowCounter.inFlight)
    private struct Progress { var cancelled = false, finished = false, end: Unit }
    private let progress: Locked<Progress>

    /// Counts lines `from...` of `request.content` as it is now.
    init(request: RowCountRequest, doc: Int, from: Unit, mailbox: Mailbox) {
        self.request = request
        self.doc = doc
        self.mailbox = mailbox
        progress = Locked(Progress(end: from))
    }

    /// All lines there were when it started are counted (or it was cancelled).
    var finished: Bool { progress.withLock { $0.finished } }
    /// The line after the last one counted.
    var end: Unit { progress.withLock { $0.end } }

    func start() {
        startThread(stackSize: 1 << 20) { [self] in run() }
    }

    func cancel() {
        progress.withLock { $0.cancelled = true }
        slots.signal()  // a thread waiting for a slot sees the cancel
    }

    /// The run loop took one of this counter's chunks.
    func taken() { slots.signal() }

    private var isCancelled: Bool { progress.withLock { $0.cancelled } }

    private func run() {
        // Below the run loop and the reader, as all of the pager's background work.
        BackgroundPriority.enter()
        let units = request.content.endUnit
        var u = end
        while u < units && !isCancelled {
            guard let chunk = request.content.rowCountChunk(from: u, width: request.width,
                                                            maxUnits: min(65_536, units - u)) else { break }
            slots.wait()
            if isCancelled { break }
            u += chunk.count
            progress.withLock { progress in
                progress.end = u
                if u >= units { progress.finished = true }
            }
            mailbox.post(.rowCounts(doc: doc, chunk: chunk, counter: self))
        }
        progress.withLock { $0.finished = true }
    }
}
