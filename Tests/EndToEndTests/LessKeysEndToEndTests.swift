import Foundation
import Testing

/// less's keys and commands in a real terminal (issue 27, the keys half): the Esc prefix's
/// timing through tmux.
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
}
