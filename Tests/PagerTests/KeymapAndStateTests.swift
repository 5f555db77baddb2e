import ByteInput
import KeyNotationSupport
import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

@Suite struct KeymapTests {
    /// The commands of keys in notation, each key told whether the key before it was Esc
    /// (as `PagerState` tells it).
    func interpret(_ notation: String) -> [Command] {
        var k = KeyInterpreter()
        var out: [Command] = []
        var afterEscape = false
        for key in try! KeyNotation.parse(notation) {
            if let c = k.interpret(key, afterEscape: afterEscape) { out.append(c); k.commandDone() }
            afterEscape = key == .escape
        }
        return out
    }

    @Test func multiKeySequences() {
        #expect(interpret("ma'a''") == [.setMark("a"), .gotoMark("a"), .previousPosition])
        #expect(interpret("ZZ:n:p:q:x:d:e:f") == [.quit, .nextFile, .previousFile, .quit, .firstFile, .removeFile, .examine, .info])
        #expect(interpret("]][[") == [.nextHeading, .previousHeading])
        #expect(interpret("<C-o><C-n><C-o>p") == [.selectNext, .selectPrevious])
        // Esc-commands come as Alt keys (the decoder joins Esc and a key typed soon after it);
        // a lone Esc arms nothing here: the key after it is itself.
        #expect(interpret("<A-u><A-v><Esc><A-u><Esc><A-v>") == [.toggleHighlight, .pageUp, .escape, .toggleHighlight, .escape, .pageUp])
        #expect(interpret("<Esc>u<Esc>v") == [.escape, .halfUp, .escape, .edit])
        // Esc then a key that makes no Esc-command: the key; Alt with it alone: unknown.
        #expect(interpret("<Esc><A-j><Esc><A-5>j") == [.escape, .lineDown, .escape, .lineDown])
        #expect(interpret("<A-j>") == [.unknown("Esc-j")])
        #expect(interpret("m<Esc>j") == [.escape, .lineDown])
        #expect(interpret("'^'$") == [.top, .bottom])
        #expect(interpret("Zx") == [.unknown("x")])
        #expect(interpret("m<C-c>j") == [.lineDown])
    }

    @Test func countsAreReadBeforeTheCommand() {
        var k = KeyInterpreter()
        for c in "12" { #expect(k.interpret(.char(c)) == nil) }
        #expect(k.count == 12)
        #expect(k.isPending)
        #expect(k.interpret(.char("j")) == .lineDown)
        #expect(k.count == 12)
        k.commandDone()
        #expect(k.count == nil)
        #expect(!k.isPending)
    }

    @Test func nextAndPreviousHeading() {
        let doc = "# A\n\n" + numberedLines(8) + "\n\n## B\n\n" + numberedLines(8) + "\n\n## C\n\n" + numberedLines(8)
        var h = PagerHarness(markdown: doc, columns: 20, rows: 5)
        h.send("]]")
        #expect(h.content.first == "B                   ")
        h.send("]]")
        #expect(h.content.first == "C                   ")
        h.send("]]")
        #expect(h.status == "No next heading")
        h.send("2[[")
        #expect(h.top == 0)
        h.send("2]]")
        #expect(h.content.first == "C                   ")
    }

    @Test func countedSearchFindsTheNthMatch() {
        var h = PagerHarness(markdown: SearchTests.doc, columns: 24, rows: 6)
        h.send("3/apple<CR>")
        #expect(h.searchPosition == "3/4")
        #expect(h.top == 9)  // row 14 (index 13) at the bottom
    }
}

@Suite struct ScrollIndicatorTests {
    static var config: PagerConfig { var c = PagerHarness.plain; c.scrollbar = .always; return c }

    /// By default text lines get the whole width, as in less: a line as wide as the screen
    /// takes one row (the indicator's column made it two); Markdown keeps the indicator.
    @Test func textHasNoIndicatorByDefaultMarkdownHasOne() {
        var auto = PagerHarness.plain
        auto.scrollbar = .auto
        let wide = String(repeating: "x", count: 10)
        let lines = (0..<30).map { _ in wide }.joined(separator: "\n") + "\n"
        let text = PagerHarness(text: lines, columns: 10, rows: 6, config: auto)
        #expect(text.state.active.layout.width == 10)
        #expect(text.content.allSatisfy { $0 == wide })
        let markdown = PagerHarness(markdown: numberedLines(20), columns: 10, rows: 6, config: auto)
        #expect(markdown.state.active.layout.width == 9)
        #expect(markdown.content.contains { $0.hasSuffix("│") })
        // `.always` brings it back to text.
        let always = PagerHarness(text: lines, columns: 10, rows: 6, config: Self.config)
        #expect(always.state.active.layout.width == 9)
    }

