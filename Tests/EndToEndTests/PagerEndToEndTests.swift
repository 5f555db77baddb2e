import Foundation
import Testing

/// The pager in a real terminal (a private tmux pane, 80×24 unless said): paging, the tty
/// state on every way out, signals, resize, `-X` and `-F`.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PagerEndToEndTests {
    static let long = "SampleDocs/long.md"

    @Test func opensAtTheFirstPageWithAStatusLine() throws {
        let pane = try FolioPane.folio([Self.long])
        let screen = try #require(pane.waitForPager(name: "long.md"))
        #expect(screen.count == 24)
        #expect(screen[0].hasPrefix("The tidepool field handbook"))
        #expect(screen.contains { $0.hasPrefix("The tidepool field handbook") })
        // A level-1 heading is followed by its `═` rule.
        let heading = try #require(screen.firstIndex { $0.hasPrefix("The tidepool field handbook") })
        #expect(screen[heading + 1].hasPrefix("═══"))
        #expect(screen[23].contains("SampleDocs/long.md"))
    }

    @Test func spacePagesWithAOneLineOverlapAndBGoesBack() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.long])
        let first = try #require(pane.waitForPager(name: "long.md"))
        let second = try #require(try pane.press("<Space>", from: first))
        #expect(second[0] == first[22], "the last content row becomes the first")
        let third = try #require(try pane.press("<Space>", from: second))
        #expect(third[0] == second[22])
        let back = try #require(try pane.press("b", from: third))
        #expect(back == second, "b returns to the exact previous screen")
        let backAgain = try #require(try pane.press("b", from: back))
        #expect(backAgain == first)
    }

    @Test func readsAPipeAndTakesKeysFromTheTerminal() throws {
        let pane = try FolioPane.shell("cat SampleDocs/long.md | \"$FOLIO_EXE\" --no-scrollbar")
        let first = try #require(pane.waitForPager(name: "stdin"))
        #expect(first[0].hasPrefix("The tidepool field handbook"))
        let second = try #require(try pane.press("<Space>", from: first))
        #expect(second[0] == first[22])
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    /// Runs folio from a shell script that records `stty -a` before and after.
    private func runRecordingTTY(_ folioArguments: String, dir: URL) throws -> FolioPane {
        try FolioPane.shell("""
            stty -a > "$T/before"; echo EARLIER-OUTPUT; "$FOLIO_EXE" \(folioArguments); \
            stty -a > "$T/after"; echo "FOLIO-EXITED"; sleep 60
            """, dir: dir)
    }

    private func ttyUnchanged(_ dir: URL) throws -> Bool {
        let before = try String(contentsOf: dir.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: dir.appendingPathComponent("after"), encoding: .utf8)
        return before == after && before.contains(" icanon") && before.contains(" echo")
    }

    @Test func quitRestoresTheTerminalAndLeavesTheAlternateScreen() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try runRecordingTTY("SampleDocs/long.md", dir: dir)
        _ = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("q")
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
        #expect(screen.contains("EARLIER-OUTPUT"), "the shell's earlier output is visible again")
        #expect(!screen.contains { $0.contains("The tidepool field handbook") })
    }

    /// less's `-K`: Ctrl-C quits, and the terminal is as it was.
    @Test func controlCQuitsWithK() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try runRecordingTTY("-K SampleDocs/long.md", dir: dir)
        _ = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("<C-c>")
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
        #expect(screen.contains("EARLIER-OUTPUT"))
    }

    /// Without `-K`, as in less, Ctrl-C with nothing to interrupt leaves folio reading.
    @Test func controlCAloneDoesNotQuit() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.long])
        let first = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("<C-c>")
        let second = try #require(try pane.press("<Space>", from: first))
        #expect(second[0] == first[22], "still paging after Ctrl-C")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try runRecordingTTY("SampleDocs/long.md", dir: dir)
        _ = try #require(pane.waitForPager(name: "long.md"))
        let pid = try #require(pane.folioPID())
        #expect(kill(pid, SIGTERM) == 0)
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
        #expect(screen.contains("EARLIER-OUTPUT"))
    }

    @Test func controlZSuspendsAndFgRedraws() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try FolioPane.shell(
            "stty -a > \"$T/before\"; \"$FOLIO_EXE\" --no-scrollbar SampleDocs/long.md", interactive: true, dir: dir)
        let first = try #require(pane.waitForPager(name: "long.md"))
        let paged = try #require(try pane.press("<Space>", from: first))
        try pane.keys("<C-z>")
        _ = try #require(pane.wait { $0.last { !$0.isEmpty }?.hasPrefix("PROMPT$") == true },
                         "the shell prompt appears")
        try pane.type("stty -a > \"$T/during\"; echo STTY-DONE\r")
        _ = try #require(pane.wait { $0.contains("STTY-DONE") })
        let before = try String(contentsOf: dir.appendingPathComponent("before"), encoding: .utf8)
        let during = try String(contentsOf: dir.appendingPathComponent("during"), encoding: .utf8)
        #expect(during == before, "suspended folio leaves the terminal cooked")
        try pane.type("fg\r")
        let resumed = try #require(pane.wait { $0 == paged },
                                   "fg redraws the same screen; the screen is:\n\(pane.screen.joined(separator: "\n"))")
        #expect(resumed[0] == first[22])
        try pane.keys("q")
        _ = pane.wait { $0.last { !$0.isEmpty }?.hasPrefix("PROMPT$") == true }
    }

    @Test func resizeKeepsTheSameTextOnTop() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.long])
        var screen = try #require(pane.waitForPager(name: "long.md"))
        for _ in 0..<3 { screen = try #require(try pane.press("<Space>", from: screen)) }
        // Line down until the top row starts with a word (not a blank row or a rule).
        for _ in 0..<10 where !(screen[0].split(separator: " ").first.map { $0.count >= 3 && $0.allSatisfy(\.isLetter) } ?? false) {
            screen = try #require(try pane.press("j", from: screen))
        }
        let top = screen[0]
        let word = try #require(top.split(separator: " ").first { $0.count >= 3 })
        try pane.tmux.resize(columns: 50, rows: 24)
        let narrow = try #require(pane.wait { $0.allSatisfy { E2E.columns($0) <= 50 } && $0 != screen })
        #expect(narrow[0].contains(word), "top row \(top.debugDescription) → \(narrow[0].debugDescription)")
        // A heading on top keeps exactly its first words.
        let atHeading = try #require(try pane.press("]]", from: narrow))
        let headingWords = E2E.firstWords(atHeading[0])
        try pane.tmux.resize(columns: 80, rows: 24)
        let wide = try #require(pane.wait { $0 != atHeading })
        #expect(E2E.firstWords(wide[0]) == headingWords)
    }

    @Test func noInitLeavesTheLastScreen() throws {
        let pane = try FolioPane.shell("echo EARLIER-OUTPUT; \"$FOLIO_EXE\" -X SampleDocs/long.md; echo FOLIO-EXITED; sleep 60")
        let page = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("q")
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        // The page stays (its top row scrolled up by the line written below it, as after less -X).
        #expect(screen.contains(page[3]) && screen.contains(page[page.count - 2]), "\(page)\n\(screen)")
    }

    @Test func quitIfOneScreenPrintsAShortDocument() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write("# Short\n\nA short document.\n", to: "short.md", in: dir)
        let pane = try FolioPane.shell("\"$FOLIO_EXE\" -F \"$T/short.md\"; echo \"FOLIO-EXITED $?\"; sleep 60", dir: dir)
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(screen.contains("FOLIO-EXITED 0"))
        #expect(screen.contains("Short"))
        #expect(screen.contains("A short document."))
    }
}
