import Dispatch
import FoundationEssentials
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

/// Each document's input as the event loop holds it.
extension EventLoop {
    /// One document's input as the run loop tracks it.
    struct InputSlot {
        var doc: Int
        var store: ByteStore
        /// The thread reading a pipe; nil for files.
        var reader: StreamReader?
        /// Text documents: the line model over `store`.
        var text: TextContent?
        /// Markdown streams and previews: parses in the background.
        var parser: ParseWorker?
        /// A file (all of it readable at once) is indexed to its end (`G`, search, `F`) rather than by slices.
        var indexToEnd = false
        var ended = false
        /// Where the view was when a key stopped `G`, `F` or a search on this stream: no reading on
        /// until the view moves (`demandInput`).
        var stoppedAt: ScrollPosition?
        /// A text file's first and last bytes as read (`syncTextFile`: a file written anew
        /// and longer is not one that grew).
        var sample: FileSample?
        /// When a watched file was first seen empty (`pollFiles`: it may be being written).
        var emptySince: Double?
        /// Why the input ended early (a read error), said once its text is whole.
        var endError: String?
        /// What the file looked like when last read (follow, watch).
        var fileSize = -1
        var fileInode: UInt = 0
        var fileModified = timespec()
    }
}
