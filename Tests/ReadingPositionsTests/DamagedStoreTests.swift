import Foundation
import LineLayout
import MarkdownModel
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ReadingPositions

/// Issue 31: state is never lost silently. Records that do not decode are kept byte for byte
/// and reported with the store's full path; a store none of whose records decodes is set
/// aside whole; a write that fails leaves the store as it was and is reported; records that
/// decode with nonsense values are clamped and placed without a trap.
@Suite struct DamagedStoreTests {
    /// Four ways a record goes bad: cut short, not UTF-8, a value of the wrong type, a
    /// quote lost to a flipped bit. Plus a record of a kind this folio does not know (a
    /// newer folio's), which is kept but is not damage.
    static let damaged: [[UInt8]] = [
        Array(#"{"doc":{"hash":"00000000000000aa","key":"/cut.md","pos":{"blo"#.utf8),
        [0xff, 0xfe, 0x00, 0x9b, 0x32, 0x4a],
        Array(#"{"doc":{"hash":"00000000000000bb","key":"/type.md","pos":{"block":1,"fp":"0000000000000001","offset":0},"time":"yesterday"}}"#.utf8),
        Array(#"{"search":{"pattern":"flip,"time":3}}"#.utf8),
    ]
    static let otherKind = Array(#"{"bookmark":{"key":"/a.md","note":"a newer folio's record"}}"#.utf8)

    @Test func damagedRecordsSurviveEverySaveByteForByte() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 31 })
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            let unread = Self.damaged + [Self.otherKind]
            // The last line without its LF, as a torn append leaves it.
            writeFile(store.path!, contents(store.path!)! + Array(unread.joined(separator: [0x0A])))
            let notice = "reading positions: 4 damaged records in \(dir)/positions.v1 cannot be read; they are kept as they are"

            // A save that reads the store, one that reuses what it wrote, and another folio's.
            let first = store.updateReporting { $0.merge(sampleEntry("/b.md", 2)) }
            #expect(first.saved && first.failure == nil)
            #expect(first.notice == notice)
            #expect(store.save(sampleEntry("/c.md", 3), now: 3) == nil)
            #expect(PositionStore(directory: dir).save(sampleEntry("/d.md", 4), now: 4) == notice)
            #expect(store.load().warning == notice)

            let bytes = try #require(contents(store.path!))
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
            #expect(Array(lines.suffix(unread.count + 1)) == unread + [[]], "kept at the end, as they were, each once")
            #expect(Set(store.load().snapshot.entries.keys) == ["/a.md", "/b.md", "/c.md", "/d.md"])
            #expect(names(in: dir) == ["positions.v1", "positions.v1.lock"], "nothing set aside")
            // What a folio that drops unread lines reads: the header and, on every other line,
            // a record of a kind it knows.
            #expect(lines[0] == Array(StoreFormat.header.utf8))
            for line in lines.dropFirst() where !line.isEmpty && !unread.contains(line) {
                let record = StoreFormat.Record(line: line)
                #expect(record?.doc != nil || record?.search != nil, "\(String(decoding: line, as: UTF8.self))")
            }
        }
    }

