import Testing
@testable import CellWidth

@Suite struct CellWidthTests {
    @Test(arguments: [
        ("hello", 5), ("", 0), ("a b", 3),
        ("日本語", 6), ("中文abc", 7), ("한국어", 6), ("ｆｕｌｌ", 8),  // CJK, Hangul, fullwidth
        ("\u{1100}\u{1161}\u{11A8}", 2),               // conjoining Hangul jamo = one syllable
        ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧‍👦", 2), ("🏳️‍🌈", 2),  // emoji, skin tone, ZWJ sequences
        ("❤️", 2), ("❤", 1), ("☺", 1), ("☺️", 2),        // text-default emoji with and without VS16
        ("🇫🇷", 2), ("🇫🇷🇩🇪", 4), ("1️⃣", 2), ("#⃣", 1),  // flags, keycaps (emoji with VS16 only)
        ("🇫", 1), ("🇫🇷🇩", 3),                          // a regional indicator alone is a letter (wcwidth)
        ("☝🏽", 2), ("😀🏽", 4), ("a🏽", 3),              // a skin tone joins only an emoji modifier base
        ("©\u{200D}", 1), ("👨\u{200D}", 2), ("©\u{FE0F}", 2), ("e\u{FE0F}", 1),  // a ZWJ at the end joins nothing
        ("e\u{301}", 1), ("é", 1), ("a\u{20DD}", 1),     // combining acute, enclosing circle
        ("\u{301}", 0), ("\u{200D}", 0), ("\u{200B}", 0), ("\u{FEFF}", 0), ("\u{AD}", 1),  // terminals draw a soft hyphen
        ("\u{1B}", 0), ("\u{7F}", 0), ("\u{85}", 0),       // controls are zero (the layout escapes them)
        ("a\u{200B}b", 2), ("•◦▪☐☑↪│─═┼", 10),          // decorations the layout uses are narrow
        ("🫠", 2), ("\u{3400}", 2), ("\u{2F81A}", 2),    // newer emoji, CJK extension A, plane 2
        ("\u{601}x", 2), ("\u{600}中", 3), ("\u{601}", 1), // prepended concatenation marks: a column
        ("\u{6DD}\u{661}", 2), ("\u{70F}x", 2), ("\u{8E2}x", 2), ("a\u{605}b", 3),  // of their own, + the next
        ("a\u{600}\u{600}\u{600}\u{600}b|end", 10),     // four number signs before one letter: one cluster
        ("\u{D4E}x", 2),                                // a prepend letter: also a column of its own
        ("कि", 2), ("\u{1C00}\u{1C24}", 2), ("W\u{A9B5}", 2),             // spacing marks (Mc) take a column, as terminals draw them
        ("क्ष", 2), ("स्त्री", 4), ("न्दी", 3), ("हिन्दी में संयुक्ताक्षर", 16),  // conjuncts: every consonant its column
        ("क्\u{200D}ष", 2), ("ก่ำ", 2), ("\u{1100}\u{1100}\u{1161}", 4), ("가\u{D7CB}", 2),  // Thai sara am; Hangul jamo
        ("\u{302A}", 0), ("x\u{3099}", 1), ("\u{3248}", 2), ("\u{4DC0}", 2),  // marks in ideographic blocks; wide as glibc
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

    /// The ranges answered without property look-ups get the look-ups' answer.
    @Test func narrowRangesAgreeWithTheLookUps() {
        var checked = 0
        for v in UInt32(0x300)...0x2FFF where CellWidth.isNarrowWithoutLookUp(v) {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect(CellWidth.ofLookingUp(s) == 1, "U+\(String(v, radix: 16))")
            checked += 1
        }
        #expect(checked == (0x482 - 0x370 + 1) + (0x2027 - 0x2010 + 1) + (0x259F - 0x2500 + 1))
    }

    @Test func wideTableIsSortedAndDisjoint() {
        for (a, b) in CellWidth.wideRanges { #expect(a <= b) }
        for i in 1..<CellWidth.wideRanges.count {
            #expect(CellWidth.wideRanges[i - 1].1 + 1 < CellWidth.wideRanges[i].0)
        }
        #expect(CellWidth.isWide(0x4E00) && CellWidth.isWide(0xFF01) && !CellWidth.isWide(0x41))
        #expect(!CellWidth.isWide(0x10FFFF) && !CellWidth.isWide(0))
    }

    /// An emoji sequence is one wide glyph however many scalars it joins; any other cluster is
    /// as wide as its scalars (so a grid cell may cover more than 2 columns).
    @Test func emojiSequencesAreTwoAndOtherClustersTheSumOfTheirScalars() {
        for c in "👨‍👩‍👧‍👦👍🏽🇫🇷🏳️‍🌈👩🏽‍💻❤️1️⃣" {
            #expect(CellWidth.of(c) == 2, "\(c)")
        }
        for c in "ab\u{301}\u{302}\u{303}ก่ำनमस्तेसंयुक्ताक्षर\u{600}\u{600}\u{600}1" {
            #expect(CellWidth.of(c) == c.unicodeScalars.reduce(0) { $0 + CellWidth.of($1) }, "\(c)")
        }
    }
}
