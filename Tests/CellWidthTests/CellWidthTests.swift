import Testing
@testable import CellWidth

@Suite struct CellWidthTests {
    @Test(arguments: [
        ("hello", 5), ("", 0), ("a b", 3),
        ("日本語", 6), ("中文abc", 7), ("한국어", 6), ("ｆｕｌｌ", 8),  // CJK, Hangul, fullwidth
        ("\u{1100}\u{1161}\u{11A8}", 2),               // conjoining Hangul jamo = one syllable
        ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧‍👦", 2), ("🏳️‍🌈", 2),  // emoji, skin tone, ZWJ sequences
        ("❤️", 2), ("❤", 1), ("☺", 1), ("☺️", 2),        // text-default emoji with and without VS16
        ("🇫🇷", 2), ("🇫🇷🇩🇪", 4), ("1️⃣", 2), ("#⃣", 2),  // flags, keycaps
        ("e\u{301}", 1), ("é", 1), ("a\u{20DD}", 1),     // combining acute, enclosing circle
        ("\u{301}", 0), ("\u{200D}", 0), ("\u{200B}", 0), ("\u{FEFF}", 0), ("\u{AD}", 0),
        ("\u{1B}", 0), ("\u{7F}", 0), ("\u{85}", 0),       // controls are zero (the layout escapes them)
        ("a\u{200B}b", 2), ("•◦▪☐☑↪│─═┼", 10),          // decorations the layout uses are narrow
        ("🫠", 2), ("\u{3400}", 2), ("\u{2F81A}", 2),    // newer emoji, CJK extension A, plane 2
        ("\u{601}x", 2), ("\u{600}中", 2), ("\u{601}", 1), // prepended concatenation marks: a column
        ("\u{6DD}\u{661}", 2), ("\u{70F}x", 2), ("\u{8E2}x", 2), ("a\u{605}b", 3),  // of their own, + the next
        ("\u{D4E}x", 2),                                // a prepend letter: also a column of its own
        ("कि", 2), ("\u{1C00}\u{1C24}", 2), ("W\u{A9B5}", 2),             // spacing marks (Mc) take a column, as terminals draw them
    ] as [(String, Int)])
    func width(_ text: String, _ expected: Int) {
        #expect(CellWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(CellWidth.of(Substring(text)) == expected)
    }

    @Test func asciiFastPathAgreesWithCharacters() {
        var s = ""
        for v in 0x20...0x7E { s.unicodeScalars.append(Unicode.Scalar(UInt8(v))) }
        #expect(CellWidth.of(s) == s.utf8.count)
        #expect(s.reduce(0) { $0 + CellWidth.of($1) } == s.utf8.count)
    }

    @Test func wideTableIsSortedAndDisjoint() {
        for (a, b) in CellWidth.wideRanges { #expect(a <= b) }
        for i in 1..<CellWidth.wideRanges.count {
            #expect(CellWidth.wideRanges[i - 1].1 + 1 < CellWidth.wideRanges[i].0)
        }
        #expect(CellWidth.isWide(0x4E00) && CellWidth.isWide(0xFF01) && !CellWidth.isWide(0x41))
        #expect(!CellWidth.isWide(0x10FFFF) && !CellWidth.isWide(0))
    }

    @Test func charactersAreAtMostTwoColumns() {
        for s in ["👨‍👩‍👧‍👦👍🏽🇫🇷", "ab\u{301}\u{302}\u{303}", "ก่ำ", "नमस्ते"] {
            for c in s { #expect((0...2).contains(CellWidth.of(c))) }
        }
    }
}
