import LessOptions
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import Viewport

/// Connects the pure pager to the reading-position store: which key a document has, what to
/// capture from the pager's state, where to put the view on open. Owns the file I/O timing
/// (the store itself is atomic and locked); caches per-document facts so periodic saves do
/// not re-hash the whole document.
final class PositionsBridge {
    let store: PositionStore
    let enabled: Bool
    /// The first warning (corrupt store, unwritable directory), shown once on the status line.
    private(set) var warning: String?
    private var warned = false
    /// Every notice about the store (a store set aside, damaged records kept, a store that
    /// cannot be read), each once, in order: said on stderr after the terminal is restored
    /// (`reportAtExit`), because the status line cuts a long path and is gone by then.
    private(set) var notices: [String] = []
    /// Why the last save did not reach the disk (nil once one succeeds): said on stderr after
    /// the terminal is restored, because the status line is gone by then.
    var saveFailure: String?
    var factsCache: [Int: (hash: StableHash, facts: DocumentFacts)] = [:]
    var hashCache: [Int: StableHash] = [:]
    /// What was last written per document, to skip identical saves.
    var lastSaved: [String: DocumentEntry] = [:]
    var recordedSearches = 0
    private var historyLoaded = false

    /// Which documents open where they were left (`--restore`).
    var policy: RestorePolicy = .documents

    init(environment: [String: String], enabled: Bool) {
        self.store = PositionStore(environment: environment)
        self.enabled = enabled
    }

    /// How document `index` opens with a saved position, by the policy: where it was left
    /// (`.resume`), at the top with the saved place one `''` away (`.offer`), or at the top.
    func restoreMode(_ loaded: [LoadedDocument], _ index: Int) -> RestorePolicy.Mode {
        policy.mode(isFile: loaded[index].path != nil, isMarkdown: loaded[index].kind == .markdown)
    }

    /// Shows `w` on the status line if it is the first warning; `atExit`: says it on stderr at
    /// the end too (a failed save is said there only if it is the last: `saveFailure`).
    func note(_ w: String?, atExit: Bool = true) {
        guard let w else { return }
        if atExit && !notices.contains(w) { notices.append(w) }
        guard !warned else { return }
        warned = true
        warning = w
    }

    /// The lines to write on stderr once the terminal is restored: the notices, then why the
    /// last save failed (if it did).
    var reportAtExit: [String] {
        guard let saveFailure, !notices.contains(saveFailure) else { return notices }
        return notices + [saveFailure]
    }

    static func key(for loaded: LoadedDocument, hash: StableHash) -> String {
        if let path = loaded.path { return DocumentKey.file(canonicalPath: path) }
        if isLarge(loaded), let store = loaded.store, let head = LargeText.headKey(of: store) { return head }
        return DocumentKey.stdin(contentHash: hash)
    }

    /// Reading positions are kept for Markdown, for finished text inputs of a few MB
    /// (`LoadedDocument.positionLimit`, hashed whole) and for larger text (`LargeText`: a
    /// sampled hash, line + byte offset anchors); a stream still arriving has none yet.
    static func keepsPosition(_ loaded: [LoadedDocument], _ index: Int) -> Bool {
        guard loaded.indices.contains(index) else { return false }
        let doc = loaded[index]
        guard doc.keepsPosition else { return false }
        return doc.kind == .markdown ? doc.reader == nil || doc.reader!.finished : !doc.bytes.isEmpty || isLarge(doc)
    }

    /// A text input not hashed whole: a file over the whole-hash limit, or a stream that is
    /// over it or has not ended (a pipe is known by its first 64 KB, see `LargeText`; a
    /// stream with a path — a decompressed or preprocessed file, a /proc file — by its path).
    static func isLarge(_ doc: LoadedDocument) -> Bool {
        guard doc.kind == .text, let store = doc.store else { return false }
        // A file by its size now (it may have grown past the limit since its bytes were kept).
        if doc.path != nil && doc.reader == nil { return store.count > LoadedDocument.positionLimit }
        return doc.bytes.isEmpty && store.count >= LargeText.headSize
    }

