import Foundation
import Testing

/// Selecting links and headings with Tab, following them, the outline, and mouse selection
/// in SampleDocs/tour.md.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SelectionEndToEndTests {
    static let tour = "SampleDocs/tour.md"

    /// Presses Tab until the selection (reverse video) moves; returns the screen and the
    /// selected rows, or nil when nothing changed within the timeout.
    private func tab(_ pane: FolioPane) throws -> (screen: [String], selected: [Int])? {
        let before = pane.tmux.capture(escapes: true)
        try pane.keys("<Tab>")
        guard pane.tmux.waitFor(timeout: FolioPane.timeout, { _ in pane.tmux.capture(escapes: true) != before }) != nil
        else { return nil }
        return (pane.screen, pane.reverseVideoRows().filter { $0 < 23 })
    }

    @Test func tabRevealsTheSelectionOnTheLastContentRow() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.tour])
        let first = try #require(pane.waitForPager(name: "tour.md"))
        var moved: (screen: [String], selected: [Int])?
        for _ in 0..<60 {
            let step = try #require(try tab(pane))
            if step.screen[0] != first[0] { moved = step; break }
            #expect(!step.selected.isEmpty, "the selection is visible in reverse video")
        }
        let (screen, selected) = try #require(moved, "the view never moved")
        #expect(selected.contains(22), "selected rows \(selected) on \(screen)")
        // Minimal reveal: the old screen scrolled up by just as much as needed.
        let shift = try #require(first.firstIndex(of: screen[0]))
        #expect(shift > 0 && shift < 12)
    }

    @Test func followsAnAnchorLinkAndComesBack() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.tour])
        let first = try #require(pane.waitForPager(name: "tour.md"))
        var found = false
        for _ in 0..<12 {
            let step = try #require(try tab(pane))
            if step.selected.contains(where: { step.screen[$0].contains("Quick start") }) { found = true; break }
        }
        try #require(found, "Tab reaches the `Quick start` link in the contents")
        try pane.keys("<CR>")
        let there = try #require(pane.wait { $0[0].hasPrefix("Quick start") })
        #expect(there[1].hasPrefix("───"))
        try pane.keys("<BS>")
        let back = try #require(pane.wait { $0[0] == first[0] })
        #expect(back[0] == first[0])
    }

    /// A README's links to its own files: `src/main.c#L30` opens the source as text at line
    /// 30, Backspace comes back; a binary file is refused on the status line.
    @Test func followsLinksToLocalTextFiles() throws {
        let dir = try E2E.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("src"), withIntermediateDirectories: true)
        _ = try E2E.write((1...200).map { "int line_\($0);" }.joined(separator: "\n") + "\n", to: "src/main.c", in: dir)
        _ = try E2E.write(bytes: [0x89, 0x50, 0x4E, 0x47, 0, 0, 1, 2], to: "blob.dat", in: dir)
        let readme = try E2E.write("See [the loop](src/main.c#L30).\n\nAnd [the data](blob.dat).\n",
                                   to: "README.md", in: dir)
        let pane = try FolioPane.folio(["--no-scrollbar", readme], dir: dir)
        let first = try #require(pane.waitForPager(name: "README.md"))
        _ = try #require(try tab(pane))
        try pane.keys("<CR>")
        let code = pane.wait { $0[0].hasPrefix("int line_30;") && $0.last?.contains("main.c") == true }
        #expect(code != nil, "\(pane.screen.joined(separator: "|"))")
        try pane.keys("<BS>")
        _ = try #require(pane.wait { $0[0] == first[0] && $0.last?.contains("README.md") == true })
        for _ in 0..<4 {
            let step = try #require(try tab(pane))
            if step.selected.contains(where: { step.screen[$0].contains("the data") }) { break }
        }
        try pane.keys("<CR>")
        let refused = pane.wait { $0.last.map { $0.contains("Not a text file, not opened:") && $0.contains("blob.dat") } == true }
        #expect(refused != nil, "\(pane.screen.joined(separator: "|"))")
    }

    @Test func outlineJumpsToAHeading() throws {
        let pane = try FolioPane.folio(["--no-scrollbar", Self.tour])
        _ = try #require(pane.waitForPager(name: "tour.md"))
        try pane.keys("o")
        _ = try #require(pane.wait(text: "Outline of"))
        try pane.keys("Configur")
        _ = try #require(pane.wait { $0.contains { $0.contains("Outline of") && $0.contains("1 of") } })
        try pane.keys("<CR>")
        let screen = try #require(pane.wait { $0[0].hasPrefix("Configuration") })
        #expect(!screen.contains { $0.contains("Outline of") })
    }

    @Test func mouseDragPastTheBottomScrollsAndCopies() throws {
        let pane = try FolioPane.folio(["--mouse", "--no-scrollbar", Self.tour])
        let first = try #require(pane.waitForPager(name: "tour.md"))
        func send(_ s: String) throws { try pane.tmux.sendBytes(Array(s.utf8)) }
        try send("\u{1B}[<0;3;5M")    // press on content row 5
        try send("\u{1B}[<32;10;12M")  // drag
        try send("\u{1B}[<32;10;25M")  // past the bottom edge (24 rows)
        let scrolled = try #require(pane.wait { $0[0] != first[0] }, "the view scrolls while held below")
        #expect(scrolled[0] != first[0])
        try send("\u{1B}[<0;10;25m")   // release
        let done = try #require(pane.wait { $0.last?.range(of: #"Copied \d+ characters"#, options: .regularExpression) != nil })
        let count = done.last.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
        #expect((count ?? 0) > 100)
    }
}
