import ByteInput
import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
#if canImport(Glibc)
import Glibc
#endif

/// What the reader threads and the parse worker hand to the run loop.
enum Delivery: Sendable {
    /// More bytes of document `doc` are in its store.
    case grew(doc: Int)
    /// Document `doc`'s input ended (`error` if a read failed).
    case ended(doc: Int, error: String?)
    /// A parse of what has arrived of Markdown document `doc` is ready (`complete`: all of it).
    /// `facts`: for a complete parse, the content hash and facts reading positions need
    /// (made there, off the run loop).
    case parsed(doc: Int, spec: DocumentSpec, complete: Bool, facts: (hash: StableHash, facts: DocumentFacts)?)
    /// The row counts document `doc` waited for (`DocumentState.countsWanted`).
    case counted(doc: Int, options: LayoutOptions, counts: [Int], content: any LayoutContent)
    /// Exact row counts of some lines of text document `doc` (the background pass).
    case rowCounts(doc: Int, chunk: RowCountChunk, counter: RowCounter)
    /// A new version of Markdown file `doc`, read and parsed off the loop (`Reload`).
    case reloaded(Reload.Result, doc: Int)
    /// A reload could not read the file (`message`: what to say, nil to stay quiet).
    case reloadFailed(doc: Int, generation: Int, message: String?)
    /// The syntax runs of a code block of `content` are in (`SyntaxJobs`); `last`: the
    /// thread that made them is done.
    case highlighted(content: MarkdownContent, block: BlockID, note: String?, last: Bool)
    /// An image of `content` is drawn (`PictureJobs`); `last`: the thread is done.
    case pictured(content: MarkdownContent, source: String, last: Bool)
}

/// Where threads leave what they made for the event loop, and what wakes it. Injected: the
/// loop polls `readFD` with the terminal and takes `drain()`'s deliveries in order; a test
/// gives it a scripted mailbox that hands over what the script says when it says so.
protocol Mailbox: AnyObject, Sendable {
    /// A descriptor that is readable while deliveries wait (polled with the terminal); -1
    /// when the loop is woken otherwise (a test's terminal answers `.wake`).
    var readFD: Int32 { get }
    /// Called from any thread.
    func post(_ delivery: Delivery)
    /// Everything posted (or, for a scripted mailbox, released) since the last call, in order.
    func drain() -> [Delivery]
}

/// A self-pipe the run loop polls with the terminal: threads post deliveries and wake it.
final class PipeMailbox: Mailbox, Sendable {
    let readFD: Int32
    private let writeFD: Int32
    /// What waits for the loop, and whether the pipe holds a byte for it.
    private let waiting = Locked<(pending: [Delivery], signaled: Bool)>(([], false))

    init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    func post(_ delivery: Delivery) {
        let wake = waiting.withLock { waiting in
            waiting.pending.append(delivery)
            defer { waiting.signaled = true }
            return !waiting.signaled
        }
        if wake {
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)
        }
    }

    /// Everything posted since the last call, in order.
    func drain() -> [Delivery] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
        return waiting.withLock { waiting in
            defer { waiting = ([], false) }
            return waiting.pending
        }
    }
}

extension Mailbox {
    /// Where a stream reader's news goes: into this mailbox, as deliveries.
    var readerNews: @Sendable (StreamReader.News) -> Void {
        { [self] news in
            switch news {
            case .grew(let doc): post(.grew(doc: doc))
            case .ended(let doc, let error): post(.ended(doc: doc, error: error))
            }
        }
    }
}