    /// A piped large text still being read with a saved position: the bytes to read before
    /// `restore` can place it (the run loop reads on and restores then).
    func bytesToRestore(loaded: [LoadedDocument], documentIndex index: Int) -> Int? {
        guard enabled, loaded.indices.contains(index), PositionsBridge.isLarge(loaded[index]),
              let reader = loaded[index].reader, !reader.finished, let store = loaded[index].store,
              let key = loaded[index].path.map({ DocumentKey.file(canonicalPath: $0) }) ?? LargeText.headKey(of: store),
              let entry = savedEntry(key: key) else { return nil }
        return LargeText.bytesNeeded(for: entry.position)
    }

    private func savedEntry(key: String) -> DocumentEntry? {
        // By key alone (a pipe's head): no hash is known yet, and no entry has this one.
        let (entry, w) = self.store.loadEntry(key: key, contentHash: StableHash(rawValue: 0))
        note(w)
        return entry?.key == key ? entry : nil
    }

    /// The sampled hash of a large text input, again only when its size changed (`F`).
    private var sampledCache: [Int: (count: Int, hash: StableHash)] = [:]

    func contentHash(_ loaded: [LoadedDocument], _ index: Int) -> StableHash {
        if PositionsBridge.isLarge(loaded[index]), let store = loaded[index].store {
            let count = store.count
            if let c = sampledCache[index], c.count == count { return c.hash }
            let h = LargeText.sampledHash(of: store)
            sampledCache[index] = (count, h)
            return h
        }
        if let h = hashCache[index] { return h }
        let h: StableHash
        if let store = loaded[index].store, loaded[index].kind == .markdown, let tag = store.tagOfBytesLetGo {
            // A Markdown stream whose parse hashed its bytes and let them go.
            h = StableHash(rawValue: tag)
        } else if let store = loaded[index].store, loaded[index].kind == .markdown, loaded[index].bytes.count != store.count {
            // A large Markdown file whose full parse (which hashes it too) is not in yet.
            // Piece by piece (1 MB windows), not a copy of the file. (`count` is read first:
            // the body runs under the store's lock.)
            let count = store.count
            var hashed = StableHash.empty
            store.forEachPiece(in: 0..<count) { piece, _ in hashed = hashed.continued(with: piece); return true }
            h = hashed
        } else {
            h = StableHash(bytes: loaded[index].bytes)
        }
        hashCache[index] = h
        return h
    }

    /// The hash and facts of document `index`'s whole input, made off the run loop (the
    /// full parse): saves use them instead of hashing and walking the document then.
    func adopt(_ facts: DocumentFacts, hash: StableHash, documentIndex index: Int) {
        hashCache[index] = hash
        factsCache[index] = (hash, facts)
    }

    func facts(_ state: PagerState, _ loaded: [LoadedDocument], _ index: Int) -> DocumentFacts {
        let hash = contentHash(loaded, index)
        if let c = factsCache[index], c.hash == hash { return c.facts }
        let facts = DocumentFacts(layout: state.documents[index].layout, contentHash: hash)
        factsCache[index] = (hash, facts)
        return facts
    }

