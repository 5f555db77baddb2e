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

/// Followed (`F`) and watched files: what a file looked like when read, looked at again
/// every 250 ms, taken in, started over or reloaded.
extension EventLoop {
    /// Records a file's size, inode and time (what `pollFiles` compares with).
    /// A text file that grew (or was truncated) under the pager: the bytes kept for its
    /// reading position follow it — all of them while it is small enough to be hashed whole,
    /// none once it is not (then it is known by a sample, `LargeText`) — and what was worked
    /// out from the old bytes (hash, every line's facts) is forgotten.
    mutating func textFileChanged(_ index: Int) {
        let store = inputs[index].store
        inputs[index].source.bytes = store.count <= LoadedDocument.positionLimit ? store.bytes(0..<store.count) : []
        positions.forgetCaches(documentIndex: index)
    }

    func noteFile(_ slot: inout DocumentInput) {
        guard let path = slot.source.path, slot.reader == nil else { return }
        var st = stat()
        guard FileName.stat(path, &st) == 0 else { return }
        slot.file.size = Int(st.st_size)
        slot.file.inode = UInt(st.st_ino)
        slot.file.modified = st.st_mtim
        if slot.isText { slot.file.sample = FileSample(slot.store) }
    }

    /// Follow (`F`) and watch: a followed text file that grew is attached again at its new length and its new
    /// lines taken in; truncated (or, with --follow-name, replaced) it starts over; a
    /// Markdown file that changed is reloaded in place.
    mutating func pollFiles() -> [PagerEffect] {
        var effects: [PagerEffect] = []
        let index = state.current
        guard inputs.indices.contains(index), let path = inputs[index].source.path,
              inputs[index].reader == nil, inputs[index].source.filter == nil else { return [] }
        var st = stat()
        guard FileName.stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return [] }
        let size = Int(st.st_size)
        let slot = inputs[index]
        let replaced = UInt(st.st_ino) != slot.file.inode
        let changed = size != slot.file.size || st.st_mtim.tv_sec != slot.file.modified.tv_sec
            || st.st_mtim.tv_nsec != slot.file.modified.tv_nsec || replaced
        guard changed else { return [] }
        if slot.isText {
            // Followed, or shorter than what was read (`: > big.log`): reads past its end find nothing.
            guard slot.phase == .following || size < slot.store.count else { return [] }
            if replaced && !followName { return [] }
            let fd = FileName.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            if size < slot.store.count || replaced {
                // Truncated or replaced: start over, as tail -f and less do (new lines, whose
                // snapshots replace the document).
                slot.store.reset()
                inputs[index].lines = TextLineIndex()
            }
            _ = slot.store.attachFile(fd: fd, length: size)
            if size < slot.file.size || replaced {
                _ = inputs[index].indexText(inputEnded: true)
                let spec = DocumentSpec(name: state.documents[index].name, path: path, text: inputs[index].text!)
                effects += apply(.documentReady(document: index, spec: spec, changedUnits: []))
            } else {
                indexText(index, inputEnded: true)
            }
            inputs[index].settleTextFile()
            noteFile(&inputs[index])
            textFileChanged(index)
            effects += apply(.inputArrived(document: index))
            return effects
        }
        guard watch, state.documents[index].document != nil else { return [] }
        // A file emptied is most often one being written again (truncate, then write, by a
        // program slower than the poll): reloading it empty lost the reader's place, and the
        // whole file then came back at the top. It is taken as empty only once it has stayed
        // so for `emptyGrace` seconds; whatever it holds before then is reloaded as usual.
        if size == 0, slot.file.size != 0 {
            let since = inputs[index].emptySince ?? clock.now()
            inputs[index].emptySince = since
            guard clock.now() - since >= EventLoop.emptyGrace else { return [] }
        }
        inputs[index].emptySince = nil
        noteFile(&inputs[index])
        reloadFile(index, path: path, markChanges: true)
        return effects
    }

    /// Seconds a watched Markdown file must stay empty before it is shown empty.
    static let emptyGrace: Double = 2

    /// Reloads Markdown document `index` from `path` keeping the same text on top (watch:
    /// `markChanges`, the blocks whose text changed get the margin cue). Large files are
    /// read and parsed on a thread (`Reload`); the rest at once.
    mutating func reloadFile(_ index: Int, path: String, markChanges: Bool) {
        inputs[index].reloadGeneration += 1
        let generation = inputs[index].reloadGeneration
        if let mailbox, Reload.isLarge(path: path) {
            Reload(doc: index, generation: generation, path: path, name: inputs[index].source.name,
                   options: state.layoutOptions(isText: false), old: state.documents[index].layout.content.asMarkdown,
                   markChanges: markChanges).start(mailbox: mailbox)
            return
        }
        switch Input.load(path) {
        case .success(var doc):
            doc.name = inputs[index].source.name
            reload(doc, index: index, markChanges: markChanges)
        case .failure(let error):
            if !markChanges { say(error.description) }  // watching: being written, the next look sees it whole
        }
    }

    /// A text document edited with `v` is read again as text (its kind stays: it was parsed
    /// as Markdown before) and placed by the position just saved, by the rules of reopening
    /// (the line with the same text nearest its old number), as less reads a file again
    /// after its editor.
    mutating func reopenText(_ index: Int, path: String) {
        guard let mailbox, inputs[index].isText else { return }
        positions.save(state: state, loaded: loaded, documentIndex: index)
        switch Input.openStream(path, forced: .text, mailbox: mailbox, doc: index) {
        case .failure(let error):
            say(error.description)
        case .success(var doc):
            guard let store = doc.store else { return }
            doc.name = inputs[index].source.name
            inputs[index].store = store
            inputs[index].openText(tabWidth: inputs[index].tabWidth, ended: true)
            inputs[index].indexToEnd = false
            inputs[index].settleTextFile()
            inputs[index].source = doc
            positions.forgetCaches(documentIndex: index)
            noteFile(&inputs[index])
            let spec = DocumentSpec(name: state.documents[index].name, path: doc.path, text: inputs[index].text!)
            send(.documentReady(document: index, spec: spec, changedUnits: []))
            _ = restorePosition(index, reopened: true)
        }
    }

    /// A reload made on a thread arrived: it replaces the document unless a newer reload
    /// started since.
    mutating func takeReload(_ result: Reload.Result, doc: Int) {
        guard inputs.indices.contains(doc), inputs[doc].reloadGeneration == result.generation,
              state.documents.indices.contains(doc) else { return }
        let old = state.documents[doc]
        reload(result.loaded, index: doc, markChanges: result.markChanges,
               prepared: (result.spec, result.hash, result.facts, result.changedUnits))
        releaseElsewhere(consume old)
        HeapTrim.soon()
    }
}
