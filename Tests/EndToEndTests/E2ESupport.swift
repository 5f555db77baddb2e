import Foundation
import Testing
import TestSupport

/// Shared helpers for the end-to-end tests: temporary folders, running `folio` as a
/// subprocess with pipes, the sample documents, and terminal column counting.
enum E2E {
    /// The package root, derived from this file's location (never a machine path).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A sample document under `SampleDocs/`.
    static func sample(_ name: String) -> String {
        packageRoot.appendingPathComponent("SampleDocs").appendingPathComponent(name).path
    }

    /// The built binary, or a thrown error that names how to build it.
    static func folio() throws -> String {
        guard let path = FolioBinary.path() else {
            throw TmuxError(description: "folio binary not found: run `swift build --product folio` or set FOLIO_BIN")
        }
        return path
    }

    /// A fresh temporary folder for one test (documents and `FOLIO_STATE_DIR`).
    static func temporaryDirectory() throws -> URL {
        try ScratchDirectory.make("e2e")
    }

    /// Writes `contents` to `name` in `folder` and returns the path.
    @discardableResult
    static func write(_ contents: String, to name: String, in folder: URL) throws -> String {
        try write(bytes: Array(contents.utf8), to: name, in: folder)
    }

    /// Written through a descriptor opened close-on-exec: tests run in parallel, and a process
    /// another test starts meanwhile would otherwise inherit it, keeping a script written here
    /// open for writing, so that executing it failed with ETXTBSY.
    @discardableResult
    static func write(bytes: [UInt8], to name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CocoaError(.fileWriteUnknown) }
            offset += n
        }
        return url.path
    }

    /// What a finished print-mode run left behind.
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        var timedOut: Bool
        var text: String { String(decoding: stdout, as: UTF8.self) }
        var errors: String { String(decoding: stderr, as: UTF8.self) }
        var lines: [String] {
            var lines = text.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// The minimal, terminal-free environment of a CI job: no TERM, no NO_COLOR, no COLORTERM.
    static func baseEnvironment(stateDir: URL) -> [String: String] {
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "FOLIO_STATE_DIR": stateDir.path,
        ]
        // The user's config, key bindings and themes are never read: a home of the test's own.
        let dir = stateDir.deletingLastPathComponent()
        env["HOME"] = dir.appendingPathComponent("home").path
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        return env
    }

    /// Runs folio with stdin, stdout and stderr all pipes. Stdin receives `input` (then EOF).
    /// Kills the process and reports `timedOut` after `timeout` seconds.
    static func run(
        _ arguments: [String], input: [UInt8] = [], environment: [String: String],
        timeout: TimeInterval = 60
    ) throws -> Result {
        let output = try Subprocess.run(try folio(), arguments, environment: environment,
                                        input: input, timeout: timeout)
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr,
                      timedOut: output.timedOut)
    }

    /// Terminal columns of a line of plain text: an emoji sequence (VS16, ZWJ, a skin tone, a
    /// flag) is 2, any other cluster the sum of its code points (East Asian wide and emoji 2,
    /// combining marks and format characters 0, everything else 1), as terminals that draw code
    /// point by code point count it. (A test-side approximation of CellWidth, good for the
    /// scripts the test documents use.)
    static func columns(_ line: String) -> Int {
        line.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        let joins = { (s: Unicode.Scalar) in
            s.value == 0xFE0F || s.value == 0x200D || (0x1F1E6...0x1F1FF).contains(s.value) || (0x1F3FB...0x1F3FF).contains(s.value)
        }
        if scalars.count > 1 && scalars.contains(where: joins) { return 2 }
        return scalars.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of scalar: Unicode.Scalar) -> Int {
        if (0x600...0x605).contains(scalar.value) || scalar.value == 0x6DD { return 1 }  // visible number signs
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The first `n` words of a screen row (for "the same block is on top" comparisons).
    static func firstWords(_ row: String, _ n: Int = 3) -> String {
        row.split(whereSeparator: { $0 == " " }).prefix(n).joined(separator: " ")
    }
}
