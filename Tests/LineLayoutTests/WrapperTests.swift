import CellWidth
import TestSupport
@testable import LineLayout
import Testing

@Suite struct WrapperTests {
    /// The wrapped lines as strings.
    func wrap(_ s: String, _ width: Int) -> [String] {
        let bytes = Array(s.utf8)
        return Wrapper.wrap(s, width: width).map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
    }

    @Test func breaksAtSpacesAndDropsThem() {
        #expect(wrap("aa bb cc", 5) == ["aa bb", "cc"])
        #expect(wrap("aa   bb", 2) == ["aa", "bb"])
        #expect(wrap("aa bb", 100) == ["aa bb"])
        #expect(wrap("", 3) == [""])
    }

    @Test func breaksLongWordsBetweenGraphemes() {
        #expect(wrap("abcdefg", 3) == ["abc", "def", "g"])
        #expect(wrap("x abcdefg", 3) == ["x", "abc", "def", "g"])
        #expect(wrap("日本語", 4) == ["日本", "語"])
        #expect(wrap("e\u{301}e\u{301}e\u{301}", 2) == ["e\u{301}e\u{301}", "e\u{301}"])
        #expect(wrap("👨‍👩‍👧👍🏽", 2) == ["👨‍👩‍👧", "👍🏽"])
        // Clusters terminals draw code point by code point are as wide as their code points.
        #expect(wrap("क्षस्त्री", 4) == ["क्ष", "स्त्री"])
        #expect(wrap("क्षस्त्री", 6) == ["क्षस्त्री"])
    }

    /// A grapheme wider than the line fills a line of its own, marked overwide (shown as
    /// U+FFFD); the lines around it are not.
    @Test func graphemesWiderThanTheLineAreAloneAndMarked() {
        let text = "ab स्त्री cd"
        let bytes = Array(text.utf8)
        func shown(_ lines: [WrappedLine]) -> [String] {
            lines.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) + ($0.overwide ? " (overwide)" : "") }
        }
        #expect(shown(Wrapper.wrap(text, width: 3)) == ["ab", "स्त्री (overwide)", "cd"])
        #expect(shown(Wrapper.wrap(text, width: 4)) == ["ab", "स्त्री", "cd"])
        #expect(Wrapper.wrap(text, width: 3).map(\.width) == [2, 3, 2])
        let hard = bytes.withUnsafeBufferPointer {
            Wrapper.hardWrap(text, $0, from: 0, to: bytes.count, width: 4, continuationWidth: 3)
        }
        #expect(shown(hard) == ["ab ", "स्त्री (overwide)", " cd"])
    }

    @Test func hardBreaksEndTheLine() {
        #expect(wrap("a\nb c", 10) == ["a", "b c"])
        #expect(wrap("a\n\nb", 10) == ["a", "", "b"])
    }

    @Test func widthsAreCounted() {
        #expect(Wrapper.wrap("日本 ab", width: 10).map(\.width) == [7])
        // A wide character in one column counts as one (it is drawn as U+FFFD).
        #expect(Wrapper.wrap("日本", width: 1).map(\.width) == [1, 1])
    }

    @Test func controlCharactersBecomeCaretNotation() {
        var out = ""
        ControlCharacters.appendProse("a\u{0}b\u{1B}c\u{7F}d\u{9B}e\tf", to: &out)
        #expect(out == "a^@b^[c^?dM-^[e f")
        var code = ""
        ControlCharacters.appendCodeLine("ab\tc\t\u{1B}", to: &code)
        #expect(code == "ab  c   ^[")
    }
}

/// The wrapper's ASCII fast path must change nothing: it is compared with the plain
/// grapheme-by-grapheme greedy loop it replaced.
@Suite struct WrapperFastPathTests {
    static func reference(_ string: String, width: Int) -> [WrappedLine] {
        var lines: [WrappedLine] = []
        let graphemes = Array(string)
        var offsets: [Int] = [0]
        for g in graphemes { offsets.append(offsets.last! + g.utf8.count) }
        let n = graphemes.count
        var lineStart = 0, col = 0, wrapped = false
        var breakEnd = -1, breakCol = 0, nextStart = 0, nextCol = 0, inSpaces = false
        var i = 0
        func emit(_ end: Int, _ w: Int) {
            lines.append(WrappedLine(start: offsets[lineStart], end: offsets[end], width: w, overwide: width < 2))
        }
        while i < n {
            let g = graphemes[i]
            if g == "\n" {
                emit(inSpaces ? breakEnd : i, inSpaces ? breakCol : col)
                i += 1; lineStart = i; col = 0; breakEnd = -1; inSpaces = false; wrapped = false
                continue
            }
            if g == " " {
                if wrapped && i == lineStart { i += 1; lineStart = i; continue }
                if !inSpaces { breakEnd = i; breakCol = col; inSpaces = true }
                col += 1; i += 1; nextStart = i; nextCol = col
                if col > width {
                    emit(breakEnd, breakCol)
                    lineStart = i; col = 0; breakEnd = -1; inSpaces = false; wrapped = true
                }
                continue
            }
            inSpaces = false
            let w = min(width, CellWidth.of(g))
            if col + w > width {
                if breakEnd > lineStart {
                    emit(breakEnd, breakCol)
                    lineStart = nextStart; col -= nextCol; wrapped = true; breakEnd = -1
                }
                if col + w > width && col > 0 {
                    emit(i, col)
                    lineStart = i; col = 0; breakEnd = -1; wrapped = true
                }
            }
            col += w
            i += 1
        }
        if inSpaces && breakEnd >= lineStart { emit(breakEnd, breakCol) } else { emit(n, col) }
        return lines
    }

    @Test func fastPathAgreesWithTheGraphemeLoop() {
        var random = SeededRandom(seed: 0x3a9)
        let words = ["a", "word", "longerword", "x", "日本", "e\u{301}", "🙂", "  ", " ", "\n", "ab\u{301}c", "supercalifragilistic",
                     "स्त्री", "क्ष"]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                words.randomElement(using: &random)! + (Bool.random(using: &random) ? " " : "")
            }.joined()
            let width = Int.random(in: 1...24, using: &random)
            let fast = Wrapper.wrap(text, width: width).map { [$0.start, $0.end, $0.width] }
            let slow = Self.reference(text, width: width).map { [$0.start, $0.end, $0.width] }
            #expect(fast == slow, "\(text.debugDescription) at \(width)")
            if fast != slow { return }
        }
    }
}
