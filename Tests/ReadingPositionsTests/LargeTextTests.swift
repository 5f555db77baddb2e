import ByteInput
import LineLayout
import MarkdownModel
import Testing
@testable import ReadingPositions

/// Positions of text too large to hash whole: a sampled identity, and line + byte offset +
/// fingerprint anchors that resolve near their old place after an edit.
@Suite struct LargeTextTests {
    static func content(_ text: String) -> TextContent {
        let store = ByteStore()
        Array(text.utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        return content
    }

    static func lines(_ range: ClosedRange<Int>) -> [String] { range.map { "entry \($0) of the log" } }

    /// The stored position of `line` (0-based) and `offset` in `text`, resolved in `edited`.
    func moved(line: Int, offset: Int = 0, in text: String, to edited: String) -> (ResolvedPosition, String) {
        let before = Self.content(text), after = Self.content(edited)
        let stored = LargeText.capture(anchor: Anchor(block: BlockID(line), offset: offset), in: before)
        let r = LargeText.resolve(stored, storedContentHash: LargeText.sampledHash(of: before.store),
                                  currentHash: LargeText.sampledHash(of: after.store), in: after)
        return (r, after.text(ofUnit: Unit(r.anchor.block.rawValue)))
    }

    @Test func captureRecordsLineByteOffsetAndFingerprint() {
        let text = "one\ntwo\nthree\n"
        let p = LargeText.capture(anchor: Anchor(block: BlockID(2), offset: 1), in: Self.content(text))
        #expect(p.anchor == Anchor(block: BlockID(2), offset: 1))
        #expect(p.byteOffset == 8)
        #expect(p.sourceLine == 3)
        #expect(p.fingerprint == StableHash.fingerprint(of: "three"))
    }

    /// Lines are indexed only as far as a restore needs (`bytesNeeded`): a large-text
    /// position asks for its bytes and the window around them; a position saved for text
    /// hashed whole (no byte offset: a smaller text, or a file an older folio hashed whole
    /// up to 16 MB) could be anywhere, and asks for all of it — it asked for 2.5 MB, so a
    /// 15 MB file's old place past that was never found.
    @Test func aPositionWithoutAByteOffsetNeedsEveryByte() {
        let text = Self.lines(1...50).joined(separator: "\n")
        var p = LargeText.capture(anchor: Anchor(block: BlockID(40), offset: 0), in: Self.content(text))
        #expect(LargeText.bytesNeeded(for: p) < text.utf8.count + (LargeText.window + 1) * 4096)
        #expect(LargeText.bytesNeeded(for: p) > p.byteOffset!)
        p.byteOffset = nil
        #expect(LargeText.bytesNeeded(for: p) == .max)
    }

    @Test func theSameContentIsExact() {
        let text = Self.lines(1...50).joined(separator: "\n")
        let (r, line) = moved(line: 30, offset: 6, in: text, to: text)
        #expect(r.rule == .exact)
        #expect(r.anchor == Anchor(block: BlockID(30), offset: 6))
        #expect(line == "entry 31 of the log")
    }

    @Test func linesInsertedAboveAreFollowedByFingerprint() {
        let text = Self.lines(1...50).joined(separator: "\n")
        let edited = (["new", "lines", "on", "top"] + Self.lines(1...50)).joined(separator: "\n")
        let (r, line) = moved(line: 30, offset: 6, in: text, to: edited)
        #expect(r.rule == .fingerprint)
        #expect(r.anchor == Anchor(block: BlockID(34), offset: 6))
        #expect(line == "entry 31 of the log")
    }

    @Test func aRepeatedLineResolvesToTheNearestCopy() {
        let text = (Self.lines(1...20) + ["same"] + Self.lines(21...40) + ["same"]).joined(separator: "\n")
        let edited = "x\n" + text
        let (r, _) = moved(line: 41, in: text, to: edited)
        #expect(r.anchor.block == BlockID(42))
    }

    @Test func anEditedLineFallsBackToItsByteOffsetThenItsNumber() {
        let text = Self.lines(1...50).joined(separator: "\n")
        var edited = Self.lines(1...50)
        edited[30] = "entry thirty-one, rewritten"
        let (r, line) = moved(line: 30, in: text, to: edited.joined(separator: "\n"))
        #expect(r.rule == .byteOffset)
        #expect(line == "entry thirty-one, rewritten")
        // Truncated before the old byte offset: the line number, clamped.
        let (short, _) = moved(line: 30, in: text, to: Self.lines(1...5).joined(separator: "\n"))
        #expect(short.rule == .sourceLine)
        #expect(short.anchor.block == BlockID(4))
    }

    @Test func anEmptyLineProvesNothing() {
        let text = "a\n\nb\n\nc\n"
        let (r, _) = moved(line: 3, in: text, to: "zzzz\n" + text)
        #expect(r.rule != .fingerprint)
    }

    @Test func theSampledHashSeesSizeEdgesAndSamples() {
        let big = [UInt8](repeating: 0x61, count: 3 << 20)
        func hash(_ bytes: [UInt8]) -> StableHash { LargeText.sampledHash(count: bytes.count) { Array(bytes[$0]) } }
        let h = hash(big)
        #expect(hash(big) == h)
        var changedHead = big; changedHead[10] = 0x62
        var changedTail = big; changedTail[big.count - 10] = 0x62
        var longer = big; longer.append(0x61)
        #expect(hash(changedHead) != h)
        #expect(hash(changedTail) != h)
        #expect(hash(longer) != h)
        // A sampled piece: the middle of the first piece after the head.
        var changedSample = big; changedSample[(64 << 10) + 100] = 0x62
        #expect(hash(changedSample) != h)
        // Small inputs are hashed whole.
        #expect(hash([1, 2, 3]) != hash([1, 2, 4]))
    }

    @Test func byteOffsetsSurviveTheStoreFormat() throws {
        let p = LargeText.capture(anchor: Anchor(block: BlockID(1), offset: 2), in: Self.content("ab\ncdef\n"))
        let entry = DocumentEntry(key: "/x.log", contentHash: StableHash(rawValue: 7), timestamp: 1, position: p)
        var snapshot = StoreSnapshot()
        snapshot.merge(entry)
        guard case .snapshot(let back, _) = StoreFormat.decode(StoreFormat.encode(snapshot)) else {
            Issue.record("did not decode"); return
        }
        #expect(back.entries["/x.log"]?.position.byteOffset == 3)
        #expect(back.entries["/x.log"]?.position == p)
    }
}
