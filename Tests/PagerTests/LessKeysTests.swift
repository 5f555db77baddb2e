import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

/// A key typed soon after a lone Esc reaches the pager as `.alt(key)` (KeyDecoder joins
/// them); where Esc-key means nothing it is the key as typed.
@Suite struct EscapeThenKeyTests {
    @Test func inTheOutlineFilterEscThenAKeyIsTheKey() {
        var h = PagerHarness(markdown: OutlineTests.doc, columns: 40, rows: 8)
        h.send("ofo<Esc>")  // clears the filter; the outline stays
        #expect(h.state.outline != nil)
        h.send("<A-j>")
        #expect(h.status.hasSuffix("2/4"), "j moved the selection: \(h.status)")
    }

    @Test func inAPromptEscThenAKeyIsTheKey() {
        var h = PagerHarness(markdown: SearchTests.doc, columns: 24, rows: 6)
        h.send("/<Esc><A-/>ne<CR>")  // Esc closed the first prompt; / within the window opens one
        #expect(h.state.prompt == nil)
        #expect(h.searchPosition == "1/1")
    }

    /// With `-K`, Ctrl-C after Esc still quits (it is never Esc-^C).
    @Test func controlCAfterEscStillInterrupts() {
        var config = PagerHarness.plain
        config.quitOnInterrupt = true
        var h = PagerHarness(markdown: SearchTests.doc, columns: 24, rows: 6, config: config)
        h.send("<Esc><C-A-c>")
        #expect(h.effects.contains(.quit))
        #expect(h.state.quitByInterrupt == true)
    }
}

/// `M`, `Esc m`, `:f`, `V`, `^X ^X`, `J` `K` `Y`, `Esc Space`, `Esc G`, `Esc U`, as in less.
@Suite struct LessSmallKeysTests {
    static func text(_ n: Int = 60) -> String { (1...n).map { "line \($0)" }.joined(separator: "\n") + "\n" }

    @Test func bottomMarkComesBackAndEscMClears() {
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 6)
        h.send("10jMag")
        #expect(h.top == 0)
        h.send("'a")
        #expect(h.top == 10, "the same view: the marked line on the bottom row")
        #expect(h.state.active.bottomMarks == ["a"])
        h.send("mag")
        #expect(h.state.active.bottomMarks.isEmpty, "m marks the top line again")
        h.send("<A-m>a")
        #expect(h.status == "Mark a cleared")
        h.send("'a")
        #expect(h.status == "Mark a not set")
        #expect(h.top == 0)
        h.send("<A-m>")
        #expect(h.state.keys.pendingText == "clear mark: ", "the prompt while the letter is awaited")
    }

    @Test func smallAliases() {
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 6)
        h.send("=")
        let info = h.status
        h.send(":f")
        #expect(h.status == info)
        h.send("V")
        #expect(h.status.hasPrefix("folio "))
        h.send("3J2K")
        #expect(h.top == 1)
        h.send("Y")
        #expect(h.top == 0)
        h.send("20jma<C-x><C-x>a")
        h.send("g<C-x><C-x>a")
        #expect(h.top == 20, "^X ^X is '")
        h.send("g<A- >")
        #expect(h.top == 4, "Esc Space: a page")
        h.send("<A-G>")
        #expect(h.top == 55, "Esc G: the end of what has arrived")
    }

    @Test func escCapitalUForgetsThePattern() {
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 6)
        h.send("/line 3<CR>")
        #expect(h.searchPosition != nil)
        h.send("<A-U>")
        #expect(h.state.search == nil)
        h.send("n")
        #expect(h.status == "No previous search")
        h.send("/line 4<CR>n")
        #expect(h.status != "No previous search")
    }

    /// A value option folio ignores still takes its value at its prompt, as in less: the
    /// value is never read as keys (`f` would page down).
    @Test func ignoredValueOptionsTakeTheirValue() {
        var h = PagerHarness(text: Self.text(), columns: 40, rows: 6)
        h.send("-P")
        #expect(h.status == "prompt:")
        h.send("ff%f<CR>")
        #expect(h.state.message == "-P (--prompt): folio's status line is fixed")
        #expect(h.top == 0, "nothing typed at the prompt acted as a key")
        h.send("-b")
        #expect(h.status == "Max buffer space per file (K):")
        h.send("64<CR>")
        #expect(h.status.hasPrefix("-b (--buffers): "))
        h.send("-M")  // a triple folio ignores: said at once, as before
        #expect(h.state.message == "-M (--LONG-PROMPT): folio's status line is fixed")
        h.send("_P")
        #expect(h.state.message == "-P (--prompt): folio's status line is fixed")
    }
}

/// `Esc }` / `^→` scroll chopped text just far enough that the longest line on screen ends at
/// the right edge; `Esc {` / `^←` go back to the first column.
@Suite struct ShiftToLineEndTests {
    static let lines = ["short", String(repeating: "a", count: 30) + "END", "mid " + String(repeating: "b", count: 16)]
        + (1...20).map { "x\($0)" } + [String(repeating: "z", count: 80)]

