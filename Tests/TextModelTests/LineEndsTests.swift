import Testing
@testable import TextModel

@Suite struct LineEndsTests {
    @Test(arguments: [
        ("abc", 3), ("abc\r", 3), ("abc\r\r", 4), ("\r", 0), ("", 0), ("a\rb", 3), ("\r\ra", 3),
    ])
    func contentEndStripsOneTrailingCR(line: String, end: Int) {
        let bytes = Array(line.utf8)
        #expect(bytes.withUnsafeBytes { LineEnds.contentEnd(of: $0) } == end)
        #expect(LineEnds.contentEnd(of: bytes) == end)
        #expect(LineEnds.contentEnd(of: bytes[...]) == end)
    }

    @Test func contentEndOfASliceIsAnIndexOfTheSlice() {
        let bytes = Array("xxab\r\nyy".utf8)
        let line = bytes[2..<5]
        #expect(LineEnds.contentEnd(of: line) == 4)
    }

    @Test(arguments: [
        ("", 0, []), ("a", 0, [0]), ("a\n", 0, [0]), ("a\nb", 0, [0, 2]), ("a\nb\n", 0, [0, 2]),
        ("\n", 0, [0]), ("\n\n", 0, [0, 1]), ("a\r\nb\r\n", 0, [0, 3]), ("a\nbc\nd", 2, [2, 5]),
        ("a\nb", 3, []), ("ab\n\n\ncd", 0, [0, 3, 4, 5]),
    ])
    func lineStarts(text: String, from: Int, expected: [Int]) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { LineEnds.lineStarts(in: $0, from: from) } == expected)
    }

    /// Law: splitting at the starts and stripping each line's LF and CR gives back the lines.
    @Test func startsAgreeWithSplitting() {
        let text = "one\r\ntwo\n\nthree\rfour\n" + String(repeating: "x", count: 70) + "\nlast"
        let bytes = Array(text.utf8)
        let starts = bytes.withUnsafeBytes { LineEnds.lineStarts(in: $0, from: 0) }
        var lines: [String] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] - 1 : bytes.count  // the LF, or the end
            let line = bytes[start..<end]
            lines.append(String(decoding: line[..<LineEnds.contentEnd(of: line)], as: UTF8.self))
        }
        #expect(lines == ["one", "two", "", "three\rfour", String(repeating: "x", count: 70), "last"])
    }
}