    /// Where the saved position of document `index` puts it (its marks and `''` too): the
    /// `.placed` event for the pager, and the status-line message once it is placed
    /// (`resumed at 42% · Installation`; nil: nothing to say). Nil when nothing was saved.
    /// The event loop sends the event (`EventLoop.restorePosition`).
    ///
    /// A pipe still being read is restored by the run loop after its first screen
    /// (`bytesToRestore`, then `waitingForInput: false`): looking its position up reads the
    /// store, which the first screen of `cmd | folio` must not wait for.
    ///
    /// `reopened`: the document is the same one read again (after `v`), placed by its saved
    /// position whatever the policy, which is about opening.
    ///
    /// `indexText(n)`: a large text's lines found on to byte `n` at least, by whoever owns
    /// its index (the loop, which hands the pager the snapshot too), and that snapshot (nil:
    /// none newer than the pager's).
    func placement(in state: PagerState, loaded: [LoadedDocument], documentIndex index: Int,
                   deferStreams: Bool = true, reopened: Bool = false,
                   indexText: (_ upTo: Int) -> TextContent? = { _ in nil }) -> Placement? {
        guard enabled, PositionsBridge.keepsPosition(loaded, index), state.documents.indices.contains(index) else { return nil }
        if deferStreams, let reader = loaded[index].reader, !reader.finished { return nil }
        // Only the lines that can hold this document's entry are decoded (a full store decoded
        // whole made the first screen wait ~20 ms); the search history is loaded after the
        // first frame (`loadHistory`).
        let hash = contentHash(loaded, index)
        let (found, w) = store.loadEntry(key: PositionsBridge.key(for: loaded[index], hash: hash), contentHash: hash)
        note(w)
        guard let entry = found else { return nil }
        let mode = reopened ? .resume : restoreMode(loaded, index)
        guard mode != .none else { return nil }
        let position: (ReadingPosition) -> ScrollPosition
        if PositionsBridge.isLarge(loaded[index]), var text = state.documents[index].layout.content.asText {
            // Lines are found in the background: find them as far as the position needs now.
            // A pipe that has not brought that much yet is placed later (`bytesToRestore`).
            let need = LargeText.bytesNeeded(for: entry.position)
            if let reader = loaded[index].reader, !reader.finished, loaded[index].store!.count < need { return nil }
            if text.indexedBytes < need && !text.isComplete, let indexed = indexText(need) { text = indexed }
            position = { .anchor(LargeText.resolve($0, storedContentHash: entry.contentHash, currentHash: hash, in: text).anchor) }
        } else {
            let facts = facts(state, loaded, index)
            position = { .anchor(resolve($0, storedContentHash: entry.contentHash, in: facts).anchor) }
        }
        let document = loaded[index]
        if mode == .offer {
            // Command output opens at the top; the saved place is one `''` away.
            let saved = position(entry.position)
            return Placement(event: .placed(document: index, position: nil, previous: saved, marks: entry.marks.mapValues(position))) {
                let doc = $0.documents[index]
                let top = Viewport(position: saved, contentRows: doc.viewport.contentRows).top(in: doc.layout)
                guard top > 0 else { return nil }
                return "read before: \(Self.percent(atTop: top, doc, document))% down ('' goes there)"
            }
        }
        return Placement(event: .placed(document: index, position: position(entry.position),
                                        previous: entry.previous.map(position), marks: entry.marks.mapValues(position))) {
            let doc = $0.documents[index]
            let top = doc.top
            guard top > 0 else { return nil }
            var message = "resumed at \(Self.percent(atTop: top, doc, document))%"
            if let h = doc.sectionHeading(atRow: top) { message += " · \(h.title)" }
            return message
        }
    }

    /// A saved position found for a document: the event that places it, then what to say.
    struct Placement {
        /// `.placed`: an event with no effects.
        let event: PagerEvent
        /// The status line's message, from the state once the event is in.
        let message: (PagerState) -> String?
    }

    /// How far down a view whose top row is `top` is, as the status line says it.
    private static func percent(atTop top: Row, _ doc: DocumentState, _ loaded: LoadedDocument) -> Int {
        var pct = doc.layout.rowCount == 0 ? 0 : min(100, (top.index + doc.viewport.contentRows) * 100 / doc.layout.rowCount)
        if !doc.layout.isExact, let text = doc.layout.content.asText, let size = loaded.store?.count, size > 0,
           let unit = text.unit(of: doc.layout.anchor(atRow: top).block) {
            // Rows are estimated past what is indexed (a 1 GB log said 91% at its middle): the
            // byte offset of the top line says where the reader is, as less's percentage does.
            pct = min(100, text.startOffset(ofUnit: unit) * 100 / size)
        }
        return pct
    }

    /// Forgets what was worked out about document `index`'s input (it was read again).
    func forgetCaches(documentIndex index: Int) {
        hashCache[index] = nil
        factsCache[index] = nil
        sampledCache[index] = nil
    }

    /// The saved search history for the session (`.searchHistoryLoaded`), once (later calls
    /// return nil). The event loop sends it, then says how long the history is
    /// (`historyLoaded(count:)`): searches after those are the session's own, saved at the end.
    func loadHistory() -> PagerEvent? {
        guard enabled, !historyLoaded else { return nil }
        historyLoaded = true
        let (snapshot, w) = store.load()
        note(w)
        return .searchHistoryLoaded(snapshot.searchHistory)
    }

    /// The session's history holds `count` searches now that the saved ones are in.
    func historyLoaded(count: Int) {
        recordedSearches = count
    }
}
