import Styling
import TestSupport
import Testing
@testable import TextModel

private let esc = "\u{1B}"
private let bs = "\u{08}"

@Suite struct PlainAndControlTests {
    @Test func plainASCIIIsItsOwnText() {
        let line = decode("hello, world")
        #expect(line == StyledLine(text: "hello, world"))
    }

    @Test func cleanUnicodeIsItsOwnText() {
        #expect(decode("naïve 中文 👍🏽") == StyledLine(text: "naïve 中文 👍🏽"))
    }

    @Test func emptyLine() {
        #expect(decode("") == StyledLine(text: ""))
    }

    @Test(arguments: [
        ("a\u{0}b", "a^@b"), ("a\u{1}b", "a^Ab"), ("a\rb", "a^Mb"), ("\u{7F}", "^?"),
        ("a\u{1F}", "a^_"), ("\u{1C}", "^\\"), ("x\u{0C}y", "x^Ly"), ("\u{07}", "^G"),
    ])
    func c0AndDelInCaretNotation(input: String, shown: String) {
        let line = decode(input)
        #expect(line.text == shown)
        expectWellFormed(line)
        // Only the caret forms are marked.
        for run in line.runs { #expect(run.attributes == control) }
        #expect(line.runs.map(\.range.count).reduce(0, +) == 2 * input.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x7F }.count)
    }

    @Test func c1ControlsAsCodePoints() {
        let line = decode("a\u{85}b\u{9B}c")
        #expect(line.text == "a<U+0085>b<U+009B>c")
        #expect(styled(line).map(\.0) == ["<U+0085>", "<U+009B>"])
        #expect(styled(line).allSatisfy { $0.1 == control })
    }

    @Test func invalidUTF8AsHexBytes() {
        // Stray continuation, overlong, surrogate, cut short, above U+10FFFF, and 0xFF.
        let bytes: [UInt8] = [0x61, 0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xFF, 0xE4, 0xB8]
        let line = decode(bytes: bytes)
        #expect(line.text == "a<80><C0><AF><ED><A0><80><F4><90><80><80><FF><E4><B8>")
        expectWellFormed(line)
        #expect(line.runs == [StyledRun(range: 1..<line.text.utf8.count, attributes: control)])
    }

    @Test func invalidByteBetweenValidCharacters() {
        let line = decode(bytes: Array("中".utf8) + [0xFE] + Array("文".utf8))
        #expect(line.text == "中<FE>文")
    }
}

@Suite struct OverstrikeTests {
    @Test func boldAndUnderline() {
        #expect(styled(decode("N\(bs)NA\(bs)AM\(bs)ME\(bs)E")).map(\.0) == ["NAME"])
        #expect(decode("N\(bs)NA\(bs)AM\(bs)ME\(bs)E").runs == [StyledRun(range: 0..<4, attributes: TextAttributes(bold: true))])
        #expect(decode("_\(bs)F_\(bs)I").runs == [StyledRun(range: 0..<2, attributes: TextAttributes(underline: true))])
        #expect(decode("_\(bs)F_\(bs)I").text == "FI")
        #expect(decode("a\(bs)_").text == "a")
        #expect(decode("a\(bs)_").runs == [StyledRun(range: 0..<1, attributes: TextAttributes(underline: true))])
    }

    @Test func manPageInOverstrikeForm() {
        // `MAN_KEEP_FORMATTING=1 man ls` (verified with man-db and groff).
        let synopsis = decode("       l\(bs)ls\(bs)s [_\(bs)O_\(bs)P_\(bs)T_\(bs)I_\(bs)O_\(bs)N]... [_\(bs)F_\(bs)I_\(bs)L_\(bs)E]...")
        #expect(synopsis.text == "       ls [OPTION]... [FILE]...")
        #expect(styled(synopsis).map(\.0) == ["ls", "OPTION", "FILE"])
        #expect(styled(synopsis).map(\.1) == [TextAttributes(bold: true), TextAttributes(underline: true), TextAttributes(underline: true)])
        let options = decode("       if none of -\(bs)-c\(bs)cf\(bs)ft\(bs)tu\(bs)uv\(bs)vS\(bs)SU\(bs)UX\(bs)X nor -\(bs)--\(bs)-s\(bs)so\(bs)or\(bs)rt\(bs)t is")
        #expect(options.text == "       if none of -cftuvSUX nor --sort is")
        #expect(styled(options).map(\.0) == ["-cftuvSUX", "--sort"])
    }

