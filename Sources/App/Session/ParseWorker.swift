import ByteInput
import Synchronization
import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
#if canImport(Glibc)
import Glibc
#endif

/// Parses a growing Markdown input off the run loop: one parse at a time, of everything
/// that has arrived, cut at the last blank line until the input ends (so an open block is
/// not shown half-parsed). A new parse starts when the last one is done and the input grew
/// by a quarter (or ended): the total work stays a small multiple of one parse.
final class ParseWorker: Sendable {
    private struct Progress {
        var running = false
        var parsedBytes = 0
        var recheck = false
        /// A poke said the input has ended (a later partial parse would be wasted).
        var inputEnded = false
    }
    private let progress: Locked<Progress>
    private let mailbox: Mailbox
    let doc: Int
    let store: ByteStore

    /// A stream's partial parses wait this long after the first (seconds): a pipe that ends
    /// by then (`cat big.md | folio`) is parsed once, whole, as a file is, rather than holding
    /// a parse of most of it while the full one is made.
    static let patience = 0.5
    private let started = Platform.monotonicSeconds()

    init(doc: Int, store: ByteStore, mailbox: Mailbox, alreadyParsed: Int) {
        self.doc = doc
        self.store = store
        self.mailbox = mailbox
        progress = Locked(Progress(parsedBytes: alreadyParsed))
    }

    /// Starts a parse if one is due. `ended`: the input is complete (parse it all).
    /// `options`: the pager's layout options now; the document is also laid out for them
    /// here, off the run loop (`DocumentSpec.prebuilt`).
    func poke(ended: Bool, options: LayoutOptions) {
        let available = store.count
        let wait = ended ? 0 : ParseWorker.patience - (Platform.monotonicSeconds() - started)
        enum Next { case parse, later, nothing }
        let next: Next = progress.withLock { progress in
            if ended { progress.inputEnded = true }
            let due = !progress.running && available > progress.parsedBytes
                && (ended || available - progress.parsedBytes >= max(16 << 10, progress.parsedBytes / 4))
            if due && wait > 0 {
                // Too early for a partial parse: look again when the patience is over.
                if progress.recheck { return .nothing }
                progress.recheck = true
                return .later
            }
            if due { progress.running = true }
            return due ? .parse : .nothing
        }
        if next == .later {
            runAfter(seconds: wait) { [self] in
                let over = progress.withLock { $0.recheck = false; return $0.inputEnded }
                if !over { poke(ended: false, options: options) }
            }
        }
        guard next == .parse else { return }
        startThread(stackSize: 8 << 20) { [self] in
            // An ended stream's chunks become one array the store keeps (shared with this
            // parse, so held once), here and not on the run loop: consolidating 100 MB there
            // made a key wait 50 ms. A file is read into a new array.
            var bytes = ended ? store.consolidate() : store.copyPrefix(available)
            let cut = PrefixCut.parseable(bytes, ended: ended)
            let isWhole = cut == bytes.count
            if cut < bytes.count { bytes.removeSubrange(cut...) }
            let parsed = bytes.count
            // An ended stream's store lets its bytes go once they are hashed: the hash stands
            // for them from then on (a save before the model is adopted takes it).
            // The parse lets them go as its pieces are done: a file's bytes can be read again
            // if the pieces fail, a stream's are kept compressed meanwhile.
            var keeper: SourceKeeper?
            if ended, isWhole {
                keeper = store.readsFromFile ? RereadingKeeper { [store] in store.consolidate() } : CompressingKeeper()
            }
            let (spec, facts) = PositionFacts.parseAndBuild(&bytes, options: options, whole: ended,
                                                            hashed: { [store] in store.letGoOfBytes(keeping: $0.rawValue) },
                                                            keeper: keeper)
            progress.withLock { progress in
                progress.parsedBytes = ended ? available : max(progress.parsedBytes, parsed)
                progress.running = false
            }
            mailbox.post(.parsed(doc: doc, spec: spec, complete: ended, facts: facts))
        }
    }
}

