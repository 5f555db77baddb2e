import ByteInput
import LineLayout
import Preprocess
import TextModel
#if canImport(Glibc)
import Glibc
#endif

/// How folio came by a document's bytes when they are not its file's own.
enum InputFilter: Equatable {
    /// Decompressed by folio: the file is of this format (by its magic number).
    case decompressed(CompressionFormat)
    /// Made by `LESSOPEN`'s command: `original` is the name it was given, `replacement` the
    /// replacement file's name, `-` for an input pipe's output (what `LESSCLOSE` is told).
    case lessOpen(original: [UInt8], replacement: [UInt8])
}

/// What stands between a file named on the command line and what folio shows of it, as in less:
/// first `LESSOPEN`'s preprocessor (unless `LESSSECURE=1`), then, for a file folio reads
/// itself, decompression of gzip, bzip2, xz and zstd files (which less leaves to a
/// preprocessor such as lesspipe). Either way the result is read as a pipe is (a reader
/// thread, bounded read-ahead, `G` reads on), under the file's own name and keyed by its path
/// for reading positions; it is not watched, and not read again after the editor.
///
/// Files opened later (a followed link, the file read again after `v`) are read as they are,
/// which is less's one difference here: less preprocesses every file it opens, `:e` included.
struct InputFilters {
    var lessOpen: LessOpen?
    var lessClose: LessClose?
    var shell = "/bin/sh"
    var decompress = true

    /// `LESSOPEN` and `LESSCLOSE` from the environment, unless less's secure mode
    /// (`LESSSECURE=1`) forbids them and `LESSSECURE_ALLOW` does not list `lessopen`.
    /// `warnings`: values less would ignore, in less's words.
    static func from(environment: [String: String]) -> (filters: InputFilters, warnings: [String]) {
        var filters = InputFilters(shell: Preprocessor.shell(environment: environment))
        var warnings: [String] = []
        let secure = environment["LESSSECURE"] == "1"
            && !(environment["LESSSECURE_ALLOW"] ?? "").split(separator: ",")
                .contains { $0.filter { $0 != " " } == "lessopen" }
        guard !secure else { return (filters, []) }
        switch LessOpen.parse(environment["LESSOPEN"] ?? "") {
        case .success(let l): filters.lessOpen = l
        case .failure(let e): warnings.append(e.message)
        case nil: break
        }
        switch LessClose.parse(environment["LESSCLOSE"] ?? "") {
        case .success(let l): filters.lessClose = l
        case .failure(let e): warnings.append(e.message)
        case nil: break
        }
        return (filters, warnings)
    }

    /// `argument` through `LESSOPEN`, if it applies to it and replaced it: its output (or an
    /// empty content, or the replacement file) as a stream named after the argument; nil when
    /// the file itself is to be opened.
    func preprocess(_ argument: String, _ opening: Input.StreamOpening) -> Result<LoadedDocument, InputError>? {
        guard let lessOpen, lessOpen.applies(to: argument) else { return nil }
        let original = FileName.bytes(argument)
        let name = argument == "-" ? "stdin" : FileName.display(argument)
        let path = argument == "-" ? nil : FileName.realpath(argument)
        let pipeName = Array("-".utf8)
        var document: LoadedDocument
        switch Preprocessor.open(original, with: lessOpen, shell: shell) {
        case .declined:
            return nil
        case .pipe(let fd, let first, let process):
            // What the command wrote is the content, whatever it is made of (a listing,
            // colours): its kind is sniffed, not taken from the file's name.
            let store = ByteStore()
            withUnsafeBytes(of: first) { store.append($0) }
            document = Input.stream(fd: fd, store: store, name: name, path: path, kind: opening.forced, opening,
                                    whenEnded: { Preprocessor.reap(process); return nil })
            document.filter = .lessOpen(original: original, replacement: pipeName)
        case .empty:
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            document = Input.stream(fd: fd, store: ByteStore(), name: name, path: path, kind: opening.forced ?? .text, opening)
            document.filter = .lessOpen(original: original, replacement: pipeName)
        case .replacement(let replacementName):
            switch Input.openFile(FileName.string(replacementName), regularOnly: false) {
            case .failure(let error):
                close(original: original, replacement: replacementName)
                return .failure(error)
            case .success(let file):
                document = Input.stream(fd: file.fd, store: ByteStore(), name: name, path: path, kind: opening.forced, opening)
                document.filter = .lessOpen(original: original, replacement: replacementName)
                // less opens a replacement file as it opens a file, asking if it looks binary.
                document.asksIfBinary = (file.status.st_mode & S_IFMT) == S_IFREG
            }
        }
        return .success(document)
    }

    /// A regular file (`fd`, named `argument`, at canonical `path`) that is compressed, by its
    /// first bytes: decompressed on a thread into a pipe, read as a stream. Its kind comes
    /// from its name without the compression suffix (`README.md.gz` is Markdown), else its
    /// first bytes. Nil when it is not compressed (or no pipe could be made): open it as it is.
    func decompressed(fd: Int32, argument: String, path: String?, _ opening: Input.StreamOpening) -> LoadedDocument? {
        var magic = [UInt8](repeating: 0, count: CompressionFormat.magicLength)
        let n = pread(fd, &magic, magic.count, 0)
        guard n > 0, let format = CompressionFormat.format(magic: magic[0..<n]) else { return nil }
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return nil }
        _ = fcntl(own, F_SETFL, fcntl(own, F_GETFL) & ~O_NONBLOCK)
        guard let pipe = DecompressingPipe.start(fd: own, format: format) else {
            Glibc.close(own)
            return nil
        }
        let kind = opening.forced ?? KindDetector.kind(forPath: CompressionFormat.uncompressedName(argument))
        let report = pipe.report
        var document = Input.stream(fd: pipe.fd, store: ByteStore(), name: FileName.display(argument), path: path,
                                    kind: kind, opening, whenEnded: { report.text })
        document.filter = .decompressed(format)
        document.asksIfBinary = true
        return document
    }

    /// Runs `LESSCLOSE` for every document `LESSOPEN` replaced, in order: when folio is done
    /// with them, as less runs it when it closes such a file (a signal that ends folio skips it).
    func close(_ documents: [LoadedDocument]) {
        for document in documents {
            if case .lessOpen(let original, let replacement) = document.filter {
                close(original: original, replacement: replacement)
            }
        }
    }

    private func close(original: [UInt8], replacement: [UInt8]) {
        guard let lessClose else { return }
        Preprocessor.close(original, replacement: replacement, with: lessClose, shell: shell)
    }
}
