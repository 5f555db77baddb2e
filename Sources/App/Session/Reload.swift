import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// A new version of a Markdown file on screen (it changed on disk, or the editor `v` started
/// has exited), read and parsed off the run loop when it is large.
///
/// A small file (up to `Launch.previewThreshold`) is reloaded at once on the loop: that costs
/// milliseconds. A larger one took the loop for the whole parse, the facts reading positions
/// need and the comparison that marks changed blocks (about 1.5 s for 20 MB, keys waiting on
/// every save in the editor): now a thread does all of that and posts `.reloaded`; the old
/// version stays on screen meanwhile. A reload that finishes after a newer one started is
/// dropped (`generation`).
struct Reload: Sendable {
    let doc: Int
    let generation: Int
    let path: String
    let name: String
    let options: LayoutOptions
    /// The version on screen when the reload started: its unit texts tell what changed.
    let old: MarkdownContent?
    /// Mark the blocks whose text changed (watching); `v` reloads mark nothing.
    let markChanges: Bool

    /// What the thread made.
    struct Result: Sendable {
        var loaded: LoadedDocument
        var spec: DocumentSpec
        var hash: StableHash
        var facts: DocumentFacts
        var changedUnits: Set<Unit>
        var markChanges: Bool
        var generation: Int
    }

    /// Whether the file at `path` is large enough to be reloaded on a thread.
    static func isLarge(path: String) -> Bool {
        var st = stat()
        return FileName.stat(path, &st) == 0 && Int(st.st_size) > Launch.previewThreshold
    }

    func start(mailbox: Mailbox) {
        let reload = self
        startThread(stackSize: 8 << 20) {
            switch Input.load(reload.path) {
            case .failure(let error):
                // Watching: the file is being written, and the next look sees it whole.
                mailbox.post(.reloadFailed(doc: reload.doc, generation: reload.generation,
                                           message: reload.markChanges ? nil : error.description))
            case .success(var loaded):
                loaded.name = reload.name
                // The bytes are handed over: the hash and the facts stand for them.
                var (spec, made) = PositionFacts.parseAndBuild(&loaded.bytes, options: reload.options, whole: true)
                (spec.name, spec.path) = (reload.name, loaded.path)
                guard let (hash, facts) = made, let built = spec.prebuilt else { return }
                let changed = reload.markChanges && reload.old != nil
                    ? PositionFacts.changedUnits(from: reload.old!, to: built.content) : []
                mailbox.post(.reloaded(Result(
                    loaded: loaded, spec: spec, hash: hash, facts: facts, changedUnits: changed,
                    markChanges: reload.markChanges, generation: reload.generation), doc: reload.doc))
            }
        }
    }
}

/// Gives the heap's free pages back to the system (glibc's `malloc_trim`), on another thread
/// a moment after a large parse was taken in and what it replaced let go: the parse's
/// transient allocations on several threads leave tens of MB free but held (a 20 MB
/// changelog: 242 MB resident after its parse, most of the difference free).
enum HeapTrim {
    /// Gives the heap's free pages back now, on the calling thread (a few ms for a large heap).
    static func now() { Platform.trimHeap() }

    /// Blocks of 1 MB or more are mapped on their own and unmapped when freed, from now on.
    /// glibc raises that threshold to the size of the largest mapped block freed (up to 32
    /// MB), so once a large file's bytes are freed, every piece's buffers and arrays come
    /// from the heap and leave it fragmented: a 20 MB changelog peaked at 138 MB, with the
    /// threshold fixed at 1 MB at 127 MB (`scripts/memory-bench.sh`), for ~10 % more parse and
    /// layout time off the run loop (`folio-bench`: 0.20 → 0.22 s, 0.25 → 0.28 s; 256 KB: 125
    /// MB, 0.25 s). Set when a large Markdown document is first parsed whole, and kept for the
    /// rest of the process (glibc cannot say what the threshold was): a session that only
    /// shows text (read in 1 MB windows) keeps glibc's own policy.
    static func mapLargeBlocks() {
        _ = mapLargeBlocksOnce
    }
    private static let mapLargeBlocksOnce: Void = Platform.mapBlocksOnTheirOwn(from: 1 << 20)

    static func soon() {
        guard Platform.heapCanTrim else { return }
        runAfter(seconds: 0.5) { Platform.trimHeap() }
    }
}
