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