    @Test func boldUnderlinedAndUnderscores() {
        // nroff's bold + underline: _ BS c BS c.
        #expect(decode("_\(bs)x\(bs)x").runs == [StyledRun(range: 0..<1, attributes: TextAttributes(bold: true, underline: true))])
        // An underscore overstruck by itself follows the character before it.
        let underlined = decode("_\(bs)a_\(bs)__\(bs)b")
        #expect(underlined.text == "a_b")
        #expect(underlined.runs == [StyledRun(range: 0..<3, attributes: TextAttributes(underline: true))])
        let bold = decode("a\(bs)a_\(bs)_")
        #expect(bold.runs == [StyledRun(range: 0..<2, attributes: TextAttributes(bold: true))])
        #expect(decode("x _\(bs)_").runs == [StyledRun(range: 2..<3, attributes: TextAttributes(bold: true))])
    }

    @Test func bulletAndReplacement() {
        #expect(decode("+\(bs)o item") == StyledLine(text: "o item"))
        #expect(decode("a\(bs)b") == StyledLine(text: "b"))
    }

    @Test func keepsTheColourOfTheCharacter() {
        let line = decode("\(esc)[31mx\(bs)x")
        #expect(line.runs == [StyledRun(range: 0..<1, attributes: TextAttributes(foreground: .ansi(1), bold: true))])
    }

    @Test func wideCharacters() {
        #expect(decode("中\(bs)中").runs == [StyledRun(range: 0..<3, attributes: TextAttributes(bold: true))])
        #expect(decode("中\(bs)\(bs)中").runs == [StyledRun(range: 0..<3, attributes: TextAttributes(bold: true))])
        #expect(decode("_\(bs)中").runs == [StyledRun(range: 0..<3, attributes: TextAttributes(underline: true))])
        #expect(decode("a\(bs)\(bs)a").text == "a^H^Ha")
    }

    @Test(arguments: [
        ("\(bs)a", "^Ha"), ("a\(bs)", "a^H"), ("a\(bs)\u{1}", "a^H^A"), ("\t\(bs)a", "        ^Ha"),
        ("\(esc)[1m\(bs)x", "^Hx"), ("a\(bs)\(bs)\(bs)b", "a^H^H^Hb"),
    ])
    func loneBackspacesAreShown(input: String, shown: String) {
        let line = decode(input)
        #expect(line.text == shown)
        expectWellFormed(line)
    }
}

@Suite struct TabTests {
    @Test(arguments: [
        ("\tx", 8, "        x"), ("ab\tx", 8, "ab      x"), ("abcdefgh\tx", 8, "abcdefgh        x"),
        ("a\tb\tc", 4, "a   b   c"), ("\t", 1, " "), ("ab\t", 0, "ab "), ("中\tx", 4, "中  x"),
        ("中文字\tx", 8, "中文字  x"), ("👍🏽\tx", 4, "👍🏽  x"), ("e\u{301}\tx", 4, "e\u{301}   x"),
        ("\u{1}\tx", 4, "^A  x"), ("\(esc)[1mab\(esc)[0m\tx", 4, "ab  x"), ("<\u{85}>\tx", 8, "<<U+0085>>      x"),
    ])
    func expandsToTheNextStopInCells(input: String, width: Int, shown: String) {
        let line = decode(input, tabWidth: width)
        #expect(line.text == shown)
        expectWellFormed(line)
    }

