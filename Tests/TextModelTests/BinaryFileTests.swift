import Foundation
import Testing
@testable import TextModel

/// less's rule for "may be a binary file": more than 5 binary characters in the first 256
/// bytes (`BinaryFile`).
@Suite struct BinaryFileTests {
    /// Every scalar, alone: a binary character exactly when it is a control character other
    /// than BS, TAB, LF, FF and CR, or U+2028/U+2029 (checked against a table written here,
    /// from Unicode's general categories Cc, Zl, Zp).
    @Test func everyScalarAlone() {
        let binary: Set<UInt32> = Set((0x00...0x07).map(UInt32.init) + [0x0B] + (0x0E...0x1F) + (0x7F...0x9F) + [0x2028, 0x2029])
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), value != 0x1B else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            #expect(BinaryFile.binaryCharacters(in: bytes) == (binary.contains(value) ? 1 : 0), "U+\(String(value, radix: 16))")
        }
        #expect(BinaryFile.binaryCharacters(in: [0x1B]) == 1, "a lone ESC")
    }

    /// The threshold: 5 binary characters are text, 6 are binary, wherever they are in the
    /// first 256 bytes; beyond them nothing counts.
    @Test(arguments: [0, 100, 245]) func threshold(at offset: Int) {
        let before = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
        #expect(!BinaryFile.looksBinary(before + [UInt8](repeating: 0, count: 5) + Array("text\n".utf8)))
        #expect(BinaryFile.looksBinary(before + [UInt8](repeating: 0, count: 6)))
        let late = [UInt8](repeating: UInt8(ascii: "a"), count: BinaryFile.prefixLength) + [UInt8](repeating: 0, count: 100)
        #expect(!BinaryFile.looksBinary(late), "only the first 256 bytes count")
    }

    /// Text of every kind folio shows is not binary: prose in many scripts, tabs, CR LF, form
    /// feeds, man's overstrike, SGR colours, erase-line, OSC 8 links.
    @Test func textIsNotBinary() {
        let texts = [
            "# Title\n\nSome *Markdown* with a [link](x).\n", "col1\tcol2\r\nrow\u{0C}page\n",
            "Ελληνικά, русский, 日本語, हिन्दी, العربية, 한국어 😀\n" + String(repeating: "ü", count: 200),
            "N\u{08}NA\u{08}AM\u{08}ME\u{08}E\n_\u{08}u_\u{08}n_\u{08}d_\u{08}e_\u{08}r\n",
            String(repeating: "\u{1B}[1;31mred\u{1B}[0m \u{1B}[K", count: 10),
            String(repeating: "\u{1B}]8;;https://example.com\u{07}link\u{1B}]8;;\u{1B}\\ ", count: 5),
        ]
        for text in texts { #expect(!BinaryFile.looksBinary(Array(text.utf8)), "\(text.prefix(40))") }
    }

    /// A program, bytes that are not UTF-8 (Latin-1 text in a UTF-8 locale, as less sees it
    /// too), lone escapes and line separators are binary.
    @Test func binaryIsBinary() {
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 8) + [0x03, 0x00, 0x3E, 0x00]
        #expect(BinaryFile.looksBinary(elf))
        #expect(BinaryFile.looksBinary(Array(repeating: [0x63, 0x61, 0x66, 0xE9, 0x20], count: 6).flatMap { $0 }), "Latin-1")
        #expect(BinaryFile.looksBinary([UInt8](repeating: 0xFF, count: 6)))
        #expect(BinaryFile.looksBinary(Array(String(repeating: "\u{1B}x", count: 6).utf8)), "ESC that starts no sequence")
        #expect(BinaryFile.looksBinary(Array(String(repeating: "a\u{2028}", count: 6).utf8)))
        #expect(BinaryFile.looksBinary([UInt8](repeating: 0x0B, count: 6)), "vertical tab")
    }

    /// Ill-formed UTF-8 counts once per bad sequence (overlong forms, surrogates, past
    /// U+10FFFF, stray continuation bytes); a sequence cut off by the 256th byte counts not at all.
    @Test func illFormedUTF8() {
        #expect(BinaryFile.binaryCharacters(in: [0xC0, 0xAF]) == 1, "overlong")
        #expect(BinaryFile.binaryCharacters(in: [0xE0, 0x80, 0xAF]) == 1, "overlong")
        #expect(BinaryFile.binaryCharacters(in: [0xED, 0xA0, 0x80]) == 1, "surrogate")
        #expect(BinaryFile.binaryCharacters(in: [0xF4, 0x90, 0x80, 0x80]) == 1, "past U+10FFFF")
        #expect(BinaryFile.binaryCharacters(in: [0x80, 0x80, 0x80]) == 1, "stray continuation bytes")
        #expect(BinaryFile.binaryCharacters(in: [0xC3, 0x41]) == 1, "a lead byte without its tail")
        let cut = [UInt8](repeating: UInt8(ascii: "a"), count: 254) + [0xE2, 0x82]  // € cut after two bytes
        #expect(BinaryFile.binaryCharacters(in: cut) == 0)
    }
}