/// What saving a reading position needs of a whole document (a hash of its input, a
/// fingerprint of every leaf), made where it was parsed and built, off the run loop: ~0.1 s
/// for 20 MB, which the first save paid on the loop.
enum PositionFacts {
    /// `bytes` parsed and built for `options` off the run loop (the parse worker, a threaded
    /// reload), with the facts when they are the `whole` input. What saving a reading
    /// position needs (a hash of the input, a fingerprint of every leaf) cost ~0.1 s for
    /// 20 MB on the loop at the first save. The hash is taken first and the bytes let go
    /// as soon as the parse's pieces are parsed, before they are joined (`bytes` is emptied:
    /// the caller hands them over; `MarkdownParser.parse(handingOver:options:)`), so the source, the
    /// pieces and the joined document are never held together; and the parse's pieces ran on other threads, whose heaps then hold cmark's
    /// freed trees: a large whole input gives them back first (`HeapTrim.now`), so they do not add
    /// to the peak.
    /// `hashed` is told the hash (of a `whole` input) as soon as it is taken, before the bytes
    /// are let go: a stream's store lets its own copy go then (`ByteStore.letGoOfBytes`).
    static func parseAndBuild(_ bytes: inout [UInt8], options: LayoutOptions, whole: Bool,
                              hashed: ((StableHash) -> Void)? = nil, keeper: SourceKeeper? = nil)
        -> (spec: DocumentSpec, facts: (hash: StableHash, facts: DocumentFacts)?) {
        if whole, bytes.count >= MarkdownParser.piecewiseBytes { HeapTrim.mapLargeBlocks() }
        // Hashed first, so that the parse can let the bytes go as soon as its pieces are
        // parsed (`parse(handingOver:)`).
        let hash = whole ? StableHash(bytes: bytes) : nil
        if let hash { hashed?(hash) }
        let large = bytes.count >= MarkdownParser.piecewiseBytes
        let giveBack: (() -> Void)? = whole && large ? { HeapTrim.now() } : nil
        var spec = DocumentSpec(name: "", path: nil, document: MarkdownParser.parse(
            handingOver: &bytes, options: ParseOptions(giveBack: giveBack, keeper: keeper, executor: .machine)).document)
        if whole, large { HeapTrim.now() }  // (not for every partial parse of a growing stream)
        spec.prebuild(for: options)
        let facts = hash.flatMap { of(spec, hash: $0) }
        // Again before the run loop adopts it all: building the content and the facts freed
        // as much as they kept (each unit's layout), and the adoption is the pager's peak.
        if whole, large { HeapTrim.now() }
        return (spec, facts)
    }

    static func of(_ spec: DocumentSpec, hash: StableHash) -> (hash: StableHash, facts: DocumentFacts)? {
        guard let built = spec.prebuilt else { return nil }
        let layout = DocumentLayout(content: built.content, options: built.options, rowCounts: built.rowCounts)
        return (hash, DocumentFacts(layout: layout, contentHash: hash))
    }

    /// The units of `new` whose text `old` has nowhere (a reload's changed blocks, which get
    /// the margin cue).
    /// Texts are compared by a 64-bit hash of their bytes, read in place: a set of the old
    /// texts themselves held a copy of every text of the document during a reload (~25 MB for
    /// 20 MB). A collision would only leave one changed block without its cue.
    static func changedUnits(from old: any LayoutContent, to new: any LayoutContent) -> Set<Unit> {
        func key(_ content: any LayoutContent, _ u: Unit) -> Int {
            content.withText(ofUnit: u) { bytes in
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                return hasher.finalize()
            }
        }
        let before = Set(old.unitRange.map { key(old, $0) })
        return Set(new.unitRange.filter { !before.contains(key(new, $0)) })
    }
}
