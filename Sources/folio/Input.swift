import CellWidth
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One document as read from the outside world.
struct LoadedDocument {
    /// What the status line and error messages call it: the argument as given, `stdin` for a pipe.
    var name: String
    /// Canonical absolute path for files; nil for standard input.
    var path: String?
    var bytes: [UInt8]
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
    /// Reads a file, or standard input for `-`. Errors carry less-style messages
    /// (`No such file or directory`, `Is a directory`, `Permission denied`).
    static func load(_ argument: String) -> Result<LoadedDocument, InputError> {
        if argument == "-" {
            return .success(LoadedDocument(name: "stdin", path: nil, bytes: readAll(fd: 0)))
        }
        var st = stat()
        if stat(argument, &st) != 0 {
            return .failure(.cannotOpen(name: argument, reason: String(cString: strerror(errno))))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            return .failure(.cannotOpen(name: argument, reason: "Is a directory"))
        }
        let fd = open(argument, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            return .failure(.cannotOpen(name: argument, reason: String(cString: strerror(errno))))
        }
        defer { close(fd) }
        let bytes = (st.st_mode & S_IFMT) == S_IFREG ? readFile(fd: fd, size: Int(st.st_size)) : readAll(fd: fd)
        let canonical = realpath(argument, nil).map { p -> String in
            defer { free(p) }
            return String(cString: p)
        }
        return .success(LoadedDocument(name: argument, path: canonical ?? argument, bytes: bytes))
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
/// name may hold an ESC; it must not reach the terminal).
func reportError(_ message: String) {
    let line = Array("folio: \(VisibleControls.escape(message))\n".utf8)
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}

/// Writes all bytes to a file descriptor, retrying partial writes and EINTR.
/// Returns false when the reader went away (EPIPE), so print mode can stop quietly.
@discardableResult
func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    return bytes.withUnsafeBytes { buf -> Bool in
        while offset < buf.count {
            let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return false
        }
        return true
    }
}
