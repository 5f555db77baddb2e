import Styling
import Testing
@testable import TextModel

private let esc = "\u{1B}"
private let bs = "\u{08}"

@Suite struct SGRTests {
    @Test func boldThenReset() {
        let line = decode("\(esc)[1mNAME\(esc)[0m rest")
        #expect(line.text == "NAME rest")
        #expect(line.runs == [StyledRun(range: 0..<4, attributes: TextAttributes(bold: true))])
    }

    @Test(arguments: [
        ("1", TextAttributes(bold: true)), ("2", TextAttributes(dim: true)), ("3", TextAttributes(italic: true)),
        ("4", TextAttributes(underline: true)), ("4:3", TextAttributes(underline: true)), ("7", TextAttributes(reverse: true)),
        ("9", TextAttributes(strikethrough: true)),
        ("31", TextAttributes(foreground: .ansi(1))), ("97", TextAttributes(foreground: .ansi(15))),
        ("42", TextAttributes(background: .ansi(2))), ("104", TextAttributes(background: .ansi(12))),
        ("38;5;208", TextAttributes(foreground: .palette(208))), ("48;5;17", TextAttributes(background: .palette(17))),
        ("38:5:208", TextAttributes(foreground: .palette(208))),
        ("38;2;255;128;0", TextAttributes(foreground: .rgb(255, 128, 0))),
        ("48;2;1;2;3", TextAttributes(background: .rgb(1, 2, 3))),
        ("38:2:255:128:0", TextAttributes(foreground: .rgb(255, 128, 0))),
        ("38:2::255:128:0", TextAttributes(foreground: .rgb(255, 128, 0))),
        ("38:2:0:255:128:0", TextAttributes(foreground: .rgb(255, 128, 0))),
        ("01;34", TextAttributes(foreground: .ansi(4), bold: true)),
        ("1;4;31;44", TextAttributes(foreground: .ansi(1), background: .ansi(4), bold: true, underline: true)),
        // Underline colour is read (its arguments are not taken for attributes) and ignored.
        ("58;2;1;2;3;1", TextAttributes(bold: true)), ("58;5;2;3", TextAttributes(italic: true)),
        ("58:2::1:2:3", TextAttributes()),
        // Unknown numbers are ignored.
        ("5;1", TextAttributes(bold: true)), ("53", TextAttributes()),
        // Out of range colours are ignored.
        ("38;5;300", TextAttributes()), ("38;2;1;2;999;1", TextAttributes(bold: true)),
        // Cut short: what is there is consumed.
        ("38;5", TextAttributes()), ("38;2;1;2", TextAttributes()), ("1;38", TextAttributes(bold: true)),
    ])
    func eachForm(parameters: String, expected: TextAttributes) {
        let line = decode("\(esc)[\(parameters)mX")
        #expect(line.text == "X")
        #expect(line.attributes(at: 0) == expected)
        expectWellFormed(line)
    }

    @Test(arguments: [
        ("1;2", "22", TextAttributes()), ("3;1", "23", TextAttributes(bold: true)),
        ("4", "24", TextAttributes()), ("4", "4:0", TextAttributes()), ("7;9", "27", TextAttributes(strikethrough: true)),
        ("9", "29", TextAttributes()), ("31;42", "39", TextAttributes(background: .ansi(2))),
        ("31;42", "49", TextAttributes(foreground: .ansi(1))), ("1;31", "", TextAttributes()), ("1;31", "0", TextAttributes()),
    ])
    func offCodes(on: String, off: String, expected: TextAttributes) {
        let line = decode("\(esc)[\(on)m\(esc)[\(off)mX")
        #expect(line.text == "X")
        #expect(line.attributes(at: 0) == expected)
    }

    @Test func gitColourDiffLine() {
        // `git diff --color` writes this shape.
        let line = decode("\(esc)[32m+\(esc)[m\(esc)[32madded line\(esc)[m")
        #expect(line.text == "+added line")
        #expect(line.runs == [StyledRun(range: 0..<11, attributes: TextAttributes(foreground: .ansi(2)))])
    }

