import Foundation
import Testing
@testable import CellWidth

/// glibc's `wcwidth`/`wcswidth` under C.UTF-8: what tmux, less and the shell count with, and how
/// terminals that draw code point by code point (xterm, VTE, foot) lay text out. `CellWidth`
/// must agree with it except where folio means to differ (emoji sequences, below).
///
/// Swift's Glibc module hides `wcwidth` behind `_XOPEN_SOURCE`, so the functions are looked up
/// by name; the locale is set for the calling thread only (`uselocale`), never for the process
/// the other test targets share.
enum Glibc {
    private typealias Width = @convention(c) (Int32) -> Int32
    private typealias StringWidth = @convention(c) (UnsafePointer<Int32>, Int) -> Int32

    /// `wcwidth` and `wcswidth` from the C library the process has loaded.
    private static func functions() -> (Width, StringWidth)? {
        let process = dlopen(nil, RTLD_NOW)
        guard let width = dlsym(process, "wcwidth"), let stringWidth = dlsym(process, "wcswidth") else { return nil }
        return (unsafeBitCast(width, to: Width.self), unsafeBitCast(stringWidth, to: StringWidth.self))
    }

    /// Whether the functions and the C.UTF-8 locale are there (glibc 2.35 and later have it).
    static var available: Bool {
        guard functions() != nil, let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else { return false }
        freelocale(locale)
        return true
    }

    /// Runs `body` with LC_CTYPE C.UTF-8 on this thread, giving it `wcwidth` and `wcswidth`
    /// (which answer -1 for a control or a code point glibc's tables do not have).
    static func withUTF8Locale<T>(_ body: (_ width: (Unicode.Scalar) -> Int, _ stringWidth: (Character) -> Int) -> T) -> T {
        let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)!
        let previous = uselocale(locale)
        defer { uselocale(previous); freelocale(locale) }
        let (width, stringWidth) = functions()!
        return body({ Int(width(Int32(bitPattern: $0.value))) }, { c in
            let wide = c.unicodeScalars.map { Int32(bitPattern: $0.value) }
            return Int(wide.withUnsafeBufferPointer { stringWidth($0.baseAddress!, $0.count) })
        })
    }
}

@Suite(.enabled(if: Glibc.available, "glibc's wcwidth or the C.UTF-8 locale is missing"))
struct GlibcWidthTests {
    /// Every code point glibc has a width for (controls excepted: glibc says -1, folio 0, and the
    /// layout shows them in caret notation before measuring) has that width alone, except
    /// those whose Unicode properties changed after glibc's tables (Unicode 14 in glibc 2.36):
    /// folio takes the newer ones Swift has.
    @Test func everyScalarHasGlibcsWidth() {
        // U+1171E AHOM CONSONANT SIGN MEDIAL RA: a nonspacing mark in Unicode 14, a spacing
        // mark (one column) since Unicode 15.
        let changedSince14: Set<UInt32> = [0x1171E]
        let differing = Glibc.withUTF8Locale { width, _ in
            var differing: [String] = []
            for v in UInt32(0x20)...0x10FFFF where !changedSince14.contains(v) {
                guard let s = Unicode.Scalar(v) else { continue }
                let expected = width(s)
                if expected >= 0 && CellWidth.of(s) != expected {
                    differing.append("U+\(String(v, radix: 16, uppercase: true)) \(CellWidth.of(s)) (glibc \(expected))")
                }
            }
            return differing
        }
        #expect(differing.isEmpty, "\(differing.count): \(differing.prefix(40).joined(separator: ", "))")
    }

