import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

/// less's file list (`:x` `:d` `:e`) and its commands outside the pager (`s`, `!`, `|`), as
/// effects for the run loop; `LESSSECURE=1` refuses them.
@Suite struct FileListTests {
    static func pager() -> PagerHarness {
        PagerHarness(texts: [("a.txt", "a\n"), ("b.txt", "b\n"), ("c.txt", "c\n")], columns: 40, rows: 5)
    }

    @Test func colonXGoesToTheFirstOrTheNthFile() {
        var h = Self.pager()
        h.send(":n:n")
        #expect(h.state.current == 2)
        h.send(":x")
        #expect(h.state.current == 0)
        h.send("2:x")
        #expect(h.state.current == 1)
        h.send("5:x")
        #expect(h.state.message == "No such file")
        #expect(h.state.current == 1)
    }

    @Test func colonDTakesTheCurrentFileOut() {
        var h = Self.pager()
        h.send(":n:d")
        #expect(h.state.current == 2, "the next file is shown")
        #expect(h.state.fileList == [0, 2])
        #expect(h.status.contains("file 2/2"))
        h.send(":p")
        #expect(h.state.current == 0)
        h.send(":n:d")
        #expect(h.state.current == 0, "the last file out: the previous one")
        #expect(h.state.fileList == [0])
        h.send(":d")
        #expect(h.state.message == "The only file stays in the list")
        h.send("r")
        #expect(!h.status.contains("file "), "one file: no place in a list shown")
    }

    /// `:e` asks the run loop for the file; the file that answers goes after the current one
    /// in the list, as less puts it.
    @Test func colonEOpensAfterTheCurrentFile() {
        var h = Self.pager()
        h.send(":e")
        #expect(h.status == "Examine:")
        h.send("notes.md<CR>")
        #expect(h.effects.last == .examine(path: "notes.md"))
        h.send(.linkedFileLoaded(spec: DocumentSpec(name: "notes.md", path: "/docs/notes.md",
                                                    document: MarkdownParser.parse("# Notes\n")), fragment: nil))
        #expect(h.state.current == 3)
        #expect(h.state.fileList == [0, 3, 1, 2])
        #expect(h.status.contains("file 2/4"))
        h.send(":n")
        #expect(h.state.current == 1)
        // A followed link's file still goes at the end.
        h.send(.linkedFileLoaded(spec: DocumentSpec(name: "x.md", path: "/docs/x.md", document: MarkdownParser.parse("x\n")),
                                 fragment: nil))
        #expect(h.state.fileList == [0, 3, 1, 2, 4])
    }

    @Test func colonEExpandsPercentAndHash() {
        var h = Self.pager()
        h.send(":n:e%.bak<CR>")
        #expect(h.effects.last == .examine(path: "/docs/b.txt.bak"))
        h.send("E#<CR>")
        #expect(h.effects.last == .examine(path: "/docs/a.txt"))
        h.send(":e 100%%<CR>")
        #expect(h.effects.last == .examine(path: "100%"))
        h.send(":e \"with space.md\"<CR>")
        #expect(h.effects.last == .examine(path: "with space.md"))
        h.effects = []
        h.send(":e<CR>")
        #expect(h.effects == [.redrawAll, .reread(document: 1)], "nothing typed: the current file again")
    }

    /// Tab asks for the names that complete what is typed; one is taken, several are cut to
    /// what they share or offered one by one.
    @Test func tabCompletesFileNames() {
        var h = Self.pager()
        h.send(":edo<Tab>")
        #expect(h.effects.last == .completePath(prefix: "do"))
        h.send(.pathCompletions(prefix: "do", names: ["docs/", "done.txt"]))
        #expect(h.status == "Examine: docs/")
        h.effects = []
        h.send("<Tab>")
        #expect(h.status == "Examine: done.txt", "the next, without asking again")
        #expect(h.effects.isEmpty)
        h.send("<Tab>")
        #expect(h.status == "Examine: docs/")
        h.send("<BS><BS><BS><BS><BS>READ")
        h.send(.pathCompletions(prefix: "READ", names: ["README.md", "README.txt"]))
        #expect(h.status == "Examine: README.")
        h.send(.pathCompletions(prefix: "README.", names: ["README.md"]))
        #expect(h.status == "Examine: README.md")
        h.send(.pathCompletions(prefix: "stale", names: ["stale-answer"]))
        #expect(h.status == "Examine: README.md", "an answer for other text is dropped")
    }

    @Test func secureModeRefusesWhatLessRefuses() {
        var config = PagerHarness.plain
        config.secure = true
        var h = PagerHarness(text: "a\nb\n", columns: 40, rows: 5, config: config)
        for keys in ["!", "|.", ":e", "s", "v", "E"] {
            h.effects = []
            h.send(keys)
            #expect(h.state.message == "Command not available", "\(keys)")
            #expect(h.state.prompt == nil, "\(keys)")
            #expect(h.effects.isEmpty, "\(keys)")
        }
    }
}

@Suite struct SaveInputTests {
    @Test func onlyForAPipe() {
        var file = PagerHarness(texts: [("a.txt", "a\n")], columns: 40, rows: 5)
        file.send("s")
        #expect(file.state.message == "Input is not a pipe")
        var pipe = PagerHarness(text: "a\nb\n", columns: 40, rows: 5)
        pipe.send("s")
        #expect(pipe.status == "log file:")
        pipe.send("out.txt<CR>")
        #expect(pipe.effects.last == .saveInput(document: 0, path: "out.txt", mode: .create, complete: true))
    }

