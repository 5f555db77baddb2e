import Foundation
import GrammarLoader
import Images
import LineLayout
import Testing

/// The image plugin as folio finds it (beside the grammars: `make grammars` builds it). Without
/// it these tests are skipped, unless FOLIO_REQUIRE_GRAMMARS is set (`make test`): then they fail.
enum TestCodec {
    static let codec: ImageCodec? = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let dir = URL(fileURLWithPath: exe).deletingLastPathComponent().path
        let path = GrammarLoader.searchPath(executableDirectory: dir, environment: ProcessInfo.processInfo.environment)
        return try? ImageCodec.load(searchPath: path).get()
    }()
    static var available: Bool { ProcessInfo.processInfo.environment["FOLIO_REQUIRE_GRAMMARS"] != nil || codec != nil }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("SampleDocs/images/\(name)")))
    }
}

@Suite(.enabled(if: TestCodec.available, "folio-images.so not built (make grammars)"))
struct ImageCodecTests {
    @Test(arguments: ["picture.png", "picture.jpg", "picture.gif", "picture.webp", "picture.svg"])
    func everySampleFormatDecodes(_ name: String) throws {
        let codec = try #require(TestCodec.codec)
        let image = try #require(codec.decode(try TestCodec.sample(name)))
        #expect(image.width == 160 && image.height == 90)
        #expect(image.pixels.count == 160 * 90 * 4)
        // The sun in the middle is yellow (250, 210, 40) in every format, within lossy coding.
        let k = (45 * 160 + 80) * 4
        let (r, g, b) = (Int(image.pixels[k]), Int(image.pixels[k + 1]), Int(image.pixels[k + 2]))
        #expect(r > 200 && g > 160 && b < 100, "\(name): centre is \(r),\(g),\(b)")
    }

    @Test func cellsAreBlockElementsInTheImagesColours() throws {
        let codec = try #require(TestCodec.codec)
        let image = try #require(codec.decode(try TestCodec.sample("picture.png")))
        let cells = try #require(codec.cells(image, cols: 20, rows: 6, background: 0))
        #expect(cells.count == 120)
        for cell in cells {
            #expect(cell.character == " " || (0x2580...0x259F).contains(cell.character.value), "\(cell.character)")
        }
        // The middle cell shows the sun.
        let middle = cells[3 * 20 + 10]
        let colour = middle.character == " " ? middle.background : (middle.background ?? middle.foreground)
        let c = try #require(colour)
        #expect(c >> 16 > 200 && (c >> 8) & 0xFF > 160)
    }

    @Test func sixelIsOneDeviceControlString() throws {
        let codec = try #require(TestCodec.codec)
        let image = try #require(codec.decode(try TestCodec.sample("picture.png")))
        let sixel = try #require(codec.sixel(image, cols: 10, rows: 3, cellWidth: 10, cellHeight: 20, background: 0))
        #expect(Array(sixel.prefix(2)) == [0x1B, 0x50])  // ESC P
        #expect(sixel.contains(UInt8(ascii: "q")))
        #expect(Array(sixel.suffix(2)) == [0x1B, 0x5C])  // ESC \
    }

    /// Not images, damaged ones and decompression bombs decode to nothing (never a crash).
    @Test func badBytesAreNoImage() throws {
        let codec = try #require(TestCodec.codec)
        let png = try TestCodec.sample("picture.png")
        #expect(codec.decode([]) == nil)
        #expect(codec.decode(Array("not an image at all".utf8)) == nil)
        for cut in [8, 16, 33, 60, png.count / 2, png.count - 12] { _ = codec.decode(Array(png.prefix(cut))) }
        // A PNG header claiming 100000 x 100000 pixels.
        var bomb = png
        bomb.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(codec.decode(bomb) == nil)
        for name in ["picture.jpg", "picture.gif", "picture.webp", "picture.svg"] {
            let bytes = try TestCodec.sample(name)
            for cut in stride(from: 4, to: bytes.count, by: max(1, bytes.count / 9)) { _ = codec.decode(Array(bytes.prefix(cut))) }
            var flipped = bytes
            for i in stride(from: 20, to: flipped.count, by: 37) { flipped[i] ^= 0x5A }
            _ = codec.decode(flipped)
        }
    }
}

@Suite struct ImageFilesTests {
    @Test func localSourcesResolveAgainstTheDocument() {
        #expect(ImageFiles.path(of: "a.png", relativeTo: "/docs") == "/docs/a.png")
        #expect(ImageFiles.path(of: "./img/a%20b.png?raw=true#x", relativeTo: "/docs/") == "/docs/./img/a b.png")
        #expect(ImageFiles.path(of: "/abs/a.png", relativeTo: "/docs") == "/abs/a.png")
        #expect(ImageFiles.path(of: "file:///abs/a.png", relativeTo: "/docs") == "/abs/a.png")
        #expect(ImageFiles.path(of: "file://localhost/abs/a.png", relativeTo: nil) == "/abs/a.png")
        #expect(ImageFiles.path(of: "a.png", relativeTo: nil) == "a.png")
    }

    @Test func networkSourcesAreNeverFiles() {
        for s in ["https://x.org/a.png", "http://x/a.png", "//cdn/a.png", "data:image/png;base64,AA", "file://otherhost/a.png"] {
            #expect(ImageFiles.path(of: s, relativeTo: "/docs") == nil, "\(s)")
        }
    }

    @Test func onlyRegularFilesAreRead() {
        #expect(ImageFiles.read("/dev/zero") == nil)
        #expect(ImageFiles.read("/") == nil)
        #expect(ImageFiles.read("/nonexistent/x.png") == nil)
    }
}
