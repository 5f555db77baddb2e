import Foundation
import Testing

/// less's keys and commands in a real terminal (issue 27, the keys half): the Esc prefix's
/// timing through tmux, `:e`, `s`, `!` and `|`, and `LESSSECURE=1`.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable)) struct LessKeysEndToEndTests {
    static func lines(_ n: Int) -> String { (1...n).map { "line \($0)" }.joined(separator: "\n") + "\n" }

    /// `Esc` then `u` 0.1 s later is `Esc u` (the highlight toggle; with no search, its
    /// message); `u` 0.8 s after an Esc is `u`, half a page up.
    @Test func escThenUIsEscUOnlyWithinTheWindow() throws {
        let dir = try E2E.temporaryDirectory()
        let path = try E2E.write(Self.lines(200), to: "app.log", in: dir)
        let pane = try FolioPane.folio(["--no-restore", path], rows: 10, dir: dir)
        let first = try #require(pane.waitForPager(name: "app.log"))
        let paged = try #require(try pane.press("<Space><Space>", from: first))
        #expect(paged.first == "line 17")
        try pane.keys("<Esc>u")  // the harness pauses 0.1 s after an Esc
        #expect(pane.wait(text: "No search to highlight") != nil)
        #expect(pane.screen.first == "line 17", "the view stayed")
        try pane.keys("<Esc>")
        Thread.sleep(forTimeInterval: 0.8)
        try pane.keys("u")
        #expect(pane.wait { $0.first == "line 13" } != nil, "u: half a page (4 rows) up: \(pane.screen)")
    }

    /// `:e FILE` opens the file (after the current one in the list).
    @Test func colonEOpensAFile() throws {
        let dir = try E2E.temporaryDirectory()
        let a = try E2E.write("# First\n\nalpha text\n", to: "a.md", in: dir)
        _ = try E2E.write("# Second\n\nbeta text\n", to: "b.md", in: dir)
        let pane = try FolioPane.folio(["--no-restore", a], rows: 10, dir: dir)
        _ = try #require(pane.waitForPager(name: "a.md"))
        try pane.keys(":e")
        #expect(pane.wait(text: "Examine:") != nil)
        try pane.type(dir.appendingPathComponent("b.md").path + "\r")
        let second = try #require(pane.wait { $0.contains { $0.contains("beta text") } })
        #expect(second.last?.contains("b.md") == true)
        #expect(second.last?.contains("file 2/2") == true, "\(second.last ?? "")")
        try pane.keys(":p")
        #expect(pane.wait(text: "alpha text") != nil)
    }

    /// `s FILE` saves what was piped in; a second `s` to the same file asks, and `d` leaves it.
    @Test func sSavesPipedInput() throws {
        let dir = try E2E.temporaryDirectory()
        let out = dir.appendingPathComponent("saved.txt").path
        let pane = try FolioPane.shell("seq 1 500 | \"$FOLIO_EXE\"", rows: 10, dir: dir)
        _ = try #require(pane.waitForPager())
        try pane.type("s" + out + "\r")
        #expect(pane.wait(text: "Saved") != nil, "\(pane.screen)")
        let expected = (1...500).map(String.init).joined(separator: "\n") + "\n"
        #expect(try String(contentsOfFile: out, encoding: .utf8) == expected)
        try pane.type("s" + out + "\r")
        #expect(pane.wait(text: "exists; Overwrite, Append, or Don't save?") != nil)
        try pane.type("d")
        #expect(pane.wait(text: "Not saved") != nil)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == expected)
    }

    /// `!cmd` runs in the shell with the terminal handed over and waits for Return; `|.cmd`
    /// pipes the screen's lines to a command.
    @Test func shellAndPipe() throws {
        let dir = try E2E.temporaryDirectory()
        let path = try E2E.write(Self.lines(100), to: "app.log", in: dir)
        let piped = dir.appendingPathComponent("piped").path
        let pane = try FolioPane.folio(["--no-restore", path], rows: 10, dir: dir, environment: ["SHELL": "/bin/sh"])
        _ = try #require(pane.waitForPager(name: "app.log"))
        try pane.type("!echo hello-from-$((6*7))\r")
        let shown = try #require(pane.wait { $0.contains { $0.contains("!done  (press RETURN)") } })
        #expect(shown.contains("hello-from-42"), "\(shown)")
        try pane.type("\r")
        #expect(pane.wait { $0.last?.contains("app.log") == true && $0.first == "line 1" } != nil)
        // ^C stops the command, not folio (as less, and system(3)); nor does it end folio at
        // the question after it.
        try pane.type("!sleep 30\r")
        Thread.sleep(forTimeInterval: 0.5)
        try pane.keys("<C-c>")
        #expect(pane.wait(text: "!done  (press RETURN)") != nil, "\(pane.screen)")
        try pane.keys("<C-c>")
        Thread.sleep(forTimeInterval: 0.3)
        try pane.type("\r")
        #expect(pane.wait { $0.last?.contains("app.log") == true && $0.first == "line 1" } != nil, "folio goes on")
        try pane.keys("10j")
        _ = pane.wait { $0.first == "line 11" }
        try pane.type("|.cat > " + piped + "\r")
        #expect(pane.wait(text: "|done  (press RETURN)") != nil)
        try pane.type("\r")
        #expect(pane.wait { $0.first == "line 11" } != nil)
        #expect(try String(contentsOfFile: piped, encoding: .utf8) == (11...19).map { "line \($0)\n" }.joined())
    }

    /// `LESSSECURE=1`: `!`, `|`, `:e` and `s` are refused, as in less.
    @Test func lessSecureRefusesTheShell() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try FolioPane.shell("seq 1 50 | LESSSECURE=1 \"$FOLIO_EXE\"", rows: 10, dir: dir)
        _ = try #require(pane.waitForPager())
        try pane.keys("!")
        #expect(pane.wait(text: "Command not available") != nil)
        for keys in ["s", ":e", "|."] {
            try pane.keys("j")
            _ = pane.wait { !$0.contains { $0.contains("Command not available") } }
            try pane.keys(keys)
            #expect(pane.wait(text: "Command not available") != nil, "\(keys)")
        }
    }
}
