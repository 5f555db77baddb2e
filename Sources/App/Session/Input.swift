import ByteInput
import CellWidth
import LineLayout
import ReadingPositions
import TextModel
#if canImport(Glibc)
import Glibc
#endif

/// One document as read from the outside world.
struct LoadedDocument {
    /// What the status line and error messages call it: the argument as given, `stdin` for a
    /// pipe; bytes that are not UTF-8 shown as `<E9>` (`FileName.display`).
    var name: String
    /// Canonical absolute path for files, in `FileName`'s string form (for system calls, go
    /// through `FileName`); nil for standard input.
    var path: String?
    /// The whole input for Markdown (and small finished text inputs: reading positions hash
    /// them); empty while the input is only in `store` (text, and a large Markdown file until
    /// `Launch.finishReading` or its full parse).
    var bytes: [UInt8]
    var kind: DocumentKind = .markdown
    /// The input's bytes as read so far (a file's read where asked: `ByteStore`).
    var store: ByteStore? = nil
    /// The thread still reading a pipe (nil for files and finished input).
    var reader: StreamReader? = nil
    /// A stream whose first bytes had not come when it was opened (a FIFO nobody writes to
    /// yet, `(sleep 9; cat x.md) | folio`): its kind is not known yet and `kind` is only a
    /// placeholder. The pager is up meanwhile and decides once bytes come
    /// (`Launch.waitForKind`, which reads from this descriptor, the reader's).
    var kindPendingFD: Int32? = nil
    /// Said on the status line when the document opens (a Markdown file too large for the
    /// Markdown parser, shown as text).
    var notice: String? = nil
    /// How folio came by the bytes shown, when they are not the file's own (nil: the file as
    /// it is, or a pipe).
    var filter: InputFilter? = nil
    /// A file folio opened by name and reads itself (its own bytes, decompressed or not, or a
    /// `LESSOPEN` replacement file), which the pager asks about when it looks binary, as less
    /// asks; never standard input, a FIFO or a preprocessor's output.
    var asksIfBinary = false
    /// False for a document the pager made (the help): the same text each time, opened at
    /// its top, so no reading position is saved or restored for it.
    var keepsPosition = true
    /// Text inputs up to this size that have ended are hashed whole for their reading
    /// position; larger ones and unfinished pipes are known by a sample (`LargeText`).
    static let positionLimit = LargeText.threshold
}

enum InputError: Error, CustomStringConvertible {
    case cannotOpen(name: String, reason: String)
    var description: String {
        switch self {
        case .cannotOpen(let name, let reason): return "\(name): \(reason)"
        }
    }
}

enum Input {
    /// Reads a file (`argument` in `FileName`'s string form), or standard input for `-`.
    /// Errors carry less-style messages (`No such file or directory`, `Is a directory`,
    /// `Permission denied`).
    static func load(_ argument: String) -> Result<LoadedDocument, InputError> {
        if argument == "-" {
            return .success(LoadedDocument(name: "stdin", path: nil, bytes: readAll(fd: 0)))
        }
        // A link or a reload never opens a FIFO or a device: they could block or never end.
        switch openFile(argument, regularOnly: true) {
        case .failure(let error): return .failure(error)
        case .success(let file):
            defer { close(file.fd) }
            return .success(LoadedDocument(name: FileName.display(argument), path: file.path,
                                           bytes: readFile(fd: file.fd, size: Int(file.status.st_size))))
        }
    }

    /// Opens a named file (`argument` in `FileName`'s string form) without blocking
    /// (`O_NONBLOCK`: a FIFO's `open` waits for a writer otherwise), with its status and
    /// canonical path; less-style errors.
    static func openFile(_ argument: String, regularOnly: Bool)
        -> Result<(fd: Int32, status: stat, path: String), InputError> {
        func failure(_ reason: String) -> Result<(fd: Int32, status: stat, path: String), InputError> {
            .failure(.cannotOpen(name: FileName.display(argument), reason: reason))
        }
        var st = stat()
        if FileName.stat(argument, &st) != 0 { return failure(String(cString: strerror(errno))) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return failure("Is a directory") }
        if regularOnly && (st.st_mode & S_IFMT) != S_IFREG { return failure("Not a regular file") }
        let fd = FileName.open(argument, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { return failure(String(cString: strerror(errno))) }
        return .success((fd, st, FileName.realpath(argument) ?? argument))
    }

    /// A regular file of known size: read straight into a buffer of that size (no regrowing
    /// and copying, which costs ~10 ms on 20 MB), then on to `readAll` if the file grew.
    static func readFile(fd: Int32, size: Int) -> [UInt8] {
        guard size > 0 else { return readAll(fd: fd) }
        var filled = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while filled < size {
                let n = read(fd, buffer.baseAddress! + filled, size - filled)
                if n > 0 { filled += n } else if n < 0 && errno == EINTR { continue } else { break }
            }
            initialized = filled
        }
        if filled == size { bytes += readAll(fd: fd) }
        return bytes
    }

    /// Reads until end of file, retrying on EINTR. A read error ends the input where it is.
    static func readAll(fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                result.append(contentsOf: chunk[0..<n])
                if chunk.count < (1 << 22) { chunk = [UInt8](repeating: 0, count: chunk.count * 2) }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return result
    }
}

/// Writes to stderr in one line, `folio: MESSAGE`, control characters made visible (a file
/// name may hold an ESC; it must not reach the terminal), and bytes of an argument that are
/// not UTF-8 as `<E9>` (ArgumentParser quotes arguments in its errors).
public func reportError(_ message: String) {
    let line = Array("folio: \(VisibleControls.escape(FileName.display(message)))\n".utf8)
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}

/// Writes all bytes to a file descriptor, retrying partial writes and EINTR.
/// Returns false when the reader went away (EPIPE), so print mode can stop quietly.
@discardableResult
func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { writeAll(fd: fd, $0) }
}

@discardableResult
func writeAll(fd: Int32, _ buf: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < buf.count {
        let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
        if n > 0 { offset += n; continue }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        return false
    }
    return true
}