    @Test func lsColorLine() {
        // `ls --color=always -l` (verified with GNU ls).
        let line = decode("drwxr-xr-x 2 root root 4096 Nov 23 11:24 \(esc)[0m\(esc)[01;34mdir\(esc)[0m")
        #expect(line.text == "drwxr-xr-x 2 root root 4096 Nov 23 11:24 dir")
        #expect(styled(line).map(\.0) == ["dir"])
        #expect(line.runs[0].attributes == TextAttributes(foreground: .ansi(4), bold: true))
    }

    @Test func manPageInSGRForm() {
        // `MAN_KEEP_FORMATTING=1 GROFF_SGR=1 man ls` (verified with man-db and groff).
        let line = decode("       \(esc)[1mls \(esc)[22m[\(esc)[4mOPTION\(esc)[24m]... [\(esc)[4mFILE\(esc)[24m]...")
        #expect(line.text == "       ls [OPTION]... [FILE]...")
        #expect(styled(line).map(\.0) == ["ls ", "OPTION", "FILE"])
        #expect(styled(line).map(\.1) == [TextAttributes(bold: true), TextAttributes(underline: true), TextAttributes(underline: true)])
    }

    @Test func grepColorOutput() {
        // `grep --color=always -n` (GNU grep 3.x): SGR with ESC [ K after each coloured stretch.
        let line = decode("\(esc)[32m\(esc)[K12\(esc)[m\(esc)[K\(esc)[36m\(esc)[K:\(esc)[m\(esc)[Ka \(esc)[01;31m\(esc)[Kmatch\(esc)[m\(esc)[K here")
        #expect(line.text == "12:a match here")
        #expect(styled(line).map(\.0) == ["12", ":", "match"])
        #expect(styled(line).map(\.1) == [TextAttributes(foreground: .ansi(2)), TextAttributes(foreground: .ansi(6)),
                                           TextAttributes(foreground: .ansi(1), bold: true)])
        #expect(decode("a\(esc)[0Kb").text == "ab")
    }

    @Test func eachLineStartsInTheDefaultStyle() {
        #expect(decode("\(esc)[1mopen").runs.count == 1)
        #expect(decode("no style").runs.isEmpty)
    }

    @Test func adjacentEqualRunsMerge() {
        let line = decode("\(esc)[1ma\(esc)[1mb\(esc)[0;1mc")
        #expect(line.runs == [StyledRun(range: 0..<3, attributes: TextAttributes(bold: true))])
    }

    @Test(arguments: [
        ("\(esc)[2J", "^[[2J"), ("\(esc)[10;20H", "^[[10;20H"), ("\(esc)[?25l", "^[[?25l"), ("\(esc)[2K", "^[[2K"),
        ("\(esc)[1K", "^[[1K"), ("\(esc)[;K", "^[[;K"),
        ("\(esc)[1 m", "^[[1 m"), ("\(esc)[?1m", "^[[?1m"), ("\(esc)[1;31", "^[[1;31"), ("\(esc)[", "^[["),
        ("\(esc)", "^["), ("\(esc)(B", "^[(B"), ("\(esc)7", "^[7"), ("\(esc)[3\u{7}1m", "^[[3^G1m"),
        ("\(esc)[1\(esc)[1mX", "^[[1X"),
    ])
    func otherAndMalformedSequencesAreShown(input: String, shown: String) {
        let line = decode(input)
        #expect(line.text == shown)
        #expect(line.runs.first == StyledRun(range: 0..<2, attributes: control))
        expectWellFormed(line)
    }
}

@Suite struct OSC8Tests {
    @Test func hyperlinkWithBEL() {
        // `ls --hyperlink=always` (verified with GNU ls).
        let line = decode("\(esc)[01;34m\(esc)]8;;file://host/tmp/dir\u{7}dir\(esc)]8;;\u{7}\(esc)[0m")
        #expect(line.text == "dir")
        #expect(line.links == [TextLink(range: 0..<3, url: "file://host/tmp/dir")])
        #expect(line.runs == [StyledRun(range: 0..<3, attributes: TextAttributes(foreground: .ansi(4), bold: true))])
    }