    @Test func tabSpacesCarryTheStyle() {
        let line = decode("\(esc)[4ma\tb", tabWidth: 4)
        #expect(line.runs == [StyledRun(range: 0..<5, attributes: TextAttributes(underline: true))])
    }
}

@Suite struct DecoderRobustnessTests {
    /// Every prefix of a line with sequences in it (as a line cut anywhere would be) decodes to
    /// well-formed output: nothing of a cut sequence passes through.
    @Test(arguments: [
        "\(esc)[1;38;2;10;20;30mbold\(esc)[0m",
        "\(esc)]8;;https://example.com\(esc)\\link\(esc)]8;;\(esc)\\",
        "\(esc)]8;;u\u{7}x\(esc)]8;;\u{7}",
        "_\(bs)a_\(bs)b\(bs)b中\(bs)\(bs)中",
        "\(esc)[38:2::1:2:3m\t\u{85}x",
    ])
    func everyPrefixIsWellFormed(sample: String) {
        let bytes = Array(sample.utf8)
        for cut in 0...bytes.count {
            expectWellFormed(decode(bytes: Array(bytes[..<cut])), "cut at \(cut)")
            expectWellFormed(decode(bytes: Array(bytes[cut...])), "from \(cut)")
        }
    }

    @Test func randomBytes() {
        var random = SeededRandom(seed: 0x7E47)
        let alphabet: [UInt8] = [0x1B, 0x1B, 0x5B, 0x5D, 0x38, 0x3B, 0x3B, 0x3A, 0x6D, 0x6D, 0x31, 0x32, 0x35, 0x08, 0x08,
                                 0x5F, 0x07, 0x5C, 0x09, 0x0D, 0x00, 0x7F, 0xC2, 0x85, 0x9B, 0xE4, 0xB8, 0xAD, 0xFF, 0x61, 0x20]
        for round in 0..<3000 {
            let length = Int.random(in: 0...40, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let line = decode(bytes: bytes, tabWidth: Int.random(in: 1...8, using: &random))
            expectWellFormed(line, "round \(round) bytes \(bytes)")
        }
    }

    @Test func rawBufferAndArrayAndNonContiguousInputAgree() {
        let sample = Array("a\(esc)[1mb\(bs)b\tc".utf8)
        let expected = decode(bytes: sample)
        let fromRaw = sample.withUnsafeBytes { TerminalTextDecoder.decode($0) }
        #expect(fromRaw == expected)
        let fromSlice = TerminalTextDecoder.decode(sample[...])
        #expect(fromSlice == expected)
        let fromSequenceCollection = TerminalTextDecoder.decode(sample.lazy.map { $0 })
        #expect(fromSequenceCollection == expected)
    }
}

@Suite struct DecoderLawTests {
    static let pieces = ["a", "Z", " ", "~", "é", "中", "👍🏽", "e\u{301}", "[", "]", "m", ";", "_", "+", "o"]
    static let sequences = [
        "\(esc)[0m", "\(esc)[m", "\(esc)[1m", "\(esc)[22m", "\(esc)[4:3m", "\(esc)[38;5;12m", "\(esc)[48;2;1;2;3m",
        "\(esc)[38:2::9:8:7m", "\(esc)[1;31;44m", "\(esc)[39;49m", "\(esc)]8;;https://example.com/x\u{7}",
        "\(esc)]8;id=3;file:///tmp/a\(esc)\\", "\(esc)]8;;\u{7}",
    ]

    /// Clean text is its own decoding.
    @Test func cleanTextIsUnchanged() {
        var random = SeededRandom(seed: 1)
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            #expect(decode(text) == StyledLine(text: text))
        }
    }

    /// SGR and OSC 8 sequences never change the text: it is the printable pieces joined, and
    /// every link covers text that was written between its opening and closing sequences.
    @Test func sequencesNeverChangeTheText() {
        var random = SeededRandom(seed: 2)
        for round in 0..<1000 {
            var input = "", expected = ""
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                if Bool.random(using: &random) {
                    input += Self.sequences.randomElement(using: &random)!
                } else {
                    let piece = Self.pieces.randomElement(using: &random)!
                    input += piece
                    expected += piece
                }
            }
            let line = decode(input)
            #expect(line.text == expected, "round \(round): \(input.debugDescription)")
            expectWellFormed(line, "round \(round)")
            // Nothing was shown as a control (the sequences hold no reverse video).
            #expect(!line.runs.contains { $0.attributes.reverse }, "round \(round)")
        }
    }
}
