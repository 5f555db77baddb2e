import ByteInput
import CellWidth
import LineLayout
import ReadingPositions
import TextModel
import Threads
#if canImport(Glibc)
import Glibc
#endif

extension Input {
    /// Opens a command-line argument (in `FileName`'s string form) as a stream: a regular file
    /// is read where asked (nothing copied), anything else (standard input, a FIFO, a device,
    /// a file whose size says nothing of its content: `sizeIsUnknown`) gets a reader thread,
    /// started later by the caller. Never blocks in `open` (FIFOs open non-blocking). The
    /// kind is forced, or comes from the file name, or from the first bytes (see
    /// `KindDetector`): for a pipe, waits up to `sniffWait` ms for 64 KB or the end of input,
    /// whichever comes first, and less when the input pauses for 20 ms.
    ///
    /// `firstBytesWait`: milliseconds to wait for a stream's first bytes (-1: as long as it
    /// takes, print mode); nothing by then, and the document comes back with its kind
    /// pending (`LoadedDocument.kindPendingFD`).
    ///
    /// `filters`: for the files named on the command line, `LESSOPEN` and decompression
    /// (`InputFilters`); nil for the files folio opens later (a link, a file read again after
    /// the editor), which are read as they are.
    static func openStream(_ argument: String, forced: DocumentKind?, mailbox: Mailbox, doc: Int,
                           sniffWait: Int32 = 100, firstBytesWait: Int32 = -1,
                           filters: InputFilters? = nil) -> Result<LoadedDocument, InputError> {
        let opening = StreamOpening(forced: forced, mailbox: mailbox, doc: doc, sniffWait: sniffWait,
                                    firstBytesWait: firstBytesWait)
        if let filters, let preprocessed = filters.preprocess(argument, opening) { return preprocessed }
        let store = ByteStore()
        var fd: Int32 = 0
        var name = "stdin"
        var path: String?
        var st = stat()
        if argument != "-" {
            name = FileName.display(argument)
            switch openFile(argument, regularOnly: false) {
            case .failure(let error): return .failure(error)
            case .success(let file): (fd, st, path) = (file.fd, file.status, file.path)
            }
        }
        let isFile = argument != "-" && (st.st_mode & S_IFMT) == S_IFREG
            && !sizeIsUnknown(fd: fd, size: Int(st.st_size), store: store)
        let byName = argument == "-" ? nil : KindDetector.kind(forPath: argument)
        if isFile, let filters, filters.decompress, let decompressed = filters.decompressed(fd: fd, argument: argument, path: path, opening) {
            close(fd)
            return .success(decompressed)
        }
        if isFile {
            defer { close(fd) }
            let size = Int(st.st_size)
            if !store.attachFile(fd: fd, length: size) {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                let bytes = readAll(fd: fd)
                bytes.withUnsafeBytes { store.append($0) }
            }
            var kind = forced ?? byName ?? KindDetector.sniff(store.bytes(0..<min(store.count, 64 << 10)))
            var notice: String?
            if kind == .markdown && size > Input.markdownLimit {
                kind = .text
                notice = "\(name): over \(Input.markdownLimit >> 30) GB, shown as text (Markdown is parsed in memory)"
            }
            // A large Markdown file is not copied here: its first screen comes from a preview
            // of its beginning and the full parse copies it off the run loop (copying 100 MB
            // took ~40 ms before the first screen). `Launch.finishReading` copies it where the
            // whole is needed at once.
            let copy = kind == .markdown ? store.count <= Launch.previewThreshold : store.count <= LoadedDocument.positionLimit
            let bytes = copy ? store.bytes(0..<store.count) : []
            var document = LoadedDocument(name: name, path: path, bytes: bytes, kind: kind, store: store, notice: notice)
            document.asksIfBinary = filters != nil
            return .success(document)
        }
        // A stream: sniff what arrives first (after what `sizeIsUnknown` read), then read on in
        // the background.
        var document = stream(fd: fd, store: store, name: name, path: path, kind: forced ?? byName, opening)
        // (A regular file whose size says nothing: /proc, /sys.)
        document.asksIfBinary = filters != nil && argument != "-" && (st.st_mode & S_IFMT) == S_IFREG
        return .success(document)
    }

    /// How a stream is opened: the caller's choices that `stream` needs.
    struct StreamOpening {
        var forced: DocumentKind?
        var mailbox: Mailbox
        var doc: Int
        var sniffWait: Int32
        var firstBytesWait: Int32
    }