    /// Switching between a text and a Markdown document lays each out at its own width.
    @Test func eachKindKeepsItsWidthAcrossDocuments() {
        var auto = PagerHarness.plain
        auto.scrollbar = .auto
        let store = ByteStore()
        Array("a line of text\n".utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        var h = PagerHarness(markdown: numberedLines(20), columns: 20, rows: 6, config: auto)
        h.state = PagerState(documents: [DocumentSpec(name: "a.md", path: nil, document: MarkdownParser.parse(numberedLines(20))),
                                         DocumentSpec(name: "b.log", path: nil, text: content)],
                             config: auto, rows: 6, columns: 20)
        #expect(h.state.active.layout.width == 19)
        h.send(":n")
        #expect(h.state.active.isText && h.state.active.layout.width == 20)
        h.send(":p")
        #expect(h.state.active.layout.width == 19)
    }

    @Test func thumbShowsWhereTheViewIs() {
        // 20 rows, 5 visible: the layout is 9 wide, the thumb is ⌈25/20⌉ → 1 cell, on a track of 5.
        var h = PagerHarness(markdown: numberedLines(20), columns: 10, rows: 6, config: Self.config)
        #expect(h.state.active.layout.width == 9)
        h.expectScreen("""
            line 1    |
            line 2   │|
            line 3   │|
            line 4   │|
            line 5   │|
            p1/5  25% |
            """)
        #expect(h.isHighlighted(row: 0, column: 9))  // the thumb is a reverse-video cell
        h.send("7j")
        // top 7 of maxTop 15: thumb at (7·4 + 7) / 15 = 2.
        #expect(h.content.map { String($0.last!) } == ["│", "│", " ", "│", "│"])
        h.send("G")
        #expect(h.content.map { String($0.last!) } == ["│", "│", "│", "│", " "])
    }

    @Test func noIndicatorWhenEverythingFits() {
        let h = PagerHarness(markdown: numberedLines(3), columns: 10, rows: 6, config: Self.config)
        #expect(h.content.allSatisfy { !$0.contains("│") })
        // The column stays reserved, so the layout does not change width when the document grows.
        #expect(h.state.active.layout.width == 9)
    }
}

/// State that must not leak between documents, help and the reading view.
@Suite struct StateIsolationTests {
    @Test func resizeWhileHelpIsOpenReachesTheDocument() {
        var h = PagerHarness(markdown: generatedDocument(sections: 3), columns: 40, rows: 10)
        h.send("5jh")
        h.send(.resize(rows: 10, columns: 24))
        h.send("q")
        #expect(h.state.active.layout.width == 24)
        #expect(h.screen.allSatisfy { $0.count == 24 })
    }

    @Test func searchDoesNotCarryItsMatchIntoAnotherDocument() {
        let a = (1...12).map { "para \($0)" + ($0 == 12 ? " apple" : "") }.joined(separator: "\n\n")
        var h = PagerHarness(documents: [("a.md", a), ("b.md", "apple pie\n\nno fruit")], columns: 30, rows: 6)
        h.send("/apple<CR>")
        #expect(h.searchPosition == "1/1")
        h.send(":n")
        // The old match (block 11 of a.md) means nothing here: no position, no stale count.
        #expect(h.state.search?.current == nil)
        #expect(h.searchPosition == nil)
        #expect(h.status == "file 2/2  p1/1  (END)")  // too narrow for the name too
        h.send("n")
        #expect(h.searchPosition == "1/1")
        #expect(h.isHighlighted(row: 0, column: 0))
        h.send(":p")
        #expect(h.state.search?.current == nil)
        h.send("n")
        #expect(h.searchPosition == "1/1")
    }

    @Test func closingHelpGivesTheSearchCountBack() {
        let a = (1...12).map { "para \($0)" + ($0 % 4 == 0 ? " apple" : "") }.joined(separator: "\n\n")
        var h = PagerHarness(markdown: a, columns: 30, rows: 6)
        h.send("/apple<CR>n")
        #expect(h.searchPosition == "2/3")
        h.send("hq")
        #expect(h.searchPosition == "2/3")
        h.send("n")
        #expect(h.searchPosition == "3/3")
        // A highlight toggle made in the help is kept.
        h.send("h<A-u>q")
        #expect(h.state.search?.highlight == false)
        #expect(h.searchPosition == "3/3")
        // A search made inside the help replaces the document's: nothing stale comes back.
        h.send("h/key<CR>q")
        #expect(h.state.search?.current == nil)
        #expect(h.searchPosition == nil)
    }

    @Test func aSelectionInHelpDoesNotSurviveClosingIt() {
        var h = PagerHarness(markdown: "[link](https://e.org)\n\n" + numberedLines(5), columns: 30, rows: 6)
        h.send("h<Tab><Tab>q")
        #expect(!h.state.active.isHelp)
        #expect(h.state.selection == nil)
        let before = h.effects.count
        h.send("<CR>")  // a line down, not a help link followed
        #expect(h.effects.count == before)
    }
}

/// At narrow widths the status line keeps the section over the directories of the path
/// (issue 27: at 60 columns it kept the path and lost the section).
@Suite struct StatusLineFitTests {
    @Test func directoriesGoBeforeTheSection() {
        let left = "docs/handbook/chapters/installing.md · Installing from source"
        #expect(PagerState.fitStatusLeft(left, to: 80) == left)
        #expect(PagerState.fitStatusLeft(left, to: 42) == "…/installing.md · Installing from source")
        #expect(PagerState.fitStatusLeft(left, to: 39) == "installing.md · Installing from source")
        #expect(PagerState.fitStatusLeft(left, to: 20) == "installing.md · Ins…")
        // No path or no section: cut at the end, as before.
        #expect(PagerState.fitStatusLeft("installing.md · Installing", to: 12) == "installing.…")
        #expect(PagerState.fitStatusLeft("docs/a/b/installing.md", to: 12) == "docs/a/b/in…")
    }

    @Test func theScreenShowsTheSection() {
        let markdown = "# Installing from source\n\n" + (1...40).map { "Line \($0)." }.joined(separator: "\n\n")
        let h = PagerHarness(markdown: markdown, columns: 44, rows: 5, name: "docs/handbook/chapters/installing.md")
        #expect(h.status.contains("installing.md · Installing"), "\(h.status)")
    }

    @Test func ampersandAloneSaysLinesInText() {
        var h = PagerHarness(text: "one\ntwo\n", columns: 40, rows: 4)
        h.send("&<CR>")
        #expect(h.status.contains("Showing all lines"), "\(h.status)")
    }
}
