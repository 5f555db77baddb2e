import Foundation
import Testing
@testable import Preprocess
#if canImport(Glibc)
import Glibc
#endif

/// A compressed file read as a pipe: whole, cut short (the end says why), and never
/// decompressed ahead of its reader by more than the pipe holds.
@Suite struct DecompressingPipeTests {
    static func open(_ url: URL) -> Int32 { Glibc.open(url.path, O_RDONLY | O_CLOEXEC) }

    @Test(arguments: CompressionFormat.allCases) func readsTheWholeFile(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Support.sample()
        guard let packed = try Support.compress(original, format, in: dir) else { return }
        let file = try Support.write(packed, to: dir.appendingPathComponent("f"))
        let pipe = try #require(DecompressingPipe.start(fd: Self.open(file), format: format))
        #expect(Support.readAll(pipe.fd) == original)
        close(pipe.fd)
        #expect(pipe.report.text == nil)
    }

    /// A truncated file: its beginning comes through, then the end, and the report says why.
    @Test func truncatedFileReportsAtItsEnd() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Support.sample()
        guard let packed = try Support.compress(original, .gzip, in: dir) else { return }
        let file = try Support.write(Array(packed.prefix(packed.count * 2 / 3)), to: dir.appendingPathComponent("t.gz"))
        let pipe = try #require(DecompressingPipe.start(fd: Self.open(file), format: .gzip))
        let out = Support.readAll(pipe.fd)
        close(pipe.fd)
        #expect(!out.isEmpty && out.count < original.count)
        #expect(Array(original.prefix(out.count)) == out)
        #expect(pipe.report.text == "gzip: unexpected end of file")
    }

    /// Streaming, bounded like a pipe: 256 MB of zeros (a quarter-megabyte gzip file) whose
    /// reader takes 1 MB and stops. The thread then waits on the full pipe: it has read little
    /// of the compressed file (the thread's descriptor is a duplicate of the test's, so they
    /// share the file offset), where decompressing ahead of the reader would have read it all.
    @Test func decompressesOnlyAsFarAsItIsRead() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("zeros.gz")
        guard Support.has("gzip"), Support.sh("head -c 268435456 /dev/zero | gzip -1 > '\(file.path)'") == 0 else { return }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let fd = Self.open(file)
        defer { close(fd) }
        let pipe = try #require(DecompressingPipe.start(fd: dup(fd), format: .gzip))
        defer { close(pipe.fd) }
        var taken = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while taken < 1 << 20 {
            let n = read(pipe.fd, &chunk, chunk.count)
            guard n > 0 else { break }
            taken += n
        }
        #expect(taken >= 1 << 20)
        usleep(300_000)
        let offset = Int(lseek(fd, 0, SEEK_CUR))
        #expect(offset < size / 2, "the thread read \(offset) of \(size) compressed bytes for 1 MB read")
    }
}
