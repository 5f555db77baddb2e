import ByteInput
import LineLayout
import Testing
import TestSupport

/// The background pass's counts: each must equal the rows the layout makes of the line, or
/// a line would be cut or padded on screen once the counts are applied.
@Suite struct TextRowCountsTests {
    static func content(_ text: String, tabWidth: Int = 8) -> TextContent {
        let store = ByteStore()
        Array(text.utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store, tabWidth: tabWidth)
        return content
    }

    /// Lines mixing what takes each path: printable ASCII and tabs (counted from columns);
    /// SGR, OSC 8, overstrike, controls, wide characters, emoji, invalid UTF-8, CR LF (decoded).
    static func randomLine(_ rng: inout SeededRandom) -> String {
        let pieces = ["a", "word ", "\t", "\u{1B}[1;31m", "\u{1B}[m", "\u{1B}]8;;https://x.org\u{1B}\\", "\u{1B}]8;;\u{1B}\\",
                      "_\u{8}x", "\u{7}", "日本", "👍🏽", "e\u{301}", "\u{7F}", "\u{1B}[K", "\r", "   ", "0123456789",
                      "स्त्री", "\u{600}\u{600}\u{600}1"]
        let n = Int(rng.next() % 40)
        return (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }

    @Test(arguments: [1, 2, 3, 7, 20, 80])
    func countsEqualTheLayoutsRows(width: Int) {
        var rng = SeededRandom(seed: UInt64(width))
        var lines = (0..<400).map { _ in Self.randomLine(&rng) }
        lines += ["", "\t", "x\r", String(repeating: "y", count: 80), String(repeating: "z", count: 81)]
        for tabs in [1, 4, 8] {
            let content = Self.content(lines.joined(separator: "\n") + "\n", tabWidth: tabs)
            let options = LayoutOptions(width: width)
            let counted = content.rowCounts(of: content.unitRange, options: options)
            let laidOut = content.unitRange.map { content.layout(unit: $0, options: options).lines.count }
            #expect(counted == laidOut, "width \(width), tabs \(tabs)")
        }
    }

    @Test func chunksStopAtTheirLimitsAndCoverEveryLine() {
        let content = Self.content((0..<100).map { String(repeating: "x", count: $0) }.joined(separator: "\n"))
        var u: Unit = 0
        var all: [Int] = []
        while let chunk = content.rowCountChunk(from: u, width: 10, maxUnits: 7, maxBytes: 64) {
            #expect(chunk.firstUnit == u)
            #expect(chunk.count <= 7)
            all += chunk.counts
            u += chunk.count
        }
        #expect(u == Unit(content.unitCount))
        #expect(all == (0..<100).map { max(1, ($0 + 9) / 10) })
        // Copied out in small windows (a line longer than one is a window of its own): the same.
        #expect(content.rowCountChunk(from: 0, width: 10, maxUnits: 100, maxBytes: .max, window: 50)?.counts == all)
        // A line longer than the byte limit still makes a chunk of its own.
        #expect(content.rowCountChunk(from: 99, width: 10, maxUnits: 5, maxBytes: 4)?.counts == [10])
        #expect(content.rowCountChunk(from: 100, width: 10) == nil)
    }

    @Test func countsOf255RowsAndMoreSurvive() {
        let content = Self.content(String(repeating: "x", count: 1000) + "\nshort\n")
        #expect(content.rowCountChunk(from: 0, width: 1)?.counts == [1000, 5])
    }

    /// Law: the bulk update is the per-unit one, hidden units included.
    @Test(arguments: [0, 1, 63, 64, 65, 130])
    func bulkSetEqualsOneAtATime(start: Int) {
        var rng = SeededRandom(seed: UInt64(start + 1))
        let n = 200
        var a = RowIndex()
        for _ in 0..<n { a.append(count: Int(rng.next() % 5), exact: false) }
        a.setShown((0..<n).filter { $0 % 3 != 0 }.map { Unit($0) })
        var b = a
        let new = (0..<70).map { _ in Int(rng.next() % 300) }
        a.setExactCounts(from: Unit(start), count: new.count) { new[$0] }
        for (k, c) in new.enumerated() where start + k < n { b.setCount(c, exact: true, ofUnit: Unit(start + k)) }
        #expect(a == b)
        #expect(a.rowCount == b.rowCount)
        #expect(a.estimatedUnits == n - min(new.count, n - start))
    }

    /// Law: the bulk append is one append per count (estimated or exact, across groups).
    @Test(arguments: [0, 1, 63, 64, 200])
    func bulkAppendEqualsOneAtATime(existing: Int) {
        var rng = SeededRandom(seed: UInt64(existing + 7))
        var a = RowIndex()
        for _ in 0..<existing { a.append(count: Int(rng.next() % 4), exact: true) }
        var b = a
        for exact in [false, true] {
            let new = (0..<150).map { _ in Int(rng.next() % 300) }
            a.append(counts: new, exact: exact)
            for c in new { b.append(count: c, exact: exact) }
        }
        #expect(a == b)
        #expect(a.rowCount == b.rowCount && a.estimatedUnits == b.estimatedUnits)
    }

    /// The bulk estimate is the per-line one.
    @Test func bulkEstimatesEqualOneAtATime() {
        let content = Self.content((0..<300).map { String(repeating: "e", count: $0) }.joined(separator: "\r\n"))
        for options in [LayoutOptions(width: 7), LayoutOptions(width: 80), LayoutOptions(width: 7, chopLongLines: true)] {
            let units = content.unitRange
            #expect(content.estimatedRows(of: units, options: options)
                    == units.map { content.estimatedRows(ofUnit: $0, options: options) })
            #expect(content.estimatedRows(of: 5..<9, options: options)
                    == (5..<9).map { content.estimatedRows(ofUnit: $0, options: options) })
        }
    }

    @Test func aLayoutTakesOnlyChunksCountedForItsContentAndWidth() {
        let text = (0..<50).map { String(repeating: "w", count: $0 * 3) }.joined(separator: "\n") + "\n"
        let content = Self.content(text)
        var layout = DocumentLayout(content: content, options: LayoutOptions(width: 12))
        let exact = DocumentLayout(content: content, options: LayoutOptions(width: 12),
                                   rowCounts: content.rowCounts(of: 0..<50, options: LayoutOptions(width: 12)))
        // Another width, another content: dropped.
        let otherWidth = layout.apply(content.rowCountChunk(from: 0, width: 13)!)
        let otherContent = layout.apply(Self.content(text).rowCountChunk(from: 0, width: 12)!)
        var chopped = DocumentLayout(content: content, options: LayoutOptions(width: 12, chopLongLines: true))
        let whenChopped = chopped.apply(content.rowCountChunk(from: 0, width: 12)!)
        #expect(!otherWidth && !otherContent && !whenChopped)
        #expect(!layout.isExact)
        var u: Unit = 0
        while let chunk = content.rowCountChunk(from: u, width: 12, maxUnits: 16) {
            let taken = layout.apply(chunk)
            #expect(taken)
            u += chunk.count
        }
        #expect(layout.isExact)
        #expect(layout.index == exact.index)
    }
}
