import Foundation
import Testing
@testable import Preprocess
#if canImport(Glibc)
import Glibc
#endif

/// gzip, bzip2, xz and zstd files, made by the system's own tools, decompressed through the
/// libraries as folio reads them: in pieces, whole, concatenated, cut short, damaged.
@Suite struct DecompressionTests {
    static let formats = CompressionFormat.allCases

    /// Each format's magic number, as its tool writes it, names the format; text, other
    /// formats' prefixes cut short and nothing name none.
    @Test(arguments: formats) func magicNumbersNameTheFormat(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let packed = try Support.compress(Array("hello\n".utf8), format, in: dir) else { return }
        #expect(CompressionFormat.format(magic: packed) == format)
        #expect(CompressionFormat.format(magic: packed.prefix(CompressionFormat.magicLength)) == format)
        #expect(CompressionFormat.format(magic: packed.prefix(2)) == nil, "too short to tell")
    }

    @Test func otherBytesAreNotCompressed() {
        for bytes in ["", "# Title\n", "BZh", "BZhx", "\u{1F}", "\u{7F}ELF"].map({ Array($0.utf8) }) {
            #expect(CompressionFormat.format(magic: bytes) == nil, "\(bytes)")
        }
        #expect(CompressionFormat.format(magic: [0x1F, 0x8B, 0x07]) == nil, "gzip's header names deflate (8)")
        #expect(CompressionFormat.format(magic: [0x1F, 0x9D, 0x90]) == nil, "compress(1) is not read")
    }

    /// The name of what a compressed file holds decides its kind: the compression suffix goes.
    @Test func uncompressedNames() {
        let cases: [(String, String)] = [
            ("README.md.gz", "README.md"), ("ls.1.gz", "ls.1"), ("a/b.txt.bz2", "a/b.txt"), ("x.json.xz", "x.json"),
            ("notes.md.zst", "notes.md"), ("LOUD.MD.GZ", "LOUD.MD"), ("plain.md", "plain.md"), (".gz", ".gz"),
            ("dir/.xz", "dir/.xz"), ("archive.tgz", "archive.tgz"), ("x.gzip", "x.gzip"),
            ("caf\u{10FEE9}.md.gz", "caf\u{10FEE9}.md"),
        ]
        for (name, expected) in cases { #expect(CompressionFormat.uncompressedName(name) == expected, "\(name)") }
    }

    /// Whatever the pieces the input comes in (one byte at a time up to all at once), the
    /// output is the original, and more than one output buffer of it.
    @Test(arguments: formats) func roundTripInAnyPieces(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Support.sample()
        guard let packed = try Support.compress(original, format, in: dir) else { return }
        #expect(original.count > 4 * Decompressor.outputSize)
        for chunk in [1, 7, 4096, 1 << 16, packed.count] {
            let (out, error) = Support.decompress(packed, format, chunk: chunk)
            #expect(error == nil, "\(format) in pieces of \(chunk): \(String(describing: error))")
            #expect(out == original, "\(format) in pieces of \(chunk): \(out.count) bytes of \(original.count)")
        }
    }

    /// Files made of several compressed streams (`cat a.gz b.gz > ab.gz`) are read whole, as
    /// their tools read them.
    @Test(arguments: formats) func concatenatedStreams(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = Array("first part\n".utf8), b = Support.sample(size: 200_000)
        guard let pa = try Support.compress(a, format, in: dir), let pb = try Support.compress(b, format, in: dir) else { return }
        for chunk in [3, 1 << 16] {
            let (out, error) = Support.decompress(pa + pb + pa, format, chunk: chunk)
            #expect(error == nil, "\(format): \(String(describing: error))")
            #expect(out == a + b + a, "\(format) in pieces of \(chunk)")
        }
    }

    /// Zeros after a gzip or bzip2 file's last stream (tape padding) are ignored, as gzip does.
    @Test(arguments: [CompressionFormat.gzip, .bzip2]) func paddingAfterTheLastStream(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Array("padded\n".utf8)
        guard let packed = try Support.compress(original, format, in: dir) else { return }
        let (out, error) = Support.decompress(packed + [UInt8](repeating: 0, count: 512), format, chunk: 100)
        #expect(error == nil)
        #expect(out == original)
    }

    /// A file cut short gives what decompressed from it — a beginning of the original — and
    /// says so, in gzip's words: "unexpected end of file". Cut anywhere past the header.
    @Test(arguments: formats) func truncatedFilesSayTheyEndEarly(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Support.sample(size: 300_000)
        guard let packed = try Support.compress(original, format, in: dir) else { return }
        for cut in [packed.count - 1, packed.count / 2, 40] {
            let (out, error) = Support.decompress(Array(packed.prefix(cut)), format, chunk: 4096)
            #expect(error == .truncated(format), "\(format) cut at \(cut): \(String(describing: error))")
            #expect(Array(original.prefix(out.count)) == out, "what came out is the original's beginning")
            // (Cut in its last byte, a file may have given all its text: only the check is gone.)
            if cut <= packed.count / 2 { #expect(out.count < original.count) }
        }
        #expect(DecompressionError.truncated(format).description == "\(format.rawValue): unexpected end of file")
    }

    /// Damaged data is an error naming the format, after what decompressed before it.
    @Test(arguments: formats) func damagedDataIsAnError(format: CompressionFormat) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = Support.sample(size: 300_000)
        guard var packed = try Support.compress(original, format, in: dir) else { return }
        for i in stride(from: packed.count / 2, to: packed.count / 2 + 64, by: 1) { packed[i] ^= 0x5A }
        let (_, error) = Support.decompress(packed, format, chunk: 4096)
        let e = try #require(error, "\(format): damage went unnoticed")
        #expect(e.description.hasPrefix("\(format.rawValue): "), "\(e)")
    }

    /// `emit` returning false stops the feed at once.
    @Test func emitStops() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let packed = try Support.compress(Support.sample(), .gzip, in: dir) else { return }
        let d = try Decompressor(format: .gzip)
        var calls = 0
        let going = try packed.withUnsafeBytes { try d.feed($0, final: true) { _ in calls += 1; return false } }
        #expect(!going)
        #expect(calls == 1)
    }
}
