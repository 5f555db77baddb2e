import ByteInput
import LineLayout
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// One document's input as the event loop holds it: its bytes, the thread reading them, its
/// line index (text) or parse worker (Markdown), the identity of its file, and where it is in
/// its life. Every document has one: `EventLoop.inputs[i]` is document i's (documents are
/// only ever appended).
///
/// The life is one value, `phase`, not a set of flags:
///
///     streaming ──.ended──▶ parsing ──all indexed / full parse in──▶ complete ◀──F──▶ following
///     preview ──first frame out──▶ parsing ──full parse in──▶ complete
///
/// A text file is `parsing` while its lines are indexed in slices between keys (or after
/// `v`, a truncation, a rewrite), a Markdown file opened whole is `complete` from the start.
struct DocumentInput {
    enum Phase: Equatable {
        /// A reader thread still delivers bytes (a pipe): text is indexed as they come,
        /// Markdown parsed in growing pieces (`ParseWorker`).
        case streaming
        /// A large Markdown file shown from a parse of its beginning; its full parse starts
        /// once the first frame is out.
        case preview
        /// Every byte is in, the document is not all of them yet: text lines still to index,
        /// or Markdown's full parse running off the loop (whose hash a position's key needs).
        case parsing
        /// The document is the whole input.
        case complete
        /// A whole text file followed (`F`): what it gains is taken in as it comes, and a
        /// truncated one starts over.
        case following
    }

    /// What a file looked like when it was last read (follow, watch, `syncTextFile`).
    struct FileIdentity {
        var size = -1
        var inode: UInt = 0
        var modified = timespec()
        /// A text file's first and last bytes as read (a file written anew and longer is not
        /// one that grew).
        var sample: FileSample?
    }

    let doc: Int
    var phase: Phase
    /// What the document was opened as: its name, path, kind, the whole input when it is
    /// kept (Markdown; a small finished text, for its position's hash), how folio came by
    /// the bytes (`filter`). Replaced when the file is read again.
    var source: LoadedDocument
    var store: ByteStore
    /// The thread reading a pipe; nil for files.
    var reader: StreamReader?
    /// Text documents: where the lines of `store` start, found so far. The loop owns it and
    /// advances it (`indexText`); the pager holds snapshots of it (`text`), each handed over
    /// in `.textGrew` when it holds more lines or the end.
    var lines: TextLineIndex?
    /// A text's tab stops (less's `-x`), for its snapshots.
    var tabWidth = 8
    /// Markdown streams and previews: parses in the background.
    var parser: ParseWorker?
    var file = FileIdentity()
    /// A file (all of it readable at once) is indexed to its end (`G`, search, `F`) rather
    /// than by slices.
    var indexToEnd = false
    /// Where the view was when a key stopped `G`, `F` or a search on this stream: no reading
    /// on until the view moves (`demandInput`).
    var stoppedAt: ScrollPosition?
    /// When a watched file was first seen empty (`pollFiles`: it may be being written), in
    /// the loop's clock seconds.
    var emptySince: Double?
    /// Why the input ended early (a read error), said once its text is whole.
    var endError: String?
    /// Shown already (the first document, one restored or opened at a start command, a
    /// link's file, a search's): its saved position is not restored when it is shown again.
    var shown = false
    /// A large Markdown file shown from a preview: its saved position is restored when the
    /// full parse is in, if the reader has not moved by then.
    var restoreWhenComplete = false
    /// A piped text whose saved position waits for this many bytes to arrive.
    var restoreAtBytes: Int?
    /// The latest reload started (`reloadFile`): an older one that finishes later is dropped.
    var reloadGeneration = 0

    init(doc: Int, phase: Phase, source: LoadedDocument, store: ByteStore, reader: StreamReader? = nil) {
        self.doc = doc
        self.phase = phase
        self.source = source
        self.store = store
        self.reader = reader
    }

    /// The input came through a reader (a pipe), whether or not it has ended.
    var isStream: Bool { reader != nil }

    /// A stream's end has been taken (`.ended`); always true of a file.
    var inputEnded: Bool { phase != .streaming }

    /// A text document (its lines are indexed; Markdown's are parsed).
    var isText: Bool { lines != nil }

    /// A text's lines are all found, to the end of its input.
    var textIsComplete: Bool { lines?.isComplete ?? false }

    /// A text's lines as found so far, as the immutable content the pager shows.
    var text: TextContent? { lines.map { TextContent(store: store, lines: $0, tabWidth: tabWidth) } }

    /// Makes this a text input over `store`, its first 64 KB of lines found now for the first
    /// screen (a 300x100 terminal shows 30,000 cells); the rest as it arrives (pipes) or in
    /// slices between keys (files), the first of them just after the first frame. Every text
    /// document is opened this way: on the command line, by a link, again after `v`.
    mutating func openText(tabWidth: Int, ended: Bool) {
        lines = TextLineIndex()
        self.tabWidth = tabWidth
        _ = indexText(limit: Self.firstIndexBytes, inputEnded: ended)
    }

    /// What `openText` indexes before the first screen. (It was 1 MB: reading and indexing it
    /// cost a 1 GB log's first screen ~0.5 ms; docs/benchmarks.md, "Start-up".)
    static let firstIndexBytes = 64 << 10

    /// Finds the lines in up to `limit` more bytes of a text's store (`TextLineIndex.advance`).
    /// True when a snapshot would show more than the last: more lines, the end, or more of a
    /// last line shown without its LF.
    mutating func indexText(limit: Int = .max, inputEnded: Bool) -> Bool {
        guard let before = lines.map({ ($0.unitCount, $0.isComplete, $0.endsInOpenLine) }) else { return false }
        let scanned = lines!.advance(over: store, limit: limit, inputEnded: inputEnded)
        return (lines!.unitCount, lines!.isComplete) != (before.0, before.1) || (before.2 && scanned > 0)
    }

    /// For a file's text: `parsing` until every line is indexed, then `complete` (a followed
    /// file stays `following`).
    mutating func settleTextFile() {
        guard reader == nil, let lines, phase != .following else { return }
        phase = lines.isComplete ? .complete : .parsing
    }
}
