import Foundation
@testable import Preprocess
#if canImport(Glibc)
import Glibc
#endif

/// Temporary folders, files and commands for the tests (commands through the module's own
/// `Preprocessor.spawn`: Foundation's `Process` is not used, see the end-to-end tests' note).
enum Support {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-preprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @discardableResult
    static func write(_ bytes: [UInt8], to url: URL) throws -> URL {
        try Data(bytes).write(to: url)
        return url
    }

    static func read(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Writes an executable shell script.
    /// Written through a descriptor opened close-on-exec: tests run in parallel, and a child
    /// another test forks while this one writes would otherwise inherit the descriptor and
    /// keep the script open for writing, so executing it failed with ETXTBSY (a flaky test).
    /// Run it as `sh PATH`, not as PATH: a file just written may still be open for writing
    /// in a child another test forked at that moment (until its exec closes it), and
    /// executing it then fails with ETXTBSY; `sh` only reads it.
    static func script(_ body: String, named name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        chmod(url.path, 0o755)
        return url
    }

    /// Runs `sh -c command`; its exit status.
    @discardableResult
    static func sh(_ command: String) -> Int32 {
        guard let (_, process) = Preprocessor.spawn(Array(command.utf8), shell: "/bin/sh", readOutput: false) else { return -1 }
        return Preprocessor.wait(for: process)
    }

    /// Runs `sh -c command` and returns what it wrote on standard output.
    static func output(_ command: [UInt8]) -> [UInt8] {
        guard let (fd, process) = Preprocessor.spawn(command, shell: "/bin/sh", readOutput: true), let fd else { return [] }
        let out = readAll(fd)
        close(fd)
        _ = Preprocessor.wait(for: process)
        return out
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// Whether a command is on PATH.
    static func has(_ tool: String) -> Bool { sh("command -v \(tool) >/dev/null 2>&1") == 0 }

    /// The command-line tool that makes each format, `-c` writing to standard output.
    static func tool(_ format: CompressionFormat) -> String {
        switch format {
        case .gzip: return "gzip"
        case .bzip2: return "bzip2"
        case .xz: return "xz"
        case .zstd: return "zstd"
        }
    }

    /// `bytes` compressed by the format's own tool (nil when it is not installed).
    static func compress(_ bytes: [UInt8], _ format: CompressionFormat, in dir: URL) throws -> [UInt8]? {
        guard has(tool(format)) else { return nil }
        let input = try write(bytes, to: dir.appendingPathComponent("in-\(UUID().uuidString)"))
        let output = dir.appendingPathComponent("out-\(UUID().uuidString)")
        guard sh("\(tool(format)) -c < '\(input.path)' > '\(output.path)' 2>/dev/null") == 0 else { return nil }
        return try read(output)
    }

    /// A test input larger than a few output buffers: compressible text, then noise, then text.
    static func sample(size: Int = 600_000) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        var text: [UInt8] = []
        var line = 0
        while text.count < size / 2 {
            text += Array("line \(line): the quick brown fox jumps over the lazy dog\n".utf8)
            line += 1
        }
        let noise = (0..<(size / 4)).map { _ in next() }
        return text + noise + Array(text.prefix(size / 4))
    }

    /// Decompresses `compressed` fed in pieces of `chunk` bytes; the output and the error.
    static func decompress(_ compressed: [UInt8], _ format: CompressionFormat, chunk: Int) -> ([UInt8], DecompressionError?) {
        var out: [UInt8] = []
        do {
            let d = try Decompressor(format: format)
            var at = 0
            repeat {
                let end = min(compressed.count, at + chunk)
                let final = end == compressed.count
                _ = try compressed.withUnsafeBytes { all in
                    try d.feed(UnsafeRawBufferPointer(rebasing: all[at..<end]), final: final) { out += $0; return true }
                }
                at = end
            } while at < compressed.count
            return (out, nil)
        } catch let error as DecompressionError {
            return (out, error)
        } catch {
            return (out, .cannotStart(format))
        }
    }
}