    /// A stream read from `fd` (a pipe, a FIFO, a device, a file read as a pipe) into `store`
    /// (which may hold its first bytes already) on a reader thread, started later by the
    /// caller. `kind`: what it is, or nil to sniff its first bytes (waiting as `openStream`
    /// says). `whenEnded`: see `StreamReader`.
    static func stream(fd: Int32, store: ByteStore, name: String, path: String?, kind: DocumentKind?,
                       _ opening: StreamOpening, whenEnded: (@Sendable () -> String?)? = nil) -> LoadedDocument {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let reader = StreamReader(fd: fd, doc: opening.doc, store: store, unbounded: false,
                                  whenEnded: whenEnded, tell: opening.mailbox.readerNews)
        var document = LoadedDocument(name: name, path: path, bytes: [], kind: kind ?? .text,
                                      store: store, reader: reader)
        if kind == nil {
            guard let sniffed = sniff(fd: fd, store: store, reader: reader, sniffWait: opening.sniffWait,
                                      firstBytesWait: opening.firstBytesWait) else {
                document.kindPendingFD = fd
                return document
            }
            document.kind = sniffed
        }
        settle(&document)
        return document
    }

    /// The kind of a stream from what arrives first: waits up to `firstBytesWait` ms for the
    /// first bytes (-1: without end; nothing by then: nil), then reads until 64 KB, the end,
    /// `sniffWait` ms in all, or a pause of 20 ms (a slow pipe's first lines are shown at
    /// once, sniffed from what came). What it reads goes into `store`.
    static func sniff(fd: Int32, store: ByteStore, reader: StreamReader, sniffWait: Int32 = 100,
                      firstBytesWait: Int32 = -1) -> DocumentKind? {
        var deadline = Platform.monotonicSeconds() + Double(sniffWait) / 1000
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        var readError: String?
        while store.count < (64 << 10) && !ended {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = store.count == 0 ? firstBytesWait : Int32(max(0, min(20, (deadline - Platform.monotonicSeconds()) * 1000)))
            if store.count > 0 && left == 0 { break }
            let ready = poll(&p, 1, left)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && store.count == 0 { return nil }
            if ready <= 0 { break }
            let n = read(fd, &buffer, min(buffer.count, (64 << 10) - store.count))
            if n > 0 {
                if store.count == 0 { deadline = Platform.monotonicSeconds() + Double(sniffWait) / 1000 }
                buffer.withUnsafeBytes { store.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                if n < 0 { readError = String(cString: strerror(errno)) }
                ended = true
            }
        }
        if ended { reader.markFinished(readError: readError) }
        return KindDetector.sniff(store.bytes(0..<store.count))
    }

    /// The largest file shown as Markdown. cmark keeps a block's text in a buffer of 32-bit
    /// size and aborts past it, and a document takes a few times its size in memory: a 3 GB
    /// file read as Markdown (`--markdown` on a sparse file: one paragraph) aborted folio.
    /// Larger ones are shown as text, which is read where asked and takes little.
    static let markdownLimit = 1 << 30

    /// A stream whose kind is known: a Markdown stream is read whole (it is parsed whole), and
    /// an input that ended while it was sniffed is whole: its bytes key its reading position.
    static func settle(_ document: inout LoadedDocument) {
        guard let reader = document.reader, let store = document.store else { return }
        document.kindPendingFD = nil
        if document.kind == .markdown { reader.readToEnd(true) }
        let whole = reader.finished && store.count <= (document.kind == .markdown ? Int.max : LoadedDocument.positionLimit)
        document.bytes = whole ? store.bytes(0..<store.count) : []
    }

    /// Whether a regular file's size says nothing of its content, so that it must be read as
    /// a stream (a file is otherwise read where asked, up to its size). The kernel makes the
    /// files of /proc, /sys and their kind as they are read: a /proc file says 0 bytes, a
    /// /sys attribute 4,096 whatever it holds. Such file systems are known by having no
    /// blocks at all (`statvfs`: Swift's Glibc module has no `statfs` and its type numbers);
    /// ramfs has none either, and its files, read as streams, are only not watched. A file of
    /// size 0 elsewhere (a FUSE mount such as lxcfs's /proc) is tried: the bytes a first read
    /// brings go into `store`. None, or a size that now counts them (a file being written
    /// since it was looked at), and it is a file like any other (watched, followed with `F`),
    /// read again from its start.
    static func sizeIsUnknown(fd: Int32, size: Int, store: ByteStore) -> Bool {
        var fs = statvfs()
        if fstatvfs(fd, &fs) == 0 && fs.f_blocks == 0 { return true }
        guard size == 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var n: Int
        repeat { n = read(fd, &buffer, buffer.count) } while n < 0 && errno == EINTR
        guard n > 0 else { return false }
        var now = stat()
        if fstat(fd, &now) != 0 || now.st_size > 0 {
            _ = lseek(fd, 0, SEEK_SET)
            return false
        }
        buffer.withUnsafeBytes { store.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        return true
    }
}
