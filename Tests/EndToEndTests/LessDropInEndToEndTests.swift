import Foundation
import Testing

/// folio as less's stand-in: `PAGER`, `GIT_PAGER`, `MANPAGER`, with the `LESS` values git
/// and systemd set (issue 27). What a less user sees after `q` is asserted on the pane: the
/// rows the pager showed, and where the next command's output lands.
@Suite struct LessDropInEndToEndTests {
    static let git = ["/usr/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A git repository with 30 commits (enough for more than a screen of `git log`).
    static func repository() throws -> URL {
        let dir = try E2E.temporaryDirectory()
        let script = """
            set -e; cd "$1"; git init -q .; git config user.email t@example.org; git config user.name T
            for i in $(seq 1 30); do echo "$i" > f; git add f; git commit -q -m "Commit number $i"; done
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh", dir.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return dir
    }

    /// After `q` in `-X` mode the last page stays, the status line is gone, and what comes
    /// next is written below the page: the cursor is on the bottom row and no row the pager
    /// showed is overwritten (`CSI r` put the cursor on the top row, so the next prompt
    /// wrote over the log). The output before folio stays in the terminal's history.
    @Test(arguments: ["file", "git"])
    func quittingXModeLeavesThePageAndTheCursorBelowIt(source: String) throws {
        let dir = try E2E.temporaryDirectory()
        let command: String
        if source == "git" {
            guard Self.git != nil else { return }
            let repo = try Self.repository()
            command = "cd '\(repo.path)' && GIT_PAGER=\"$FOLIO_EXE\" git log"
        } else {
            let lines = (1...100).map { "log line \($0)" }.joined(separator: "\n") + "\n"
            let path = try E2E.write(lines, to: "app.log", in: dir)
            command = "LESS=FRX \"$FOLIO_EXE\" '\(path)'"
        }
        let pane = try FolioPane.shell("seq 1 40; \(command); echo AFTER-FOLIO; sleep 30", rows: 12, dir: dir)
        let page = try #require(pane.waitForPager())
        #expect(!page.contains { $0 == "40" }, "the page is drawn over the output before it only by scrolling it up")
        try pane.keys("q")
        let after = try #require(pane.wait(text: "AFTER-FOLIO"))
        let row = try #require(after.firstIndex { $0.hasPrefix("AFTER-FOLIO") })
        // The page's rows are still there, above the next output, in the same order.
        let shown = page.dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
        let kept = after[..<row].map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(kept.suffix(shown.count - 1)) == Array(shown.suffix(shown.count - 1)), "\(page)\n\(after)")
        #expect(row >= after.count - 2, "the next output comes below the page: \(after)")
        #expect(!after.contains { $0.contains("(END)") || $0.contains("p1/") }, "no status line left: \(after)")
        let history = pane.tmux.capture(includingHistory: true)
        #expect(history.contains("40"), "the output before folio is kept in the history")
    }

    /// Command output opens at the top every time (it reopened where the last run was left:
    /// `git log`, `10 Space`, `q`, again: 10 lines down); the old place is said, and `''`
    /// goes there. A file still resumes.
    /// The first word of the top row (a text document's rows end in the scroll bar).
    static func top(_ screen: [String]) -> String? { screen.first?.split(separator: " ").first.map(String.init) }

    @Test func pipedTextStartsAtTheTopWithTheOldPlaceOneKeyAway() throws {
        let dir = try E2E.temporaryDirectory()
        let first = try FolioPane.shell("seq 1 300 | \"$FOLIO_EXE\"", rows: 10, dir: dir)
        _ = try #require(first.wait { Self.top($0) == "1" && $0.last?.contains("p1/") == true })
        try first.keys("20<Space>")
        _ = try #require(first.wait { Self.top($0) == "21" })
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let again = try FolioPane.shell("seq 1 300 | \"$FOLIO_EXE\"", rows: 10, dir: dir)
        let opened = try #require(again.wait { Self.top($0) == "1" && $0.last?.contains("''") == true })
        #expect(opened.last?.contains("read before") == true, "\(opened)")
        try again.keys("''")
        _ = try #require(again.wait { Self.top($0) == "21" }, "'' goes to the old place")
        try again.keys("q")

        // A file: resumes.
        let path = try E2E.write((1...301).map(String.init).joined(separator: "\n") + "\n", to: "nums.txt", in: dir)
        let file = try FolioPane.folio([path], rows: 10, dir: dir)
        _ = try #require(file.wait { Self.top($0) == "1" })
        try file.keys("20<Space>q")
        #expect(file.tmux.waitForExit(timeout: FolioPane.timeout))
        let reopened = try FolioPane.folio([path], rows: 10, dir: dir)
        let resumed = try #require(reopened.wait { Self.top($0) == "21" })
        #expect(resumed.last?.contains("resumed") == true, "\(resumed)")
        try reopened.keys("q")
    }

    /// A text file is what is on disk: `G` shows lines appended since it was opened, a
    /// rewrite (longer or shorter) is read again, and `R` re-reads a Markdown file that is
    /// not watched (issue 27: `G` still ended at 50 after `echo 51 >> g.log`).
    @Test func filesAreWhatIsOnDisk() throws {
        let dir = try E2E.temporaryDirectory()
        let log = try E2E.write((1...50).map(String.init).joined(separator: "\n") + "\n", to: "g.log", in: dir)
        let pane = try FolioPane.folio([log], rows: 10, dir: dir)
        _ = try #require(pane.wait { Self.top($0) == "1" })
        try pane.keys("G")
        _ = try #require(pane.wait { $0.dropLast().last?.hasPrefix("50") == true })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("51\n".utf8))
        try handle.close()
        try pane.keys("G")
        _ = try #require(pane.wait { $0.dropLast().last?.hasPrefix("51") == true }, "G shows the appended line")
        // Written anew, longer: not an append.
        try ((100...200).map(String.init).joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
        try pane.keys("g")
        _ = try #require(pane.wait { Self.top($0) == "100" }, "the rewritten file: \(pane.screen)")
        // Markdown without watching: R reads it again.
        let md = try E2E.write("# Notes\n\nFirst version.\n", to: "notes.md", in: dir)
        let doc = try FolioPane.folio(["--no-watch", md], rows: 10, dir: dir)
        _ = try #require(doc.wait(text: "First version."))
        try "# Notes\n\nSecond version.\n".write(toFile: md, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(doc.screen.contains { $0.contains("First version.") }, "not watched")
        try doc.keys("R")
        _ = try #require(doc.wait(text: "Second version."), "R reads it again")
    }
}
