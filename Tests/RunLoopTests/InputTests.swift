import ByteInput
import Foundation
import LineLayout
import MarkdownModel
import Pager
import Testing
import TextModel
import Threads
@testable import Session

/// Files whose size says nothing of their content (/proc, /sys) are read as streams; an
/// empty file elsewhere stays a file, watched and followed like any other (issue 31).
@Suite struct InputTests {
    static func open(_ path: String) throws -> LoadedDocument {
        switch Input.openStream(path, forced: .text, mailbox: PipeMailbox(), doc: 0) {
        case .success(let doc): return doc
        case .failure(let error): throw error
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/version"), "no /proc"))
    func aProcFileIsReadAsAStream() throws {
        let doc = try Self.open("/proc/version")
        let reader = try #require(doc.reader, "read as a stream")
        _ = reader.readSynchronously()
        let store = try #require(doc.store)
        let expected = try Data(contentsOf: URL(fileURLWithPath: "/proc/version"))
        #expect(!expected.isEmpty)
        #expect(store.bytes(0..<store.count) == Array(expected))
    }

    /// A /sys attribute says 4,096 bytes whatever it holds: read as a file, the rest of the
    /// 4,096 read as NULs.
    @Test func aSysFileIsReadAsAStream() throws {
        let candidates = ["/sys/kernel/mm/transparent_hugepage/enabled", "/sys/devices/system/cpu/online",
                          "/sys/class/net/lo/address", "/sys/kernel/osrelease"]
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else { return }
        let doc = try Self.open(path)
        let reader = try #require(doc.reader, "read as a stream")
        _ = reader.readSynchronously()
        let store = try #require(doc.store)
        let bytes = store.bytes(0..<store.count)
        #expect(!bytes.isEmpty)
        #expect(!bytes.contains(0))
        #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A file that was empty when looked at and has been written since (a log just rotated)
    /// is a file, not a stream: its first bytes are read again from the start.
    @Test func aFileWrittenSinceItsSizeWasTakenStaysAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-grown-\(getpid())-\(UUID().uuidString.prefix(8)).log")
        try Data("first line\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = Glibc.open(url.path, O_RDONLY)
        defer { close(fd) }
        let store = ByteStore()
        #expect(!Input.sizeIsUnknown(fd: fd, size: 0, store: store), "the size taken before it was written")
        #expect(store.count == 0)
        #expect(lseek(fd, 0, SEEK_CUR) == 0)
    }

    /// An empty regular file is a file (no reader): a file folio watches and follows.
    @Test func anEmptyFileStaysAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-empty-\(getpid())-\(UUID().uuidString.prefix(8)).txt")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let doc = try Self.open(url.path)
        #expect(doc.reader == nil)
        #expect(doc.store?.count == 0)
        #expect(doc.path != nil)
    }
}

/// The preview of a large Markdown file is its beginning, cut at a blank line; one without
/// any in its first MB (a giant paragraph or list) is cut at a line end, else at a character
/// boundary: it was parsed whole before its first screen (issue 31: 11-21 s and 4 GB for a
/// 100 MB paragraph).
@Suite struct PreviewPrefixTests {
    static func store(_ text: String) -> ByteStore {
        let store = ByteStore()
        Array(text.utf8).withUnsafeBytes { store.append($0) }
        return store
    }

    /// The first preview (`Launch.previewPrefix(_:screen:)`, sized by an estimate of its rows)
    /// fills common screens at once, without a second parse from more, for every sample
    /// document and for documents the estimate reads least well: a changelog of links,
    /// tables, prose wrapped at 40 columns, CJK prose, a quote, one opening with HTML comments
    /// and link definitions (as Node's API docs do), one opening with front matter (each
    /// repeated past the threshold, as a large file would be). It is never more than
    /// `previewSize`.
    @Test(arguments: [(24, 80), (30, 100), (50, 160), (60, 240)])
    func thePreviewFillsTheScreenAtOnce(rows: Int, columns: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleDocs")
        var texts: [(String, String)] = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .filter { $0.hasSuffix(".md") }
            .map { ($0, String(decoding: try Data(contentsOf: root.appendingPathComponent($0)), as: UTF8.self)) }
        texts.append(("changelog", "# Changelog\n\n" + (0..<300).map { v in
            "## v1.\(v).0\n\n" + (0..<6).map { i in
                "- [#\(v * 10 + i)](https://github.com/example/project/pull/\(v * 10 + i)) ([@someone](https://github.com/someone))\n"
            }.joined() + "\n"
        }.joined()))
        texts.append(("tables", (0..<300).map { k in
            "| a | b | c |\n|---|---|---|\n" + (0..<8).map { "| \($0) | value \($0 * k) | https://example.com/\($0) |\n" }.joined() + "\n"
        }.joined()))
        let sentence = "The tide turns twice a day, and the harbour master writes down when. "
        texts.append(("prose40", (0..<60).map { _ in
            Self.wrapped(String(repeating: sentence, count: 6), at: 40) + "\n\n"
        }.joined()))
        texts.append(("cjk", String(repeating: String(repeating: "潮の満ち引きは一日に二度、港長がその時刻を書き留める。", count: 8) + "\n\n", count: 60)))
        texts.append(("quote", String(repeating: "> " + String(repeating: sentence, count: 3) + "\n>\n> > " + sentence + "\n\n", count: 60)))
        texts.append(("node", "# Process\n\n<!--introduced_in=v0.10.0-->\n\n<!-- type=global -->\n\n"
            + (0..<40).map { "[`ref\($0)`]: https://nodejs.org/api/process.html#ref\($0)\n" }.joined() + "\n"
            + (0..<60).map { k in
                "## Event: `e\(k)`\n\n<!-- YAML\nadded: v0.1.\(k)\nchanges:\n  - version: v1.\(k)\n-->\n\n" + sentence + "See [`ref\(k % 40)`][].\n\n"
            }.joined()))
        texts.append(("front matter", "---\ntitle: Tides\ntags: [a, b]\n---\n\n" + String(repeating: "## Port\n\n" + sentence + "\n\n", count: 80)))
        for (name, text) in texts {
            let store = Self.store(String(repeating: text + "\n\n", count: 1 + Launch.previewThreshold / max(1, text.utf8.count)))
            let prefix = Launch.previewPrefix(store, screen: (rows, columns))
            #expect(prefix.count <= Launch.previewPrefix(store, atLeast: Launch.previewSize(screen: (rows, columns))).count,
                    "\(name) at \(columns)x\(rows)")
            let state = PagerState(documents: [DocumentSpec(name: name, path: nil, document: MarkdownParser.parse(prefix).document,
                                                            isPreview: true)],
                                   config: PagerConfig(), rows: rows, columns: columns)
            #expect(state.active.layout.rowCount >= state.contentRows, "\(name) at \(columns)x\(rows)")
        }
    }

    /// A preview that never fills the screen ends: one that comes out no longer than the last
    /// (a cut at a character boundary, short of the size asked) is the last tried.
    @Test func aPreviewThatNeverFillsTheScreenEnds() {
        let text = String(repeating: "ж", count: 700_000)  // 1.4 MB without a line end
        var tried: [Int] = []
        let prefix = Launch.previewPrefix(Self.store(text), screen: (rows: 30, columns: 101)) { tried.append($0.count); return false }
        #expect(tried.count < 8 && tried == tried.sorted() && Set(tried).count == tried.count)
        #expect(prefix.count <= Launch.previewMaximum)
    }

    /// A changelog whose versions are links defined at its end (as Keep a Changelog writes
    /// them) opens from a preview whose headings are already those links.
    @Test func aPreviewHasTheLinksADocumentDefinesAtItsEnd() {
        let versions = (0..<300).reversed()
        let text = "# Changelog\n\n" + versions.map { "## [1.\($0).0] - 2026-01-01\n\n- A change to the harbour tables.\n\n" }.joined()
            + String(repeating: "More history.\n\n", count: Launch.previewDefinitionsFrom / 15)
            + versions.map { "[1.\($0).0]: https://example.com/compare/v1.\($0).0\n" }.joined()
        let store = Self.store(text)
        let prefix = Launch.previewPrefix(store, screen: (rows: 30, columns: 100))
        #expect(prefix.count < text.utf8.count / 10)
        let dump = MarkdownParser.parse(Launch.previewSource(prefix, store: store)).document.dump()
        #expect(dump.contains("https://example.com/compare/v1.299.0") && dump.contains("https://example.com/compare/v1.290.0"))
        #expect(!MarkdownParser.parse(prefix).document.dump().contains("example.com"))
        // A smaller document's full parse comes in as fast: its preview is its beginning alone.
        let small = Self.store(String(text.utf8.suffix(Launch.previewDefinitionsFrom / 2))!)
        #expect(Launch.previewSource(prefix, store: small) == prefix)
        // Nor after a preview that ends inside fenced code, where they would show as code.
        let inCode = Array("# Changelog\n\n```\ncode\n\n".utf8)
        #expect(Launch.previewSource(inCode, store: store) == inCode)
    }

    /// `text`'s words in lines of at most `width` characters.
    static func wrapped(_ text: String, at width: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    @Test func aBlankLineAfterThePreviewSizeIsTheCut() {
        let text = String(repeating: "para\n\n", count: 100_000)
        let prefix = Launch.previewPrefix(Self.store(text), atLeast: 16 << 10)
        #expect((16 << 10)...(17 << 10) ~= prefix.count)
        #expect(prefix.suffix(2) == [0x0A, 0x0A])
    }

    @Test func aGiantListIsCutAtALineEnd() {
        let text = String(repeating: "- item\n", count: 300_000)
        let prefix = Launch.previewPrefix(Self.store(text), atLeast: 16 << 10)
        #expect((16 << 10)...(17 << 10) ~= prefix.count)
        #expect(prefix.last == 0x0A)
    }

    /// The preview copies only as much of the store as its cut needs (its size and 16 KB,
    /// then four times as much): the cut is the first blank line after the preview's size in
    /// the first MB, wherever it lies, as when the whole first MB was copied.
    @Test func theCutIsTheFirstBlankLineAfterThePreviewSizeWhereverItLies() {
        let atLeast = 16 << 10
        for blankAt in [atLeast - 1, atLeast + 5, atLeast + (16 << 10) - 1, atLeast + (16 << 10) + 3, 100_000, 300_000, 900_000] {
            var bytes = [UInt8](repeating: 0x61, count: 1_200_000)
            for i in stride(from: 80, to: bytes.count, by: 81) { bytes[i] = 0x0A }
            bytes[blankAt] = 0x0A; bytes[blankAt + 1] = 0x0A
            let store = ByteStore()
            bytes.withUnsafeBytes { store.append($0) }
            let prefix = Launch.previewPrefix(store, atLeast: atLeast)
            let expected = PrefixCut.first(in: Array(bytes.prefix(1 << 20)), atOrAfter: atLeast)
            #expect(prefix.count == expected, "blank line at \(blankAt)")
            #expect(prefix == Array(bytes.prefix(prefix.count)))
        }
    }

    /// A preview that does not fill the screen is made again from `previewSize`, then from
    /// four times as much, up to the largest preview or the whole document; one that fills
    /// it is not.
    @Test func aPreviewGrowsUntilItFillsTheScreen() {
        let text = String(repeating: "[#1234](https://example.com/pull/1234)\n\n", count: 10_000)
        let store = Self.store(text)
        let screen = (rows: 32, columns: 171)
        #expect((8 << 10)..<(9 << 10) ~= Launch.previewSize(screen: screen))
        var tried: [Int] = []
        let links = Launch.previewPrefix(store, screen: screen) { prefix in
            tried.append(prefix.count)
            return prefix.count >= 100_000  // as if it took this much to fill the screen
        }
        #expect(tried.count == 4 && tried == tried.sorted())
        #expect(tried[0] < 2 << 10, "the first by the estimate: 48 rows of two")
        #expect((8 << 10)..<(9 << 10) ~= tried[1] && (32 << 10)..<(33 << 10) ~= tried[2])
        #expect((64 << 10)..<(65 << 10) ~= links.count, "never past the largest preview")
        tried = []
        let prose = Launch.previewPrefix(store, screen: screen) { tried.append($0.count); return true }
        #expect(tried.count == 1 && prose.count == tried[0])
        let small = Self.store(String(repeating: "[a](b)\n\n", count: 2_000))
        tried = []
        let whole = Launch.previewPrefix(small, screen: screen) { tried.append($0.count); return false }
        #expect(whole.count == small.count && tried.count == 3, "stops at the whole document")
    }

    /// The preview parsed from `main` on (`EarlyPreview`) is taken only for the very bytes it
    /// parsed, and is what parsing them gives; a guess that is not a large Markdown file
    /// starts nothing.
    @Test func theEarlyPreviewIsTakenOnlyForTheBytesItParsed() throws {
        let dir = NSTemporaryDirectory() + "folio-early-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = (0..<4_000).map { "## Part \($0)\n\nA paragraph with *emphasis*, a [link](https://example.org/\($0)).[^\($0)]\n\n[^\($0)]: Note.\n\n" }.joined()
        let big = dir + "/big.md", small = dir + "/small.md", named = dir + "/big.txt"
        for path in [big, named] { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        try Data("# Small\n".utf8).write(to: URL(fileURLWithPath: small))
        let screen = (rows: 30, columns: 100)
        #expect(EarlyPreview.start(guessing: ["--theme=dark", small], screen: screen) == nil, "under the preview's threshold")
        #expect(EarlyPreview.start(guessing: [named], screen: screen) == nil, "not named as Markdown")
        #expect(EarlyPreview.start(guessing: [dir + "/missing.md"], screen: screen) == nil)
        #expect(EarlyPreview.start(guessing: [dir], screen: screen) == nil, "a directory")

        let early = try #require(EarlyPreview.start(guessing: ["-i", "+/x", big], screen: screen))
        early.prepare(nil)  // (the thread waits to be told whether a pager's state is wanted)
        let prefix = Launch.previewPrefix(Self.store(text), screen: screen)
        let document = try #require(early.document(prefix: prefix))
        #expect(document.blocks.map(\.kind) == MarkdownParser.parse(Launch.previewSource(prefix, store: Self.store(text))).document.blocks.map(\.kind))
        #expect(document.blocks.count > 20)
        #expect(early.document(prefix: Array(prefix.dropLast())) == nil, "other bytes: the preview parses its own")
        #expect(early.state(prefix: prefix, rows: 30, columns: 100, name: "big.md", path: big) == nil, "no state was asked for")

        // Told what the pager will be, it makes the pager's state too: the same as the launch
        // would make, and only for that screen and that document.
        let withState = try #require(EarlyPreview.start(guessing: [big], screen: screen))
        withState.prepare(.init(config: PagerConfig(), rows: 30, columns: 100, name: "big.md", path: big))
        let made = try #require(withState.state(prefix: prefix, rows: 30, columns: 100, name: "big.md", path: big))
        var spec = DocumentSpec(name: "big.md", path: big, document: document, isPreview: true)
        spec.previewShare = Double(prefix.count) / Double(text.utf8.count)  // (written out: the launch's rule)
        let expected = PagerState(documents: [spec], config: PagerConfig(), rows: 30, columns: 100)
        #expect(made.active.layout.rowCount == expected.active.layout.rowCount)
        #expect(made.frame() == expected.frame())
        #expect(withState.state(prefix: prefix, rows: 31, columns: 100, name: "big.md", path: big) == nil)
        #expect(withState.state(prefix: prefix, rows: 30, columns: 100, name: "other.md", path: big) == nil)
        #expect(withState.state(prefix: Array(prefix.dropLast()), rows: 30, columns: 100, name: "big.md", path: big) == nil)
    }

    /// The thread started before `main` for the early preview (`EarlyThread`, a C constructor)
    /// is started by the early preview's own rule: the same names (the threshold is one constant,
    /// `Launch.previewThreshold` is the C one's).
    @Test func theThreadStartedBeforeMainFollowsTheEarlyPreviewsRule() {
        var paths: [String] = [""], level: [String] = [""]
        for _ in 1...5 {
            level = level.flatMap { p in ["m", "D", "k", "/", ".", "x"].map { p + $0 } }
            paths += level
        }
        for name in ["md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "mdx", "mdxx", "m", "txt"] {
            paths += ["a." + name, "A." + name.uppercased(), "dir.x/b." + name + "/", "." + name, "c." + name + ".txt"]
        }
        var differ: [String] = []
        for path in paths {
            let bytes = Array(path.utf8)
            let swift = bytes.withUnsafeBufferPointer(KindDetector.namesMarkdown)
            if EarlyThread.namesMarkdown(bytes) != swift { differ.append(path) }
        }
        #expect(differ.first == nil, "\(differ.count) names differ, such as \(differ.prefix(5))")
        #expect(EarlyThread.namesMarkdown(Array("é.md".utf8)) == nil, "not ASCII: the constructor starts nothing")
        // (This test process's command line names no Markdown file: there is no such thread.)
        #expect(!EarlyThread.run {})
    }

    @Test func aGiantParagraphIsCutAtACharacterBoundary() {
        let text = String(repeating: "wörd ", count: 400_000)
        let prefix = Launch.previewPrefix(Self.store(text), atLeast: 16 << 10)
        #expect((16 << 10 - 4)...(16 << 10) ~= prefix.count)
        #expect(String(validating: prefix, as: UTF8.self) != nil, "no character cut in two")
    }
}

/// A file too large for the Markdown parser is shown as text, and says so (issue 31:
/// `--markdown` on a 3 GB sparse file aborted folio inside cmark).
@Suite struct MarkdownLimitTests {
    @Test func aFileOverTheLimitIsShownAsText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-limit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.md").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("# A heading\n".utf8)))
        #expect(truncate(path, off_t(Input.markdownLimit + 1)) == 0)  // sparse: no disk used
        guard case .success(let doc) = Input.openStream(path, forced: .markdown, mailbox: PipeMailbox(), doc: 0) else {
            Issue.record("not opened"); return
        }
        #expect(doc.kind == .text)
        #expect(doc.notice?.contains("shown as text") == true)
        #expect(truncate(path, off_t(Input.markdownLimit)) == 0)
        guard case .success(let small) = Input.openStream(path, forced: .markdown, mailbox: PipeMailbox(), doc: 0) else {
            Issue.record("not opened"); return
        }
        #expect(small.kind == .markdown && small.notice == nil)
    }
}
