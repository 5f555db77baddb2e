import ByteInput
import LineLayout
import Pager
#if canImport(Glibc)
import Glibc
#endif

/// A text file on screen is what is on disk (issue 27: `G` on a log that grew still ended at
/// its old last line; after a rewrite, `r`, `R` and `g` kept the old text). Before keys are
/// taken, the current text file is looked at (one `stat`): lines it gained are taken in, so
/// `G`, `F`, a search past the end show them, as less does; shrunk or replaced, it is read
/// again and placed by its saved position, as after `v`. `R` also reloads a Markdown file.
extension EventLoop {
    /// What changed in the current document's file since it was last read, if it is a text
    /// file (not a pipe; a followed one is `pollFiles`' business).
    enum FileChange { case none, grew(size: Int), rewritten }

    func fileChange(_ index: Int) -> FileChange {
        guard inputs.indices.contains(index), let path = inputs[index].source.path,
              inputs[index].reader == nil, inputs[index].isText else { return .none }
        var st = stat()
        guard FileName.stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .none }
        let slot = inputs[index]
        let size = Int(st.st_size)
        if UInt(st.st_ino) != slot.file.inode || size < slot.store.count { return .rewritten }
        if let sample = slot.file.sample, !sample.matches(path: path) { return .rewritten }
        if size > slot.store.count { return .grew(size: size) }
        let sameTime = st.st_mtim.tv_sec == slot.file.modified.tv_sec && st.st_mtim.tv_nsec == slot.file.modified.tv_nsec
        // The same size written again: read again too (the bytes are not compared).
        return sameTime || size == 0 ? .none : .rewritten
    }

    /// Takes in what the current text file gained, or reads it again (see the type's note);
    /// what the pager must hear of it.
    mutating func syncTextFile() -> [PagerEvent] {
        let index = state.current
        switch fileChange(index) {
        case .none:
            return []
        case .grew(let size):
            guard let path = inputs[index].source.path, inputs[index].isText else { return [] }
            let fd = FileName.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            _ = inputs[index].store.attachFile(fd: fd, length: size)
            indexText(index, limit: EventLoop.indexSliceBytes, inputEnded: true)
            inputs[index].settleTextFile()
            noteFile(&inputs[index])
            textFileChanged(index)
            return [.inputArrived(document: index)]
        case .rewritten:
            guard let path = inputs[index].source.path else { return [] }
            reopenText(index, path: path)
            return []
        }
    }

    /// `R`: the current document read again from its file (a text file as `syncTextFile`
    /// does, a Markdown file reloaded with the same text on top).
    mutating func reread() -> [PagerEvent] {
        let index = state.current
        guard inputs.indices.contains(index),
              let path = inputs[index].source.path, inputs[index].reader == nil else { return [] }
        if inputs[index].isText { return syncTextFile() }
        noteFile(&inputs[index])
        reloadFile(index, path: path, markChanges: true)
        return []
    }
}

/// The first and last bytes of a file as it was read: if the file now holds others there, it
/// was written anew, whatever its size (a longer rewrite is not an append).
struct FileSample {
    static let length = 64
    let head: [UInt8]
    let tailOffset: Int
    let tail: [UInt8]

    init(_ store: ByteStore) {
        let count = store.count
        head = store.sample(0..<min(count, FileSample.length))
        tailOffset = max(0, count - FileSample.length)
        tail = store.sample(tailOffset..<count)
    }

    /// Whether the file at `path` holds the same bytes there now.
    func matches(path: String) -> Bool {
        let fd = FileName.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return true }  // unreadable now: nothing to say
        defer { close(fd) }
        func read(_ offset: Int, _ count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? buffer : []
        }
        return read(0, head.count) == head && read(tailOffset, tail.count) == tail
    }
}
