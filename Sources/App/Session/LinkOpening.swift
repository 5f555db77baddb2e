import ByteInput
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

/// A followed link's file (and `:e`'s) opened as a document of its own, or switched to.
extension EventLoop {
    /// A followed file's name for the status line: its canonical path, relative to the
    /// working directory when it lies inside it (`docs/guide.md`, not `docs/a/../guide.md`).
    static func displayName(_ doc: LoadedDocument) -> String {
        guard let path = doc.path else { return doc.name }
        return shortPath(path)
    }

    /// `path` relative to the working directory when it is inside it, as a user reads it
    /// (`FileName.display`).
    static func shortPath(_ path: String) -> String {
        let cwd = FileName.currentDirectory()
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return FileName.display(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }

    /// A followed link's local file: switched to when it is open already, else read (a
    /// regular file only) and opened as Markdown or, by its name or first bytes, as text;
    /// a file whose first 8 KB hold a NUL is binary and not opened. It gets an input slot like
    /// the files on the command line, so it is watched (Markdown) and followed (`F`) too.
    mutating func openLinked(path: String, fragment: String?) -> [PagerEvent] {
        // (Errors name the file as `shortPath` does: `docs/x.md: No such file or directory`.)
        let canonical = FileName.realpath(path)
        if let canonical, let open = state.documents.first(where: { $0.path == canonical }) {
            // Open already: the pager switches to it (the spec only names it).
            let spec: DocumentSpec
            if let text = open.content.asText {
                spec = DocumentSpec(name: open.name, path: canonical, text: text)
            } else if let document = open.document {
                spec = DocumentSpec(name: open.name, path: canonical, document: document)
            } else { return [] }
            saveCurrent()
            return [.linkedFileLoaded(spec: spec, fragment: fragment)]
        }
        // Regular files only: never a FIFO or a device (`Input.openFile`).
        switch Input.openFile(path, regularOnly: true) {
        case .failure(let error): return [.notice(Self.linkError(error, path: path))]
        case .success(let file): close(file.fd)
        }
        guard let mailbox else { return [] }
        let index = state.documents.count
        var kind = KindDetector.kind(forPath: path)
        var text: (doc: LoadedDocument, store: ByteStore)?
        if kind != .markdown {
            switch Input.openStream(path, forced: kind, mailbox: mailbox, doc: index) {
            case .failure(let error): return [.notice(Self.linkError(error, path: path))]
            case .success(let doc):
                guard let store = doc.store else { return [] }
                if store.bytes(0..<min(store.count, 8 << 10)).contains(0) {
                    return [.notice("Not a text file, not opened: \(EventLoop.displayName(doc))")]
                }
                kind = doc.kind
                text = (doc, store)
            }
        }
        var spec: DocumentSpec
        var doc: LoadedDocument
        var slot: DocumentInput
        if let text, kind != .markdown {
            doc = text.doc
            doc.name = EventLoop.displayName(doc)
            slot = DocumentInput(doc: index, phase: .parsing, source: doc, store: text.store)
            slot.openText(tabWidth: tabWidth, ended: true)
            slot.settleTextFile()
            spec = DocumentSpec(name: doc.name, path: doc.path, text: slot.text!)
        } else {
            // Markdown by its name, or by its first bytes (then read a second time, whole).
            switch Input.load(path) {
            case .failure(let error): return [.notice(Self.linkError(error, path: path))]
            case .success(let d):
                doc = d
                spec = DocumentSpec(name: EventLoop.displayName(d), path: d.path, document: MarkdownParser.parse(d.bytes).document)
                slot = DocumentInput(doc: index, phase: .complete, source: d, store: ByteStore())
            }
        }
        saveCurrent()
        slot.shown = true  // restored below, not by .leftDocument
        // Inputs follow the documents' indices (`inputs[i]` is document i's).
        assert(inputs.count == index, "every document has its input")
        guard inputs.count == index else { return [] }
        noteFile(&slot)
        inputs.append(slot)
        // Sent now: the saved position is looked up in the document as opened.
        send(.linkedFileLoaded(spec: spec, fragment: fragment))
        if fragment == nil, let m = restorePosition(state.current) { return [.notice(m)] }
        return []
    }

    /// A followed link's read error, naming the file relative to the working directory.
    static func linkError(_ error: InputError, path: String) -> String {
        guard case .cannotOpen(_, let reason) = error else { return error.description }
        return "\(shortPath(path)): \(reason)"
    }
}
