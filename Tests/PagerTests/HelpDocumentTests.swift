import Testing
@testable import Pager

/// The help (`h`) is a document of the session opened as a followed link is: the place it
/// was opened from is on the back stack, and the keys that leave it come back there.
@Suite struct HelpDocumentTests {
    /// Forty lines, a heading link at the top: `[to the end](#end)`.
    static let long = "[to the end](#end)\n\n" + numberedLines(40) + "\n\n# end\n\nlast\n"

    func pager(rows: Int = 8) -> PagerHarness {
        PagerHarness(markdown: Self.long, columns: 40, rows: rows)
    }

    @Test func backspaceFromTheHelpComesBackToTheSamePlace() {
        var h = pager()
        h.send("12j")
        let before = h.screen
        let position = h.state.active.viewport.position
        h.send("h")
        #expect(h.state.active.isHelp)
        #expect(h.status.hasPrefix("help"))
        #expect(h.state.backStack.count == 1)
        h.send("<Space><Space>j")
        h.send("<BS>")
        #expect(!h.state.active.isHelp)
        #expect(h.state.active.viewport.position == position)
        #expect(h.screen == before)
        #expect(h.state.backStack.isEmpty)
        #expect(h.state.fileList == [0], "the help is not a file of the list")
    }

    @Test func theHelpOpensAtItsTopEachTime() {
        var h = pager()
        h.send("h")
        let top = h.screen
        h.send("<Space><Space>qh")
        #expect(h.screen == top)
        #expect(h.state.documents.count == 2, "the help's document is made once and used again")
    }

    @Test func searchInTheHelpFindsItsTextAndNotTheDocuments() {
        var h = pager()
        h.send("h/going back<CR>")
        #expect(h.state.active.isHelp)
        #expect(h.content.contains { $0.contains("going back") })
        #expect(h.searchPosition?.hasPrefix("1/") == true)
        h.send("/line 3<CR>")
        #expect(h.status.contains("Pattern not found"))
        h.send("q/line 3<CR>")
        #expect(!h.state.active.isHelp)
        #expect(h.searchPosition == "1/11", "line 3, line 30 … line 39")
    }

    /// less: `q` in its help goes back to the file, not out of less; from folio's help too,
    /// however deep the reader went in it (its own jumps are dropped from the back stack).
    @Test func qInTheHelpReturnsToTheFileFromAnyDepth() {
        var h = pager()
        h.send("7j")
        let before = h.screen
        h.send("h<Tab><Tab><CR>")  // a heading of the help followed
        #expect(h.state.active.isHelp)
        #expect(h.state.backStack.count == 2)
        h.send("G")
        h.send("q")
        #expect(!h.effects.contains(.quit))
        #expect(h.screen == before)
        #expect(h.state.backStack.isEmpty)
        h.send("q")
        #expect(h.effects.last == .quit)
    }

    /// A link followed in the document, then the help, then a heading followed in the help:
    /// Backspace goes back through them one by one.
    @Test func theBackStackThroughTheHelpAndItsLinks() {
        var h = pager()
        h.send("<Tab><CR>")  // [to the end](#end)
        #expect(h.content.contains { $0.hasPrefix("end") })
        let atEnd = h.screen
        h.send("h<Tab><Tab>")
        let inHelp = h.screen
        h.send("<CR>")
        #expect(h.state.active.isHelp)
        #expect(h.screen != inHelp)
        #expect(h.state.backStack.count == 3)
        h.send("<BS>")
        #expect(h.state.active.isHelp)
        #expect(h.screen == inHelp)
        h.send("<BS>")
        #expect(h.screen == atEnd)
        h.send("<BS>")
        #expect(h.content.first?.hasPrefix("to the end") == true)
        #expect(h.state.backStack.isEmpty)
        h.send("<BS>")
        #expect(h.status == "Nothing to go back to")
    }

    /// The commands on the file list start from the file the help was opened over, and the
    /// help counts as none of the files (`file 1/2`, `:n`, `#`).
    @Test func theFileListIsTheFilesWithoutTheHelp() {
        var h = PagerHarness(documents: [("one.md", numberedLines(20, prefix: "one ")),
                                         ("two.md", numberedLines(20, prefix: "two "))],
                             columns: 30, rows: 6)
        h.send("h")
        #expect(!h.status.contains("file"))
        h.send(":n")
        #expect(h.content.first == "two 1                         ")
        #expect(h.status.hasPrefix("two.md     file 2/2"))
        #expect(h.state.backStack.isEmpty)
        #expect(h.state.previousDocument == 0)
        h.send("h:p")
        #expect(h.content.first == "one 1                         ")
        #expect(h.state.previousDocument == 1)
    }

    /// `-E` quits when a move reaches the end of a file; the help's end is not one.
    @Test func reachingTheHelpsEndDoesNotQuit() {
        var config = PagerHarness.plain
        config.quitAtEOF = .atEnd
        var h = PagerHarness(markdown: Self.long, columns: 40, rows: 8, config: config)
        h.send("h")
        for _ in 0..<80 { h.send("<Space>") }
        #expect(h.state.active.isHelp)
        #expect(!h.effects.contains(.quit))
    }

    /// Nothing to edit, save, pipe or follow: the help has no input.
    @Test func theHelpHasNoInput() {
        var h = pager()
        h.send("hv")
        #expect(h.status == "Cannot edit the help")
        let before = h.effects.count
        h.send("F")
        h.send("s")
        #expect(h.state.prompt == nil)
        #expect(!h.state.following)
        #expect(h.effects.count == before)
    }
}
