import ByteInput
import LineLayout
import Testing

/// A text line longer than 64 KB is several units of ~16 KB (issue 12: a 10 MB line at width
/// 1 held 10 million rows at once). The pieces keep the line's number and its bytes, and are
/// cut where they would be cut however the input arrived.
@Suite struct GiantTextLineTests {
    func content(_ text: [UInt8], chunks: [Int]? = nil) -> TextContent {
        let store = ByteStore()
        var lines = TextLineIndex()
        var at = 0
        for size in chunks ?? [text.count] where at < text.count {
            let end = min(text.count, at + size)
            text[at..<end].withUnsafeBytes { store.append($0) }
            lines.advance(over: store)
            at = end
        }
        if at < text.count { text[at...].withUnsafeBytes { store.append($0) } }
        lines.advance(over: store, inputEnded: true)
        return TextContent(store: store, lines: lines)
    }

    func pieces(_ c: TextContent) -> [[UInt8]] { (0..<c.unitCount).map { c.lineBytes($0) } }

    /// Lines are found a window of 1 MB at a time within one call: several megabytes of short
    /// lines with a giant line across a window's end give the same units in one call as
    /// arriving in small chunks, and as splitting the bytes at each LF.
    @Test func linesFoundAcrossWindowsAreTheSame() {
        var text: [UInt8] = []
        var k = 0
        while text.count < (1 << 20) - 30_000 { text += Array("y \(k)\n".utf8); k += 1 }
        text += Array(String(repeating: "giant ", count: 20_000).utf8) + [0x0A]  // 120 KB over the 1 MB mark
        while text.count < 3 * (1 << 20) + 5 { text += Array("y\n".utf8) }
        text += Array("last line without LF".utf8)
        let whole = content(text)
        let chunked = content(text, chunks: Array(repeating: 65_537, count: text.count / 65_537 + 1))
        let same = pieces(whole) == pieces(chunked)
        #expect(same)
        #expect(whole.indexedBytes == text.count)
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(whole.sourceLineCount == lines.count)
        let joined = pieces(whole).flatMap { $0 }.filter { $0 != 0x0A }
        let expected = text.filter { $0 != 0x0A }
        #expect(joined == expected, "every byte but the LFs, in order")
    }

    @Test func aGiantLineIsPiecesThatKeepItsNumberAndBytes() {
        let giant = Array(String(repeating: "word ", count: 40_000).utf8)  // 200 KB
        let text = Array("first\n".utf8) + giant + Array("\nthird\n".utf8)
        let c = content(text)
        #expect(c.sourceLineCount == 3)
        #expect(c.unitCount > 10)
        let lines = c.unitRange.map { c.sourceLines(ofUnit: $0).first }
        #expect(lines.first == 1 && lines.last == 3)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0 == 2 })
        #expect(Array(pieces(c).dropFirst().dropLast().joined()) == giant)
        #expect(pieces(c).dropFirst().dropLast().allSatisfy { $0.count <= 16 * 1024 })
        #expect(pieces(c).dropFirst().dropLast().dropLast().allSatisfy { $0.last == 0x20 }, "cut after a space")
        #expect(c.unit(forSourceLine: 3) == Unit(c.unitCount - 1))
        #expect(c.unit(forSourceLine: 2) == 1)
    }

    /// Read in pieces of any size, the line is cut at the same places.
    @Test(arguments: [1_000, 4_096, 16_385, 65_536, 100_003])
    func cutsDoNotDependOnHowTheInputArrives(chunk: Int) {
        let giant = Array(String(repeating: "abcdefghé ", count: 30_000).utf8) + [0x0A] + Array("end\n".utf8)
        let whole = pieces(content(giant))
        let chunked = pieces(content(giant, chunks: Array(repeating: chunk, count: giant.count / chunk + 1)))
        #expect(whole == chunked)
        #expect(whole.count > 10)
    }

    /// No cut inside a UTF-8 sequence, an escape sequence or an overstrike.
    @Test func cutsAvoidSequences() {
        var line: [UInt8] = []
        while line.count < 300_000 {
            line += Array("\u{1B}[31mé€\u{1B}[0m".utf8) + [0x61, 0x08, 0x61] + Array("日本".utf8)
        }
        let c = content(line + [0x0A])
        let ps = pieces(c)
        #expect(ps.count > 10)
        #expect(Array(ps.joined()) == line)
        for p in ps {
            #expect(p.first.map { $0 & 0xC0 != 0x80 } == true, "no piece starts inside a character")
            #expect(p.first != 0x08)
            #expect(String(decoding: p, as: UTF8.self).unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
        }
        // Decoded, every piece shows its colours and bold as such: no escape made visible.
        for u in c.unitRange { #expect(!c.text(ofUnit: u).contains("^[")) }
    }
}