    @Test(arguments: ["<A-}>", "<C-Right>"])
    func theLongestLineOnScreenEndsAtTheEdge(keys: String) {
        var config = PagerHarness.plain
        config.chopLongLines = true
        var h = PagerHarness(text: Self.lines.joined(separator: "\n") + "\n", columns: 20, rows: 6, config: config)
        h.send(keys)
        #expect(h.state.horizontalShift == 13, "33 columns, 20 on screen")
        #expect(h.content[1] == String(repeating: "a", count: 17) + "END")
        h.send(keys)
        #expect(h.state.horizontalShift == 13, "already there")
        h.send("<A-{>")
        #expect(h.state.horizontalShift == 0)
        #expect(h.content[0] == "short" + String(repeating: " ", count: 15))
        h.send("G" + keys)
        #expect(h.state.horizontalShift == 60, "the 80-column line at the bottom")
        h.send("<C-Left>")
        #expect(h.state.horizontalShift == 0)
    }

    @Test func markdownProseNeverMovesAWideTableDoes() {
        var config = PagerHarness.plain
        config.chopLongLines = true
        let table = "| a | b |\n|---|---|\n| " + String(repeating: "x", count: 30) + " | y |\n"
        var h = PagerHarness(markdown: "Some prose that wraps across several rows of the screen.\n\n" + table,
                             columns: 20, rows: 10, config: config)
        h.send("<A-}>")
        #expect(h.state.horizontalShift > 0)
        let grid = h.content.filter { $0.contains("y") }
        #expect(grid.contains { $0.hasSuffix("│") || $0.hasSuffix("|") }, "the grid's right edge on screen: \(h.content)")
        var prose = PagerHarness(markdown: "Some prose that wraps across several rows of the screen.\n",
                                 columns: 20, rows: 10, config: config)
        prose.send("<A-}>")
        #expect(prose.state.horizontalShift == 0)
    }

    @Test func withoutChoppingItSaysSo() {
        var h = PagerHarness(text: "a\n", columns: 20, rows: 6)
        h.send("<A-}>")
        #expect(h.status.hasPrefix("Lines are wrapped"))
    }
}

/// less's bracket commands: `{` on the top line finds its `}` and puts it on the bottom row,
/// `}` on the bottom line finds its `{` and puts it on the top row; `( )`, `[ ]` (text
/// documents), `Esc ^F` / `Esc ^B` with two characters; a count picks the N-th bracket.
@Suite struct BracketTests {
    /// 30 lines: `{` on line 1 closes on line 20 (a nested pair on 5–6), `(` on line 1
    /// twice, closing on 10 and 12.
    static let code: String = {
        var lines = (1...30).map { "line \($0)" }
        lines[0] = "f { ( a ( b"
        lines[4] = "  { nested"
        lines[5] = "  } nested"
        lines[9] = "  ) ten"
        lines[11] = "  ) twelve"
        lines[19] = "} twenty"
        lines[24] = "<x <y> x>"
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func openOnTheTopLineGoesToItsCloseOnTheBottomRow() {
        var h = PagerHarness(text: Self.code, columns: 30, rows: 6)
        h.send("{")
        #expect(h.content.last?.hasPrefix("} twenty") == true, "\(h.content)")
        #expect(h.top == 15)
        h.send("}")
        #expect(h.top == 0, "back: the { on the top row")
        h.send("(")
        #expect(h.content.last?.hasPrefix("  ) twelve") == true, "the first ( closes last: \(h.content)")
        h.send("g2(")
        #expect(h.content.last?.hasPrefix("  ) ten") == true, "the second ( on the line: \(h.content)")
        h.send("''")
        #expect(h.top == 0, "a jump: '' comes back")
    }

    @Test func squareBracketsAndAnyPair() {
        let text = "a [ b\nc [ ] d\ne ]\n" + (1...20).map { "x\($0)" }.joined(separator: "\n") + "\n"
        var h = PagerHarness(text: text, columns: 20, rows: 4)
        h.send("[")
        #expect(h.content.last == "e ]" + String(repeating: " ", count: 17), "nesting counted: \(h.content)")
        h.send("22j")
        let top = h.top
        h.send("<A-C-b>")
        #expect(h.state.keys.pendingText == "Brackets: ")
        h.send("[")
        #expect(h.state.keys.pendingText == "Brackets: [")
        h.send("]")
        #expect(h.state.message == "No bracket in bottom line")
        #expect(h.top == top)
        var pair = PagerHarness(text: Self.code, columns: 30, rows: 6)
        pair.send("24j<A-C-f><lt>>")
        #expect(pair.top == 20, "the match on the bottom row, as less puts it")
        #expect(pair.content.last?.hasPrefix("<x <y> x>") == true)
        #expect(pair.state.message == nil, "matched on its own line: \(pair.state.message ?? "")")
    }

    @Test func messagesAsLess() {
        var h = PagerHarness(text: Self.code, columns: 30, rows: 6)
        h.send("j{")
        #expect(h.state.message == "No bracket in top line")
        h.send("g<A-C-f>qz")
        #expect(h.state.message == "No bracket in top line")
        let unmatched = "x ( y\n" + (1...10).map { "l\($0)" }.joined(separator: "\n") + "\n"
        var u = PagerHarness(text: unmatched, columns: 30, rows: 6)
        u.send("(")
        #expect(u.state.message == "No matching bracket")
        #expect(u.top == 0)
    }

    /// In Markdown `[[` and `]]` stay the heading keys; `{` `(` work on the text as shown
    /// (a code block as written), the row as displayed.
    @Test func markdownKeepsHeadingKeysAndMatchesShownText() throws {
        let doc = "# A\n\n```\nfn main() {\n" + (1...12).map { "    step\($0)();" }.joined(separator: "\n")
            + "\n}\n```\n\n## B\n\ntext\n"
        var h = PagerHarness(markdown: doc, columns: 30, rows: 6)
        h.send("]]")
        #expect(h.content.contains { $0.hasPrefix("B ") }, "\(h.content)")
        #expect(h.state.message == nil)
        h.send("g")
        let row = try #require(h.content.firstIndex { $0.contains("fn main() {") })
        h.send("\(row)j{")
        #expect(h.content.last?.hasPrefix("  }") == true, "\(h.content)")
        #expect(h.content.first?.contains("step") == true)
    }
}

/// `N%` in a text document goes to the line holding byte N% of the input, as less; the
/// status line's percentage is of the bytes too (exact before the rows are counted). In
/// Markdown both stay rows of the rendered document.
@Suite struct PercentTests {
    /// 20 short lines, then 5 lines of 90 bytes, then 5 short ones: rows and bytes disagree.
    static let text = ((1...20).map { "s\($0)" } + (21...25).map { "L\($0) " + String(repeating: "x", count: 85) }
        + (26...30).map { "s\($0)" }).joined(separator: "\n") + "\n"