    /// "0 of 4 entries kept": a store whose every record is damaged is set aside whole (not
    /// replaced), the warning names the copy by its full path, and a fresh store starts.
    @Test func aStoreWhoseEveryRecordIsDamagedIsSetAsideWhole() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 31 })
            let bytes = Array((StoreFormat.header + "\n").utf8) + Array(Self.damaged.joined(separator: [0x0A])) + [0x0A]
            writeFile(store.path!, bytes)
            let copy = dir + "/positions.v1.corrupt-31"
            let result = store.updateReporting { $0.merge(sampleEntry("/a.md", 1)) }
            #expect(result.saved)
            #expect(result.notice == "reading positions: the store was damaged; starting afresh, the old store kept as \(copy)")
            #expect(contents(copy) == bytes, "the copy is the store as it was")
            let (snapshot, warning) = store.load()
            #expect(warning == nil)
            #expect(Set(snapshot.entries.keys) == ["/a.md"] && snapshot.unreadLines.isEmpty)
        }
    }

    /// Reading alone (the history, after the first screen) sets it aside the same way.
    @Test func loadingAWhollyDamagedStoreSetsItAside() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 32 })
            let bytes = Array((StoreFormat.header + "\n").utf8) + Self.damaged[0]
            writeFile(store.path!, bytes)
            let (snapshot, warning) = store.load()
            #expect(snapshot == StoreSnapshot())
            #expect(warning?.hasSuffix("kept as \(dir)/positions.v1.corrupt-32") == true, "\(warning ?? "nil")")
            #expect(contents(dir + "/positions.v1.corrupt-32") == bytes)
        }
    }

    // MARK: Writes that fail

    /// Under a file size limit with SIGXFSZ ignored (as folio runs), the temp file's write
    /// fails with EFBIG: the save says so, the store is byte for byte what it was and no temp
    /// file is left. (In a child process: the limit would fail other tests' writes.)
    @Test func aWriteOverTheFileSizeLimitLeavesTheStoreAsItWas() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir)
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            let before = try #require(contents(store.path!))
            let worker = try Worker.start(mode: "fsize", directory: dir, id: 0, count: 1_024)
            worker.waitUntilExit()
            #expect(worker.terminationReason == .exit && worker.terminationStatus == 0,
                    "the worker's save did not fail as expected (\(worker.terminationReason.rawValue), \(worker.terminationStatus))")
            #expect(contents(store.path!) == before)
            #expect(names(in: dir) == ["positions.v1", "positions.v1.lock"], "a temp file was left")
            #expect(store.load().warning == nil)
        }
    }

    /// A damaged store set aside just before the write fails: the save reports both, the
    /// copy by its full path (the worker checks), and the copy is the store as it was.
    @Test func aStoreSetAsideBeforeAFailedWriteIsStillReported() throws {
        try withTempDirectory { dir in
            let garbage = Array("junk\n".utf8)
            writeFile(dir + "/positions.v1", garbage)
            let worker = try Worker.start(mode: "fsize-aside", directory: dir, id: 0, count: 1_024)
            worker.waitUntilExit()
            #expect(worker.terminationReason == .exit && worker.terminationStatus == 0,
                    "the worker's save did not fail as expected (\(worker.terminationReason.rawValue), \(worker.terminationStatus))")
            let aside = names(in: dir).filter { $0.hasPrefix("positions.v1.corrupt-") }
            #expect(aside.count == 1)
            #expect(aside.first.flatMap { contents(dir + "/" + $0) } == garbage)
            #expect(!names(in: dir).contains { $0.contains(".tmp-") }, "a temp file was left")
        }
    }

    // MARK: Nonsense values

    static let markdown = "# Title\n\nOne paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast words.\n"

    /// A record that decodes but holds values no folio writes (Int.max, Int.min, huge and
    /// negative doubles): clamped on reading, and every rule and the layout place it inside
    /// the document without trapping on overflow.
    @Test(arguments: [true, false])
    func nonsenseValuesAreClampedAndPlaced(sameContent: Bool) throws {
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.markdown), options: LayoutOptions(width: 12))
        let hash = StableHash(bytes: Array(Self.markdown.utf8))
        let facts = DocumentFacts(layout: layout, contentHash: hash)
        let big = Int.max, small = Int.min
        let stored = sameContent ? hash.hex : "0123456789abcdef"
        let line = """
            {"doc":{"hash":"\(stored)","key":"/n.md","time":-1e308,\
            "pos":{"block":1,"offset":0,"ordinal":\(big),"leaf":\(small),"fp":"0000000000000000","section":\(big),\
            "line":\(big),"fraction":1e308,"byte":\(big)},\
            "prev":{"block":\(big),"offset":\(big),"ordinal":\(small),"leaf":\(big),"fp":"ffffffffffffffff",\
            "headings":["Title"],"section":\(big),"line":\(small),"fraction":-1e308,"byte":\(small)},\
            "marks":{"a":{"block":\(small),"offset":\(small),"fp":"0000000000000002","line":0,"fraction":0.5}}}}
            """
        guard case .snapshot(let s, 0) = StoreFormat.decode(Array("\(StoreFormat.header)\n\(line)\n".utf8)) else {
            Issue.record("not decoded"); return
        }
        let entry = try #require(s.entries["/n.md"])
        let positions = [entry.position, try #require(entry.previous), try #require(entry.marks["a"])]
        for p in positions {
            let numbers = [p.anchor.block.rawValue, p.anchor.offset, p.anchor.ordinal, p.leafIndex, p.sectionIndex,
                           p.sourceLine, p.byteOffset ?? 0]
            try #require(numbers.allSatisfy { (0...ReadingPosition.valueLimit).contains($0) }, "\(numbers)")
            #expect((0...1).contains(p.fraction))
            let resolved = resolve(p, storedContentHash: entry.contentHash, in: facts)
            let row = layout.row(for: resolved.anchor)
            #expect(layout.rowRange.contains(row))
            #expect(LargeText.bytesNeeded(for: p) > 0)
        }
        // The same content: the stored anchor is taken as it is, its huge ordinal too (with
        // its own source line: one its block does not hold says the same bytes were read as
        // another kind, and the rules that follow place it).
        if sameContent {
            var p = entry.position
            p.sourceLine = 1
            #expect(resolve(p, storedContentHash: entry.contentHash, in: facts).rule == .exact)
            #expect(resolve(entry.position, storedContentHash: entry.contentHash, in: facts).rule != .exact)
        }
        let text = LargeTextTests.content("one\ntwo\nthree\n")
        for p in positions {
            let r = LargeText.resolve(p, storedContentHash: entry.contentHash, currentHash: hash, in: text)
            #expect((0..<text.unitCount).contains(r.anchor.block.rawValue))
        }
    }
}
