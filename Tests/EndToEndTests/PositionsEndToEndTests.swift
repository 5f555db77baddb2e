import Foundation
import Testing

/// Reading positions across runs. Every test has its own folder: a copy of long.md and its
/// own `FOLIO_STATE_DIR`, shared by the runs within the test only.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PositionsEndToEndTests {
    let dir: URL
    let doc: String

    init() throws {
        dir = try E2E.temporaryDirectory()
        doc = dir.appendingPathComponent("long.md").path
        try FileManager.default.copyItem(atPath: E2E.sample("long.md"), toPath: doc)
    }

    /// Opens `arguments` in a pane, pages down `pages` times, quits; returns the last screen.
    @discardableResult
    private func read(_ arguments: [String], pages: Int, columns: Int = 80, name: String = "long.md") throws -> [String] {
        let pane = try FolioPane.folio(["--no-scrollbar"] + arguments, columns: columns, dir: dir)
        var screen = try #require(pane.waitForPager(name: name))
        for _ in 0..<pages { screen = try #require(try pane.press("<Space>", from: screen)) }
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
        return screen
    }

    /// Opens `arguments` and returns the first screen (folio is left running until the pane goes).
    private func open(_ arguments: [String], columns: Int = 80, name: String = "long.md",
                      until predicate: @escaping ([String]) -> Bool = { _ in true }) throws -> (FolioPane, [String]) {
        let pane = try FolioPane.folio(["--no-scrollbar"] + arguments, columns: columns, dir: dir)
        let screen = try #require(pane.wait { screen in
            guard let status = screen.last, status.contains(name) || status.contains("resumed") else { return false }
            return predicate(screen)
        })
        return (pane, screen)
    }

    private static func resumed(_ screen: [String]) -> Bool { screen.last?.contains("resumed at") == true }

    @Test func reopensAtTheSameTopRow() throws {
        let left = try read([doc], pages: 20)
        let (_, screen) = try open([doc], until: Self.resumed)
        #expect(screen[0] == left[0])
    }

    @Test func narrowerTerminalKeepsTheSameBlockOnTop() throws {
        let left = try read([doc], pages: 21)
        let (_, screen) = try open([doc], columns: 60, until: Self.resumed)
        let word = try #require(left[0].split(separator: " ").first { $0.count >= 3 })
        #expect(screen[0].contains(word), "\(left[0].debugDescription) → \(screen[0].debugDescription)")
        #expect(screen.allSatisfy { E2E.columns($0) <= 60 })
    }

    @Test func editedFileKeepsTheSameTextOnTop() throws {
        let left = try read([doc], pages: 20)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: doc))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n\n## Appendix\n\nA paragraph added after the last read.\n".utf8))
        try handle.close()
        let (_, screen) = try open([doc], until: Self.resumed)
        #expect(screen[0] == left[0])
    }

    @Test func pipedDocumentResumes() throws {
        let script = "cat \(doc.shellQuoted) | \"$FOLIO_EXE\" --no-scrollbar"
        let first = try FolioPane.shell(script, dir: dir)
        var screen = try #require(first.waitForPager(name: "stdin"))
        for _ in 0..<5 { screen = try #require(try first.press("<Space>", from: screen)) }
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.shell(script, dir: dir)
        let again = try #require(second.wait(Self.resumed))
        #expect(again[0] == screen[0])
    }

    @Test func differentPipedDocumentsDoNotSharePositions() throws {
        let other = dir.appendingPathComponent("other.md").path
        try FileManager.default.copyItem(atPath: doc, toPath: other)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: other))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\nOne more line makes it another document.\n".utf8))
        try handle.close()
        let first = try FolioPane.shell("cat \(doc.shellQuoted) | \"$FOLIO_EXE\" --no-scrollbar", dir: dir)
        var screen = try #require(first.waitForPager(name: "stdin"))
        for _ in 0..<5 { screen = try #require(try first.press("<Space>", from: screen)) }
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.shell("cat \(other.shellQuoted) | \"$FOLIO_EXE\" --no-scrollbar", dir: dir)
        let opened = try #require(second.waitForPager(name: "stdin"))
        #expect(opened[0].hasPrefix("The tidepool field handbook"))
        #expect(!Self.resumed(opened))
    }

    /// long.md (over 128 KB) opens from a preview of its first 64 KB; a position far past that
    /// is restored when the full parse is in, without holding back the first screen.
    @Test func largeFileResumesPastItsPreview() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", doc], dir: dir)
        let first = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("80%")
        let left = try #require(pane.wait { $0 != first && $0.last?.contains("long.md") == true })
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
        #expect(!left.contains { $0.hasPrefix("The tidepool field handbook") })
        let (_, screen) = try open([doc], until: Self.resumed)
        #expect(screen[0] == left[0])
    }

    /// A search made in the first document is saved to the history even though the second
    /// document's position is restored (which reads the history file) before folio quits.
    @Test func searchBeforeNextFileIsKeptInTheHistory() throws {
        let other = dir.appendingPathComponent("other.md").path
        try Data("# Other\n\nA second document.\n".utf8).write(to: URL(fileURLWithPath: other))
        let pane = try FolioPane.folio(["--no-scrollbar", doc, other], dir: dir)
        _ = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("/barnacle<Enter>")
        _ = try #require(pane.wait { $0.last?.contains("long.md") == true && $0.last?.contains("/barnacle") == false })
        try pane.keys(":n")
        _ = try #require(pane.wait { $0.last?.contains("other.md") == true })
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
        let again = try FolioPane.folio(["--no-scrollbar", other], dir: dir)
        _ = try #require(again.waitForPager(name: "other.md"))
        try again.keys("/<Up>")
        #expect(again.wait { $0.last?.contains("barnacle") == true } != nil)
    }

    /// `-p PATTERN` searches before the first frame: the saved history must be in first, so
    /// that both the older searches and the pattern are kept (the history now loads after
    /// the first frame otherwise).
    @Test func aStartPatternJoinsTheSavedHistory() throws {
        let first = try FolioPane.folio(["--no-scrollbar", doc], dir: dir)
        _ = try #require(first.waitForPager(name: "long.md"))
        try first.keys("/barnacle<Enter>")
        _ = try #require(first.wait { $0.last?.contains("long.md") == true && $0.last?.contains("/barnacle") == false })
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.folio(["--no-scrollbar", "-p", "harbour", doc], dir: dir)
        _ = try #require(second.waitForPager(name: "long.md"))
        try second.keys("q")
        #expect(second.tmux.waitForExit(timeout: FolioPane.timeout))
        let store = try String(contentsOf: dir.appendingPathComponent("state/positions.v1"), encoding: .utf8)
        #expect(store.contains("\"pattern\":\"barnacle\""), "\(store)")
        #expect(store.contains("\"pattern\":\"harbour\""), "\(store)")
    }

    @Test func noRestoreOpensAtTheTop() throws {
        try read([doc], pages: 10)
        let (_, screen) = try open(["--no-restore", doc])
        #expect(screen[0].hasPrefix("The tidepool field handbook"))
        #expect(!Self.resumed(screen))
    }

    @Test func forgetForgets() throws {
        try read([doc], pages: 10)
        let env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        let forget = try E2E.run(["--forget", doc], environment: env)
        #expect(forget.status == 0)
        #expect(forget.stderr.isEmpty)
        let (_, screen) = try open([doc])
        #expect(screen[0].hasPrefix("The tidepool field handbook"))
        #expect(!Self.resumed(screen))
    }
}