    /// Every grapheme cluster of the sample documents, the fuzz corpus and the scripts that
    /// terminals draw code point by code point is as wide as `wcswidth` says, except emoji
    /// sequences: folio counts them 2, as terminals that join them draw them (tmux 3.4 and
    /// later, kitty, WezTerm, foot), where glibc sums the parts (👍🏽 4, ❤️ 1, 1️⃣ 1, 👨‍👩‍👧 6).
    @Test func everyGraphemeOfTheCorpusHasGlibcsWidth() throws {
        var clusters = Set<Character>()
        for text in try Self.corpus() + Self.scripts { clusters.formUnion(text) }
        #expect(clusters.count > 300)
        let (differing, emoji) = Glibc.withUTF8Locale { _, stringWidth in
            var differing: [String] = [], emoji = 0
            for c in clusters.sorted() {
                // Controls: glibc says -1 (the layout shows them in caret notation first).
                if c.unicodeScalars.contains(where: { VisibleControls.isControl($0.value) }) { continue }
                let expected = stringWidth(c)
                if expected < 0 { continue }  // a code point newer than glibc's tables
                let width = CellWidth.of(c)
                if width == expected { continue }
                if Self.isEmojiSequence(c) && width == 2 { emoji += 1; continue }
                differing.append("\(c.unicodeScalars.map { String($0.value, radix: 16) }) \(width) (glibc \(expected))")
            }
            return (differing, emoji)
        }
        #expect(differing.isEmpty, "\(differing.joined(separator: ", "))")
        #expect(emoji > 0, "the corpus has emoji sequences")
    }

    /// The deliberate differences, told apart without `CellWidth`: a flag (two regional
    /// indicators), or a cluster holding VS16, a ZWJ or a skin-tone modifier.
    static func isEmojiSequence(_ c: Character) -> Bool {
        let values = c.unicodeScalars.map(\.value)
        if values.count == 2 && values.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0) }) { return true }
        return values.contains { $0 == 0xFE0F || $0 == 0x200D || (0x1F3FB...0x1F3FF).contains($0) }
    }

    /// Lines in scripts whose clusters terminals draw code point by code point: Indic conjuncts
    /// and spacing vowel signs, Arabic number signs joined to the digits after them, Thai, Hangul
    /// jamo, and marks inside the ideographic blocks.
    static let scripts = [
        "हिन्दी में संयुक्ताक्षर: क्ष त्र ज्ञ श्र स्त्री द्ध्र्य",  // Devanagari
        "বাংলা যুক্তাক্ষর ক্ষ ন্দ্র", "ਪੰਜਾਬੀ ਪ੍ਰ", "ગુજરાતી ક્ષ", "ଓଡ଼ିଆ କ୍ଷ",  // Bengali, Gurmukhi, Gujarati, Oriya
        "தமிழ் க்ஷ ஸ்ரீ", "తెలుగు క్ష్మ", "ಕನ್ನಡ ಕ್ಷ", "മലയാളം ക്ഷ ൎമ", "සිංහල ක්‍ෂ",  // Tamil, Telugu, Kannada, Malayalam, Sinhala
        "a\u{600}\u{600}\u{600}\u{600}b|end \u{601}\u{662}\u{663} \u{6DD}\u{661}\u{662} \u{70F}ܐ \u{8E2}x",
        "ภาษาไทย กำ น้ำ", "ພາສາລາວ", "ភាសាខ្មែរ ស្ត្រី", "မြန်မာ",  // Thai, Lao, Khmer, Myanmar
        "\u{1100}\u{1161}\u{11A8} \u{1100}\u{1100}\u{1161} 가\u{D7CB} \u{3131}",  // Hangul jamo
        "x\u{3099} 〪字 ㉈ ䷀ a\u{AD}b",
    ]

    /// The text of every sample document and fuzz seed (invalid UTF-8 read as U+FFFD).
    static func corpus() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var texts: [String] = []
        for folder in ["SampleDocs", "Fuzz/corpus/print", "Fuzz/corpus/keys"] {
            let url = root.appendingPathComponent(folder)
            // (Text files only: SampleDocs/images holds pictures.)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where folder != "SampleDocs" || name.hasSuffix(".md") {
                let data = try Data(contentsOf: url.appendingPathComponent(name))
                texts.append(String(decoding: data, as: UTF8.self))
            }
        }
        #expect(texts.count >= 10)
        return texts
    }
}