    /// A file that exists is never written over without an answer: `o` overwrites, `a`
    /// appends, `d` saves nothing, anything else asks again.
    @Test func anExistingFileIsAskedAbout() {
        var h = PagerHarness(text: "a\nb\n", columns: 80, rows: 5)
        h.send(.saveTargetExists(document: 0, path: "logs/out.txt", complete: true))
        #expect(h.status == "\"out.txt\" exists; Overwrite, Append, or Don't save?")
        h.send("d")
        h.send(.saveTargetExists(document: 0, path: "out.txt", complete: true))
        h.effects = []
        h.send("xj")
        #expect(h.effects.isEmpty, "other keys ask again")
        #expect(h.state.prompt != nil)
        h.send("a")
        #expect(h.effects == [.saveInput(document: 0, path: "out.txt", mode: .append, complete: true)])
        h.send(.saveTargetExists(document: 0, path: "out.txt", complete: true))
        h.send("O")
        #expect(h.effects.last == .saveInput(document: 0, path: "out.txt", mode: .overwrite, complete: true))
        h.effects = []
        h.send(.saveTargetExists(document: 0, path: "out.txt", complete: true))
        h.send("d")
        #expect(h.effects.isEmpty)
        #expect(h.state.message == "Not saved")
    }

    /// On input still arriving `s` reads it to its end first, as less's log file gets the
    /// whole input; a key stops that, and what has arrived is saved, and said so.
    @Test func aGrowingInputIsSavedWhole() {
        var s = SeekingTests.Stream(total: 100, arrived: 10)
        s.harness.send("sall.txt<CR>")
        #expect(s.effects.last == .readToEnd(document: 0))
        #expect(s.harness.state.seeking == .save(path: "all.txt"))
        s.arrive(50)
        #expect(!s.effects.contains { if case .saveInput = $0 { true } else { false } })
        s.end()
        #expect(s.effects.last == .saveInput(document: 0, path: "all.txt", mode: .create, complete: true))

        var cut = SeekingTests.Stream(total: 100, arrived: 10)
        cut.harness.send("spart.txt<CR>")
        cut.harness.send("<C-c>")
        #expect(cut.effects.suffix(2) == [.stopReading(document: 0),
                                          .saveInput(document: 0, path: "part.txt", mode: .create, complete: false)])
    }
}

@Suite struct ShellAndPipeTests {
    @Test func shellExpandsNamesAndRepeats() {
        var h = PagerHarness(texts: [("a b.txt", "a\n"), ("c.txt", "c\n")], columns: 60, rows: 5)
        h.send("!")
        #expect(h.status == "!")
        h.send("wc -l %<CR>")
        #expect(h.effects.last == .shell(command: "wc -l '/docs/a b.txt'"))
        h.send(":n!diff % #<CR>")
        #expect(h.effects.last == .shell(command: "diff /docs/c.txt '/docs/a b.txt'"))
        h.send("!!<CR>")
        #expect(h.effects.last == .shell(command: "diff /docs/c.txt '/docs/a b.txt'"), "!! repeats")
        h.send("!<CR>")
        #expect(h.effects.last == .shell(command: ""), "an interactive shell")
        h.send("!echo 50%%<CR>")
        #expect(h.effects.last == .shell(command: "echo 50%"))
    }

    static let text = (1...30).map { "line \($0)" }.joined(separator: "\n") + "\n"
    /// Byte offset where line `n` (1-based) starts.
    static func offset(_ n: Int) -> Int { (1..<n).reduce(0) { $0 + "line \($1)\n".utf8.count } }

    /// `|` and a mark: from the marked line to the bottom of the screen (the mark above), from
    /// the top of the screen to it (below); `.` or Enter the screen, `^` the start, `$` the end.
    @Test func pipeSendsTheLinesBetweenTheMarkAndTheScreen() {
        var h = PagerHarness(text: Self.text, columns: 40, rows: 6)  // 5 rows on screen
        h.send("2jma10j")  // mark a on line 3; lines 13-17 on screen
        h.send("|")
        #expect(h.status.hasPrefix("|mark:"))
        h.send("acat<CR>")
        #expect(h.effects.last == .pipe(command: "cat", document: 0, lines: .bytes(Self.offset(3)..<Self.offset(18))))
        h.send("|.wc<CR>")
        #expect(h.effects.last == .pipe(command: "wc", document: 0, lines: .bytes(Self.offset(13)..<Self.offset(18))))
        h.send("|<CR>wc<CR>")
        #expect(h.effects.last == .pipe(command: "wc", document: 0, lines: .bytes(Self.offset(13)..<Self.offset(18))))
        h.send("|^x<CR>")
        #expect(h.effects.last == .pipe(command: "x", document: 0, lines: .bytes(0..<Self.offset(18))))
        h.send("|$x<CR>")
        #expect(h.effects.last == .pipe(command: "x", document: 0, lines: .bytes(Self.offset(13)..<Self.text.utf8.count)))
        h.send("5jmbg|bx<CR>")
        #expect(h.effects.last == .pipe(command: "x", document: 0, lines: .bytes(0..<Self.offset(19))), "b below: top to b")
        h.send("|z")
        #expect(h.state.message == "Mark z not set")
        #expect(h.state.prompt == nil)
    }

    /// `M` marks the bottom line: `|` pipes from there.
    @Test func aBottomMarkPipesFromTheBottomLine() {
        var h = PagerHarness(text: Self.text, columns: 40, rows: 6)
        h.send("Ma20j|ax<CR>")
        #expect(h.effects.last == .pipe(command: "x", document: 0, lines: .bytes(Self.offset(5)..<Self.offset(26))))
    }

    @Test func markdownPipesSourceLines() {
        var h = PagerHarness(markdown: "# Title\n\nOne paragraph.\n\nTwo paragraph.\n", columns: 40, rows: 10)
        h.send("|.x<CR>")
        #expect(h.effects.last == .pipe(command: "x", document: 0, lines: .sourceLines(1...5)))
    }
}