    @Test func percentOfTheBytes() {
        var h = PagerHarness(text: Self.text, columns: 100, rows: 6)
        let total = Self.text.utf8.count
        h.send("50%")
        // Byte total/2 lies in the long lines (they hold most of the bytes).
        let half = total / 2
        var offset = 0
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.utf8.count + 1 }
        let line = lines.firstIndex { offset += $0; return offset > half }! + 1
        #expect(line == 23, "rows would say line 16")
        #expect(h.top == Row(line - 1))
        // The status line: bytes up to the end of the bottom row's line.
        let end = lines.prefix(line + 4).reduce(0, +)
        #expect(h.status.hasSuffix("\(end * 100 / total)%"), "\(h.status)")
        h.send("0%")
        #expect(h.top == 0)
        h.send("100%")
        #expect(h.status.hasSuffix("(END)"))
        h.send("10%")
        #expect(h.top == 15, "byte 10% is on line 16; rows would say line 4")
    }

    @Test func markdownStaysRows() {
        var h = PagerHarness(markdown: numberedLines(40), columns: 30, rows: 6)
        h.send("50%")
        #expect(h.top == 20)
    }
}

/// `Esc F`: `F` until a line matching the search's pattern arrives; only the lines that
/// arrive after it count; the match stops on the bottom row.
@Suite struct FollowToMatchTests {
    @Test func stopsAtTheFirstMatchingLineThatArrives() {
        var s = SeekingTests.Stream(total: 100, arrived: 20)
        s.harness.send("/line 5<CR>g")  // line 5 has arrived: it does not count
        s.harness.effects = []
        s.harness.send("<A-F>")
        #expect(s.harness.state.following == true)
        #expect(s.harness.status.contains("following to a match"))
        #expect(s.effects == [.readToEnd(document: 0)])
        s.arrive(10)
        #expect(s.harness.state.following == true, "lines 21-30 do not match")
        #expect(s.harness.content.last?.hasPrefix("line 30") == true)
        s.arrive(25)
        #expect(s.harness.state.following == false)
        #expect(s.harness.state.message == "Pattern found: following stopped")
        #expect(s.harness.content.last?.hasPrefix("line 50") == true, "\(s.harness.content)")
        #expect(s.effects.last == .stopReading(document: 0))
        #expect(s.harness.state.search?.current?.unit == 49)
        s.arrive(10)
        #expect(s.harness.content.last?.hasPrefix("line 50") == true, "the view stays")
    }

    @Test func withoutAPatternItIsF() {
        var s = SeekingTests.Stream(total: 100, arrived: 20)
        s.harness.send("<A-F>")
        #expect(s.harness.state.following == true)
        #expect(s.harness.state.followUntil == nil)
        s.arrive(10)
        #expect(s.harness.content.last?.hasPrefix("line 30") == true)
        s.harness.send("j")
        #expect(s.harness.state.following == false)
    }

    @Test func aKeyStopsIt() {
        var s = SeekingTests.Stream(total: 100, arrived: 20)
        s.harness.send("/line 9<CR><A-F>k")
        #expect(s.harness.state.following == false)
        #expect(s.harness.state.followUntil == nil)
    }
}
