import Foundation
import Testing

/// folio as everyone's pager, in a real terminal: text documents (git, logs), pipes that are
/// slow or endless, following a growing file, and a Markdown file reloaded as it is edited.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TextAndStreamEndToEndTests {
    /// A git-log-like stream: `*` and `_` must stay as written, one input line per row.
    static let gitLike = (1...60).map { i in
        "commit \(String(repeating: "a", count: 39))\(i % 10)\nAuthor: n <a@b>\n\n    fix *bold* and _under_ \(i)\n\n"
            + "diff --git a/f.txt b/f.txt\n@@ -1,2 +1,2 @@\n-old line \(i)\n+new line \(i)\n"
    }.joined()

    @Test func textFromAPipeIsShownLineByLineAndSearchFindsAHunk() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.gitLike, to: "log.txt", in: dir)
        let pane = try FolioPane.shell("cat \"$T/log.txt\" | \"$FOLIO_EXE\" --no-scrollbar", dir: dir)
        let first = try #require(pane.waitForPager(name: "stdin"))
        #expect(first[0].hasPrefix("commit aaaa"))
        #expect(first[3] == "    fix *bold* and _under_ 1", "Markdown syntax in text is left alone")
        #expect(first[7] == "-old line 1")
        try pane.type("/new line 7\r")
        let found = try #require(pane.wait { $0.contains { $0 == "+new line 7" } })
        #expect(found.contains { $0 == "-old line 7" })
    }

    @Test func chopShiftsSidewaysAndLineNumbersShow() throws {
        let dir = try E2E.temporaryDirectory()
        let long = (1...50).map { "L\($0) " + String(repeating: "abcdefghij", count: 15) + " END\($0)" }.joined(separator: "\n")
        let path = try E2E.write(long + "\n", to: "wide.log", in: dir)
        let pane = try FolioPane.folio(["-S", "-N", "--no-scrollbar", path], dir: dir)
        let first = try #require(pane.waitForPager(name: "wide.log"))
        #expect(first[0].hasPrefix("      1 L1 abcdefghij"))
        #expect(first[1].hasPrefix("      2 L2 "))
        #expect(!first.contains { $0.contains("END1") }, "chopped, not wrapped")
        try pane.keys("<Right>")
        try pane.keys("<Right>")
        try pane.keys("<Right>")
        let shifted = try #require(pane.wait { $0.first?.contains("END1") == true })
        #expect(shifted[0].hasPrefix("      1 "), "line numbers stay put")
        #expect(shifted.last?.contains("→") == true, "the status line says the view is shifted")
    }

    @Test func aSlowPipeShowsItsFirstLinesBeforeItEnds() throws {
        let pane = try FolioPane.shell("(printf 'first line\\nsecond line\\n'; sleep 30; echo late) | \"$FOLIO_EXE\" --text")
        let screen = try #require(pane.wait { $0.contains("first line") && $0.contains("second line") })
        #expect(!screen.contains("late"))
        #expect(screen.last?.contains("p1/…") == true, "totals are not known while reading")
        try pane.keys("q")
        // folio quits at once (the shell still waits for the writer's `sleep`).
        #expect(pane.wait { !$0.contains("first line") } != nil)
    }

    /// A Markdown document large enough to be parsed in pieces, opened as a file and piped:
    /// the pieces' bytes are let go as they are parsed (a file's read again, a stream's kept
    /// compressed), and when the pieces fail once all are done (cmark's reference budget over
    /// the whole source: five paragraphs of 5,000 references to 100-byte definitions) the
    /// document is parsed whole from them, as cmark gives it: the last paragraph's references
    /// are past the budget and stay text, `[d4999]`, where the pieces made them links.
    @Test(arguments: ["file", "stdin"]) func aDocumentWhosePiecesFailIsParsedWhole(mode: String) throws {
        let definitions = (0..<5000).map { "[d\($0)]: /" + String(repeating: "u", count: 95) + "\n\n" }.joined()
        let heavy = (0..<5000).map { "[d\($0)]" }.joined(separator: " ")
        let filler = String(repeating: "# Filler\n\nplain text only\n\n", count: 7500)
        let dir = try E2E.temporaryDirectory()
        try E2E.write(definitions + (0..<4).map { _ in "# H\n\n" + heavy + "\n\n" + filler }.joined()
                      + "# End\n\n" + heavy + "\n", to: "refs.md", in: dir)
        let pane = mode == "file"
            ? try FolioPane.shell("\"$FOLIO_EXE\" --no-scrollbar \"$T/refs.md\"", dir: dir)
            : try FolioPane.shell("cat \"$T/refs.md\" | \"$FOLIO_EXE\" --no-scrollbar --markdown", dir: dir)
        _ = try #require(pane.waitForPager(name: mode == "file" ? "refs.md" : "stdin"))
        try pane.keys("G")
        let end = try #require(pane.wait(text: "d4999"))
        #expect(end.contains { $0.contains("[d4998] [d4999]") }, "\(end)")
    }

    @Test func anEndlessPipeShowsAScreenAndGStopsOnCtrlC() throws {
        let pane = try FolioPane.shell("yes | \"$FOLIO_EXE\"")
        let first = try #require(pane.wait { $0.first == "y" && $0.last?.contains("reading…") == true })
        #expect(first.count == 24)
        try pane.keys("G")
        _ = try #require(pane.wait { $0.last?.contains("^C stops") == true })
        try pane.keys("<C-c>")
        let stopped = try #require(pane.wait { $0.last?.contains("^C stops") == false })
        // Reading stops for good: what is held (the status line's "reading… N MB") stays put,
        // and the view does not follow lines that were already in.
        func held(_ screen: [String]) -> String? {
            guard let status = screen.last, let start = status.range(of: "reading… ") else { return nil }
            return String(status[start.upperBound...].prefix { $0 != " " })
        }
        // (A key is taken between two slices of indexing: what was read before it still
        // comes in, slowly on a loaded machine; wait until two seconds pass with nothing new,
        // at most 15, then nothing more may come. One quiet second was not enough with every
        // core busy: the last chunk the reader had in hand came 1 MB later.)
        var settled = try #require(held(pane.screen), "\(stopped)")
        var quiet = 0
        for _ in 0..<15 where quiet < 2 {
            Thread.sleep(forTimeInterval: 1)
            let now = try #require(held(pane.screen), "\(pane.screen)")
            quiet = now == settled ? quiet + 1 : 0
            settled = now
        }
        Thread.sleep(forTimeInterval: 2)
        #expect(held(pane.screen) == settled, "read on after ^C: \(settled) then \(pane.screen.last ?? "")")
        try pane.keys("g")
        _ = try #require(pane.wait { $0.last?.contains("p1/") == true }, "the pager answers keys")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout), "q quits after reading was stopped")
    }

    /// A FIFO nobody writes to: the pager is up at once, says it waits, and `q` quits (it
    /// showed a blank screen only Ctrl-C ended). One written to later shows as it would have.
    @Test func aSilentFIFOSaysItWaitsAndQQuits() throws {
        let pane = try FolioPane.shell("mkfifo \"$T/f\" && exec \"$FOLIO_EXE\" \"$T/f\"")
        _ = try #require(pane.wait(text: "Waiting for input"))
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
        let late = try FolioPane.shell("(sleep 1; printf '# Late title\\n\\n- one\\n- two\\n\\nSome *text*.\\n') | \"$FOLIO_EXE\"")
        _ = try #require(late.wait(text: "Waiting for input"))
        let shown = try #require(late.wait { $0.contains("• one") })
        #expect(shown.first == "Late title", "sniffed as Markdown once it came: \(shown)")
        try late.keys("q")
        #expect(late.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    /// A pipe is read only a few MB ahead of the view: a search, `Ng` and `N%` read on as far
    /// as they need (line 999,999 is ~7 MB in), as less does.
    @Test func searchAndLineNReadOnThroughAPipe() throws {
        let pane = try FolioPane.shell("seq 1 1000000 | \"$FOLIO_EXE\" --no-scrollbar")
        _ = try #require(pane.wait { $0.first == "1" && $0.last?.contains("reading…") == true })
        try pane.type("/^999999$\r")
        let found = try #require(pane.wait { $0.contains("999999") })
        #expect(!found.contains { $0.contains("Pattern not found") })
        try pane.type("g700000g")
        _ = try #require(pane.wait { $0.first == "700000" })
        try pane.type("50%")
        // Half way (row counts may still be estimates from bytes for a moment: near line 500,000).
        let half = pane.wait { Int($0.first ?? "").map { (480_000...520_000).contains($0) } == true }
        #expect(half != nil, "50%: \(pane.screen.joined(separator: "|"))")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    @Test func followShowsLinesAppendedToAFile() throws {
        let dir = try E2E.temporaryDirectory()
        let path = try E2E.write((1...5).map { "entry \($0)" }.joined(separator: "\n") + "\n", to: "app.log", in: dir)
        let pane = try FolioPane.folio(["--text", path], dir: dir)
        _ = try #require(pane.waitForPager(name: "app.log"))
        try pane.keys("F")
        _ = try #require(pane.wait { $0.last?.contains("following") == true })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("entry 6 appended\n".utf8))
        try handle.close()
        _ = try #require(pane.wait { $0.contains("entry 6 appended") })
    }

    /// A log truncated while folio shows it (logrotate's copytruncate, `> app.log`): paging
    /// into what is gone must not kill folio, as reading a mapping past the file's new end
    /// did (SIGBUS); `q` then ends it normally.
    @Test func aTextFileTruncatedWhileShownDoesNotKillFolio() throws {
        let dir = try E2E.temporaryDirectory()
        let log = (1...200_000).map { "2026-11-25 line \($0) of the log" }.joined(separator: "\n") + "\n"
        let path = try E2E.write(log, to: "app.log", in: dir)
        let pane = try FolioPane.shell("\"$FOLIO_EXE\" --no-scrollbar \(path.shellQuoted); echo \"EXIT=$?\"; sleep 60", dir: dir)
        _ = try #require(pane.waitForPager(name: "app.log"))
        #expect(truncate(path, 1000) == 0)
        try pane.keys("G")
        _ = try #require(pane.wait { $0.last?.contains("app.log") == true && $0.last?.contains("END") == true })
        try pane.keys("gq")
        let ended = try #require(pane.wait(text: "EXIT="))
        #expect(ended.contains { $0.contains("EXIT=0") }, "\(ended)")
    }

    /// Issue 31: a large log open in the pager (not followed) and truncated by another
    /// process showed rows of `^@` where its last lines had been. folio notices the shorter
    /// file and shows what it holds now, as `F` does; nothing read past its end is shown.
    @Test func aTruncatedTextFileShowsWhatItHoldsNow() throws {
        let dir = try E2E.temporaryDirectory()
        let lines = (1...200_000).map { "2026-11-25 line \($0) of the log" }
        let path = try E2E.write(lines.joined(separator: "\n") + "\n", to: "app.log", in: dir)
        let pane = try FolioPane.folio(["--no-scrollbar", path], dir: dir)
        _ = try #require(pane.waitForPager(name: "app.log"))
        try pane.keys("G")
        _ = try #require(pane.wait(text: "line 200000 of the log"))
        let kept = lines.prefix(30).joined(separator: "\n").utf8.count + 1
        #expect(truncate(path, off_t(kept)) == 0)
        try pane.keys("gG")
        let shown = try #require(pane.wait { screen in
            screen.contains { $0.contains("line 30 of the log") } && screen.last?.contains("END") == true
        }, "the file as it is now, to its end")
        #expect(!shown.contains { $0.contains("^@") || $0.contains("line 31 ") }, "\(shown)")
    }

    /// 80 paragraphs reload on the run loop; 5,000 (190 KB) on a thread (`Reload`).
    @Test(arguments: [80, 5000])
    func aMarkdownFileRewrittenOnDiskReloadsInPlace(paragraphs: Int) throws {
        let dir = try E2E.temporaryDirectory()
        let body = (1...paragraphs).map { "Paragraph number \($0) of the notes." }.joined(separator: "\n\n")
        let path = try E2E.write("# Notes\n\n" + body + "\n", to: "notes.md", in: dir)
        let pane = try FolioPane.folio(["--no-scrollbar", path], dir: dir)
        let first = try #require(pane.waitForPager(name: "notes.md"))
        let paged = try #require(try pane.press("<Space>", from: first))
        let top = paged[0]
        let edited = body.replacingOccurrences(of: "number 12 of", with: "number 12 (edited) of")
        try Data(("# Notes\n\nA new first paragraph.\n\n" + edited + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let reloaded = try #require(pane.wait { $0.contains { $0.contains("(edited)") } })
        #expect(reloaded[0] == top, "the same text stays on top after the reload")
        let row = try #require(reloaded.firstIndex { $0.contains("(edited)") })
        #expect(reloaded[row].hasSuffix("▐"), "the changed paragraph is marked in the margin")
        let afterKey = try #require(try pane.press("j", from: reloaded))
        #expect(!afterKey.contains { $0.hasSuffix("▐") }, "the cue goes away on the next key")
    }

    /// A program that truncates a watched file and writes it again slower than the poll (a
    /// truncation, then a pause, then the text): the view stays on its text (it jumped to the
    /// top: the empty file was shown, and the whole file came back at the top).
    @Test func aSlowTruncateThenWriteKeepsThePlace() throws {
        let dir = try E2E.temporaryDirectory()
        let body = (1...80).map { "Paragraph number \($0) of the notes." }.joined(separator: "\n\n")
        let path = try E2E.write("# Notes\n\n" + body + "\n", to: "notes.md", in: dir)
        let pane = try FolioPane.folio(["--no-scrollbar", path], dir: dir)
        let first = try #require(pane.waitForPager(name: "notes.md"))
        let paged = try #require(try pane.press("<Space>", from: first))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        Thread.sleep(forTimeInterval: 0.8)  // several polls see the file empty
        let edited = body.replacingOccurrences(of: "number 12 of", with: "number 12 (saved) of")
        try handle.write(contentsOf: Data(("# Notes\n\n" + edited + "\n").utf8))
        try handle.close()
        let reloaded = try #require(pane.wait { $0.contains { $0.contains("(saved)") } || $0[0] != paged[0] })
        #expect(reloaded[0] == paged[0], "the same text stays on top: \(reloaded)")
    }

    /// `F` on a Markdown file that another process appends to (notes being written, a
    /// generated report): each reload shows the new end, as `F` does on text. (The reload
    /// used to put back the old top line, so the new paragraphs stayed below the screen.)
    @Test func followOnAWatchedMarkdownFileShowsWhatIsAppended() throws {
        let dir = try E2E.temporaryDirectory()
        let body = (1...40).map { "Paragraph number \($0) of the notes." }.joined(separator: "\n\n")
        let path = try E2E.write("# Notes\n\n" + body + "\n", to: "notes.md", in: dir)
        let pane = try FolioPane.folio(["--no-scrollbar", path], dir: dir)
        _ = try #require(pane.waitForPager(name: "notes.md"))
        try pane.keys("F")
        _ = try #require(pane.wait { $0.contains { $0.contains("number 40 of") } })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("\nAn appended paragraph.\n".utf8))
        try handle.close()
        let shown = pane.wait { $0.contains { $0.contains("An appended paragraph.") } }
        #expect(shown != nil, "\(pane.screen.joined(separator: "|"))")
    }

    @Test func lessEnvironmentFRXPrintsAShortInputAndExits() throws {
        let pane = try FolioPane.shell("printf 'one\\ntwo\\n' | LESS=FRX \"$FOLIO_EXE\"; echo EXIT=$?", interactive: true)
        let screen = try #require(pane.wait { $0.contains { $0.hasPrefix("EXIT=") } })
        #expect(screen.contains("one") && screen.contains("two"))
        #expect(screen.contains("EXIT=0"))
    }

    /// `-F` decides on real rows: six lines of three tabs and a word are 6 × 2 rows at width
    /// 20 (24 columns of tabs each), too many for a 10-row pane, though their 5 bytes each
    /// would estimate one row a line. So folio pages instead of printing and exiting.
    @Test func quitIfOneScreenCountsTheRowsTabsMake() throws {
        let pane = try FolioPane.shell(
            "printf '\\t\\t\\tw%d\\n' 1 2 3 4 5 6 | \"$FOLIO_EXE\" -F; echo EXIT=$?",
            columns: 20, rows: 10)
        let screen = try #require(pane.wait { $0.contains { $0.contains("w1") } })
        #expect(!screen.contains { $0.hasPrefix("EXIT=") }, "\(screen)")
        #expect(!screen.contains { $0.contains("w6") }, "only the first screen shows: \(screen)")
    }
}
