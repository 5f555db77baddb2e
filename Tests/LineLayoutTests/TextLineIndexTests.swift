import ByteInput
@testable import LineLayout
import Testing

/// A text's line index is a value the edge advances; each `TextContent` made of it is an
/// immutable snapshot, and making one costs no copy of the whole index (`ChunkedArray`).
@Suite struct TextLineIndexTests {
    /// Elements read back across chunk edges, and a copy keeps what it had while the original
    /// grows: the full chunks are shared, not copied; only the tail was.
    @Test func aChunkedArrayCopyIsASnapshotThatSharesItsFullChunks() {
        var array = ChunkedArray<Int>()
        let size = ChunkedArray<Int>.chunkSize
        for i in 0..<(2 * size + 5) { array.append(i * 3) }
        #expect(array.count == 2 * size + 5 && array.last == (2 * size + 4) * 3)
        #expect((0..<array.count).allSatisfy { array[$0] == $0 * 3 })
        let snapshot = array
        for i in array.count..<(3 * size + 1) { array.append(i * 3) }
        #expect(snapshot.count == 2 * size + 5 && snapshot[2 * size + 4] == (2 * size + 4) * 3)
        #expect(array.count == 3 * size + 1 && (0..<array.count).allSatisfy { array[$0] == $0 * 3 })
        func base(_ a: ChunkedArray<Int>, _ c: Int) -> UnsafePointer<Int>? { a.chunks[c].withUnsafeBufferPointer { $0.baseAddress } }
        #expect(base(array, 0) == base(snapshot, 0) && base(array, 1) == base(snapshot, 1))
        #expect(ChunkedArray<Int>().last == nil && ChunkedArray<Int>().isEmpty)
    }

    /// A content made of the index is unchanged by the index advancing afterwards, and the
    /// next one made shares its lines; an index started over shares none.
    @Test func aContentIsASnapshotOfTheIndex() {
        let store = ByteStore()
        func arrive(_ text: String) { Array(text.utf8).withUnsafeBytes { store.append($0) } }
        var index = TextLineIndex()
        arrive((1...1000).map { "line \($0)\n" }.joined() + "half")
        #expect(index.advance(over: store) == store.count)
        let before = TextContent(store: store, lines: index)
        arrive(" a line\n" + (1002...3000).map { "line \($0)\n" }.joined())
        index.advance(over: store, inputEnded: true)
        let after = TextContent(store: store, lines: index)
        #expect(before.unitCount == 1000 && !before.isComplete && before.indexedBytes < after.indexedBytes)
        #expect(after.unitCount == 3000 && after.isComplete)
        #expect(String(decoding: before.lineBytes(999), as: UTF8.self) == "line 1000")
        #expect(String(decoding: after.lineBytes(1000), as: UTF8.self) == "half a line")
        #expect(after.sharesLines(with: before) && before.sharesLines(with: after))
        #expect((0..<1000).allSatisfy { before.startOffset(ofUnit: Unit($0)) == after.startOffset(ofUnit: Unit($0)) })
        #expect(!TextContent(store: store, lines: TextLineIndex()).sharesLines(with: after))
        #expect(!TextContent.whole(store).sharesLines(with: after))
    }

    /// A layout takes a later snapshot in place: the units it adds get estimates, the others
    /// keep their rows; only a last line shown without its LF (the input had ended) that a
    /// followed file went on with is laid out again.
    @Test func aLayoutGrowsToALaterSnapshot() {
        let store = ByteStore()
        func arrive(_ text: String) { Array(text.utf8).withUnsafeBytes { store.append($0) } }
        var index = TextLineIndex()
        arrive("one\ntwo\nthr")
        index.advance(over: store, inputEnded: true)
        #expect(index.endsInOpenLine)
        var layout = DocumentLayout(content: TextContent(store: store, lines: index), options: LayoutOptions(width: 20))
        layout.prepare(aroundUnit: 0, before: 0, after: 10)
        #expect(layout.unit(2).text == "thr")
        arrive("ee\nfour\n")
        index.advance(over: store, inputEnded: true)
        #expect(!index.endsInOpenLine)
        #expect(layout.grow(to: TextContent(store: store, lines: index)) == 1)
        #expect(layout.unitCount == 4 && layout.index.isExact(unit: 0) && layout.index.isExact(unit: 1))
        #expect(!layout.index.isExact(unit: 2) && !layout.index.isExact(unit: 3))
        #expect((0..<4).map { layout.unit(Unit($0)).text } == ["one", "two", "three", "four"])
    }
}
