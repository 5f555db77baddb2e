import ByteInput
@testable import LineLayout
import TestSupport
import Testing

/// The text line index and the row counts keep little per line where lines are short
/// (issue 27: 100 MB of `y` lines piped cost 396 MB) and read back exactly what a full
/// index reads, whatever the lines' lengths and however the input arrived.
@Suite struct LineIndexTests {
    /// Lines of every length around the sampling bound (a group of 64 lines within 16 KB is
    /// found again by scanning; a longer one, or one holding a giant line's piece, keeps each
    /// start), as one input, arriving in pieces of odd sizes.
    static func text(seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var text: [UInt8] = []
        for line in 0..<3000 {
            let n: Int
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<60: n = Int.random(in: 0...3, using: &random)
            case 60..<90: n = Int.random(in: 4...300, using: &random)
            case 90..<99: n = Int.random(in: 300...1200, using: &random)
            default: n = Int.random(in: 60_000...140_000, using: &random)  // giant: cut into pieces
            }
            text += Array("\(line) ".utf8) + [UInt8](repeating: UInt8(ascii: "a") + UInt8(line % 26), count: n)
            if Int.random(in: 0..<50, using: &random) == 0 { text += [0x0D] }
            text.append(0x0A)
        }
        return text + Array("no line end".utf8)
    }

    static func content(_ text: [UInt8], pieces: Int) -> TextContent {
        let store = ByteStore()
        var lines = TextLineIndex()
        var at = 0
        while at < text.count {
            let end = min(text.count, at + pieces)
            text[at..<end].withUnsafeBytes { store.append($0) }
            lines.advance(over: store)
            at = end
        }
        lines.advance(over: store, inputEnded: true)
        return TextContent(store: store, lines: lines)
    }

    @Test(arguments: [1, 2, 3])
    func sampledStartsReadBackAsAFullIndex(seed: UInt64) {
        let text = Self.text(seed: seed)
        let whole = Self.content(text, pieces: text.count)
        let pieced = Self.content(text, pieces: 7_919)
        // The full index: the units of the content read in order are the input.
        let units = whole.unitCount
        #expect(pieced.unitCount == units)
        var starts: [Int] = []
        var joined: [UInt8] = []
        for u in 0..<units {
            starts.append(joined.count)
            let length = whole.byteLength(u)
            joined += text[joined.count..<(joined.count + length)]
        }
        #expect(joined == text)
        #expect(starts.count > 3000)
        var random = SeededRandom(seed: seed &+ 99)
        // Every line's start, in order and at random; the line of random offsets.
        for content in [whole, pieced] {
            #expect((0..<units).allSatisfy { content.startOffset(ofUnit: Unit($0)) == starts[$0] })
            for _ in 0..<2000 {
                let u = Int.random(in: 0..<units, using: &random)
                #expect(content.startOffset(ofUnit: Unit(u)) == starts[u], "unit \(u)")
                let offset = Int.random(in: 0..<text.count, using: &random)
                let expected = starts.lastIndex { $0 <= offset }.map { Unit($0) }
                #expect(content.unit(containingByte: offset) == expected, "offset \(offset)")
            }
            #expect(content.unit(containingByte: text.count) == nil)
            let bounds = content.lineBounds(from: 100, maxUnits: 500, maxBytes: .max)
            #expect(bounds == Array(starts[100...600]))
        }
    }

    /// 2-byte lines: the index holds under half a byte a line, room to grow included (it
    /// held four, and the row counts one more), and both read back right at the end.
    @Test func shortLinesCostAFractionOfAByteEach() {
        let lines = 1 << 20
        let store = ByteStore()
        let text = [UInt8](repeating: 0, count: 2 * lines).enumerated().map { $0.offset % 2 == 0 ? UInt8(ascii: "y") : 0x0A }
        text.withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        #expect(content.unitCount == lines)
        #expect(content.indexBytesHeld < lines / 2)
        #expect(content.startOffset(ofUnit: Unit(lines - 1)) == 2 * (lines - 1))
        #expect(content.unit(containingByte: 2 * lines - 1) == Unit(lines - 1))

        var rows = RowIndex()
        rows.append(counts: [Int](repeating: 1, count: lines), exact: false)
        rows.setExactCounts(from: 0, count: lines) { _ in 1 }
        #expect(rows.rowCount == lines && rows.isExact)
        #expect(rows.bytesHeld < lines / 2)
        // A unit of another count costs its group 64 bytes, given back when it is one again.
        rows.setCount(3, exact: true, ofUnit: 1000)
        #expect(rows.unit(atRow: 1003)?.unit == 1001 && rows.unit(atRow: 1002)?.unit == 1000)
        rows.setCount(1, exact: true, ofUnit: 1000)
        rows.setCount(2, exact: true, ofUnit: 5000)
        #expect(rows.bytesHeld < lines / 2)
        #expect(rows.unit(atRow: Row(lines))?.unit == Unit(lines - 1) && rows.firstRow(ofUnit: 5001) == 5002)
    }

    /// GroupedBytes against an array, under random appends, sets, truncations, masks and
    /// settles, with runs of equal bytes so groups go uniform and back.
    @Test(arguments: [1, 2, 3, 4])
    func groupedBytesAgreeWithAnArray(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var bytes = GroupedBytes()
        var model: [UInt8] = []
        for step in 0..<3000 {
            let value = UInt8(Int.random(in: 0..<10, using: &random) < 8 ? 1 : Int.random(in: 0...255, using: &random))
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<50:
                let n = Int.random(in: 1...70, using: &random)
                for _ in 0..<n { bytes.append(value); model.append(value) }
            case 50..<80 where !model.isEmpty:
                let u = Int.random(in: 0..<model.count, using: &random)
                bytes[u] = value; model[u] = value
            case 80..<85:
                let keep = Int.random(in: 0...model.count, using: &random)
                bytes.removeLast(model.count - keep); model.removeLast(model.count - keep)
            case 85..<88:
                bytes.formAnd(0x7F); model = model.map { $0 & 0x7F }
            case 88..<100 where !model.isEmpty:
                bytes.settle(group: Int.random(in: 0..<((model.count + 63) / 64), using: &random))
            default: break
            }
            #expect(bytes.count == model.count, "step \(step)")
            if step % 50 == 0 { #expect((0..<model.count).allSatisfy { bytes[$0] == model[$0] }, "step \(step)") }
        }
        #expect((0..<model.count).allSatisfy { bytes[$0] == model[$0] })
    }

    /// What search reads of a line (`withText`, which reads a printable ASCII line as it is)
    /// is its content text (`text(ofUnit:)`, decoded), for lines of every kind: plain, with
    /// tabs, SGR, OSC 8, overstrike, controls, DEL, C1 controls, CR LF, invalid UTF-8 and
    /// multi-byte characters.
    @Test func searchReadsEachLineAsItsContentText() {
        let pieces: [[UInt8]] = [
            Array("plain words 123 ~!@#$%^&*()_+{}|:<>?".utf8), [0x09], Array("\u{1B}[1;31m".utf8), Array("\u{1B}[0m".utf8),
            Array("\u{1B}]8;;https://x.org\u{1B}\\".utf8), [0x5F, 0x08, 0x61], [0x01], [0x7F], [0xC2, 0x85], [0x0D],
            [0xFF, 0xFE], Array("é 漢字 🙂".utf8), [0x20],
        ]
        var random = SeededRandom(seed: 5)
        var text: [UInt8] = []
        for _ in 0..<2000 {
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            text.append(0x0A)
        }
        let store = ByteStore()
        text.withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        var plain = 0
        for u in content.unitRange {
            let read = content.withText(ofUnit: u) { Array($0) }
            #expect(read == Array(content.text(ofUnit: u).utf8), "line \(u.index)")
            if !read.isEmpty && read.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { plain += 1 }
        }
        #expect(plain > 100, "the fast path was taken")
    }
}