    @Test func gccDiagnostic() {
        // `gcc -fdiagnostics-color=always -fdiagnostics-urls=always -Wall` (verified with GCC 12).
        let url = "https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html#index-Wunused-variable"
        let line = decode("\(esc)[01m\(esc)[Kt.c:1:22:\(esc)[m\(esc)[K \(esc)[01;35m\(esc)[Kwarning: \(esc)[m\(esc)[Kunused variable "
            + "‘\(esc)[01m\(esc)[Kx\(esc)[m\(esc)[K’ [\(esc)[01;35m\(esc)[K\(esc)]8;;\(url)\u{7}-Wunused-variable\(esc)]8;;\u{7}\(esc)[m\(esc)[K]")
        #expect(line.text == "t.c:1:22: warning: unused variable ‘x’ [-Wunused-variable]")
        #expect(linked(line).map(\.0) == ["-Wunused-variable"])
        #expect(line.links.map(\.url) == [url])
        #expect(styled(line).map(\.0) == ["t.c:1:22:", "warning: ", "x", "-Wunused-variable"])
    }

    @Test func hyperlinkWithST() {
        let line = decode("see \(esc)]8;id=1;https://example.com/a?b=c\(esc)\\the docs\(esc)]8;;\(esc)\\ now")
        #expect(line.text == "see the docs now")
        #expect(linked(line).map(\.0) == ["the docs"])
        #expect(line.links.map(\.url) == ["https://example.com/a?b=c"])
    }

    @Test func aNewLinkClosesTheOpenOne() {
        let line = decode("\(esc)]8;;a\u{7}one\(esc)]8;;b\u{7}two")
        #expect(linked(line).map(\.0) == ["one", "two"])
        #expect(linked(line).map(\.1) == ["a", "b"])
    }

    @Test func openLinkEndsWithTheLine() {
        let line = decode("x\(esc)]8;;u\u{7}tail")
        #expect(line.links == [TextLink(range: 1..<5, url: "u")])
    }

    @Test func emptyLinksAreDropped() {
        let line = decode("\(esc)]8;;u\u{7}\(esc)]8;;\u{7}text")
        #expect(line.text == "text")
        #expect(line.links.isEmpty)
    }

    @Test func linkAroundOverstrikeAndColour() {
        let line = decode("\(esc)]8;;man:ls(1)\u{7}l\(bs)ls\(bs)s\(esc)]8;;\u{7}")
        #expect(line.text == "ls")
        #expect(line.links == [TextLink(range: 0..<2, url: "man:ls(1)")])
        #expect(line.runs == [StyledRun(range: 0..<2, attributes: TextAttributes(bold: true))])
    }

    @Test(arguments: [
        ("\(esc)]0;window title\u{7}x", "^[]0;window title^Gx"),
        ("\(esc)]2;t\(esc)\\x", "^[]2;t^[\\x"),
        ("\(esc)]8;;https://unterminated", "^[]8;;https://unterminated"),
        ("\(esc)]8;;u\(esc)x", "^[]8;;u^[x"),
        ("\(esc)]8;no-second-separator\u{7}", "^[]8;no-second-separator^G"),
        ("\(esc)]8;;a\u{1}b\u{7}", "^[]8;;a^Ab^G"),
        ("\(esc)]", "^[]"),
    ])
    func otherOrBrokenOSCIsShown(input: String, shown: String) {
        let line = decode(input)
        #expect(line.text == shown)
        #expect(line.links.isEmpty)
        expectWellFormed(line)
    }

    @Test func urlWithC1OrInvalidUTF8IsNotALink() {
        let c1 = decode(bytes: Array("\(esc)]8;;a".utf8) + [0xC2, 0x85] + [0x07] + Array("x".utf8))
        #expect(c1.links.isEmpty)
        #expect(c1.text == "^[]8;;a<U+0085>^Gx")
        let invalid = decode(bytes: Array("\(esc)]8;;a".utf8) + [0xFF, 0x07])
        #expect(invalid.text == "^[]8;;a<FF>^G")
    }
}
