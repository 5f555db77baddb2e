import Foundation
import Testing

/// Search in the pager. SampleDocs/long.md's first line names its marker words: "quixotic"
/// (once in the text, mid-document, chapter "Radio procedure") and "Zanzibar" (once, near the
/// end); the comment itself holds each once more, but comments are hidden, so it is never
/// found.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SearchEndToEndTests {
    static let long = "SampleDocs/long.md"

    /// `current/total` in the status row.
    static func counts(_ screen: [String]) -> (Int, Int)? {
        guard let status = screen.last,
              let range = status.range(of: #"\b(\d+)/(\d+)\s+p\d+/"#, options: .regularExpression) else { return nil }
        let parts = status[range].split(whereSeparator: { $0 == "/" || $0 == " " })
        guard parts.count >= 2, let a = Int(parts[0]), let b = Int(parts[1]) else { return nil }
        return (a, b)
    }

    /// Opens long.md and pages once, so that the marker comment is off screen.
    private func openPastTheComment(_ extra: [String] = []) throws -> (FolioPane, [String]) {
        let pane = try FolioPane.folio(["--no-scrollbar"] + extra + [Self.long])
        let first = try #require(pane.waitForPager(name: "long.md"))
        let screen = try #require(try pane.press("<Space>", from: first))
        return (pane, screen)
    }

    @Test func aMatchOnScreenDoesNotMoveTheView() throws {
        let (pane, before) = try openPastTheComment()
        // A plain word from the middle of the current screen.
        let words: [Substring] = before[8..<20].flatMap { $0.split(separator: " ") }
        let candidate: Substring? = words.first { $0.count >= 5 && $0.allSatisfy(\.isLetter) }
        let word = String(try #require(candidate))
        try pane.keys("/\(word)<CR>")
        let after = try #require(pane.wait { Self.counts($0) != nil })
        #expect(after[0] == before[0])
        let (current, total) = try #require(Self.counts(after))
        #expect(current == 1 && total > 1)
    }

    @Test func aMatchBelowIsBroughtUpToTheLastContentRow() throws {
        let (pane, _) = try openPastTheComment()
        try pane.keys("/quixotic<CR>")
        let after = try #require(pane.wait { Self.counts($0) != nil })
        #expect(after[22].contains("quixotic"), "row 23: \(after[22].debugDescription)")
        #expect(!after[0..<22].contains { $0.contains("quixotic") })
    }

    @Test func nextPreviousAndBackward() throws {
        let (pane, start) = try openPastTheComment()
        // From the top: the contents' link is the first "Anchoring", the chapter the second.
        try pane.keys("g/Anchoring<CR>")
        let first = try #require(pane.wait { Self.counts($0) != nil })
        let (_, total) = try #require(Self.counts(first))
        #expect(total >= 2)
        let one = try #require(Self.counts(first)).0
        try pane.keys("n")
        let next = try #require(pane.wait { Self.counts($0).map { $0.0 } == one + 1 })
        #expect(next[0] != start[0] || next != first)
        try pane.keys("N")
        _ = try #require(pane.wait { Self.counts($0).map { $0.0 } == one })
        // Backward from the end finds the last "Zanzibar" of the text.
        try pane.keys("G")
        _ = try #require(pane.wait { $0.last?.contains("(END)") == true || $0.last?.contains("100%") == true })
        try pane.keys("?quixotic<CR>")
        let back = try #require(pane.wait { screen in
            Self.counts(screen) != nil && FolioPane.content(screen).contains { $0.contains("quixotic") }
        })
        #expect(!back.contains { $0.contains("\"quixotic\"") }, "the text's match, not the comment's")
    }

    @Test func escapeAtThePromptRestoresTheView() throws {
        let (pane, before) = try openPastTheComment()
        try pane.keys("/Zanzib")
        _ = try #require(pane.wait { $0.last?.contains("/Zanzib") == true })
        try pane.keys("<Esc>")
        let after = try #require(pane.wait { FolioPane.content($0) == FolioPane.content(before) && !($0.last?.contains("/Zanzib") ?? false) })
        #expect(after[0] == before[0])
    }

    // "a quixotic" matches the text only, not the marker comment on the first row.
    @Test(arguments: [["+/a quixotic"], ["-p", "a quixotic"]])
    func opensAtTheFirstMatch(_ arguments: [String]) throws {
        let pane = try FolioPane.folio(["--no-scrollbar"] + arguments + [Self.long])
        let screen = try #require(pane.wait { screen in
            FolioPane.content(screen).contains { $0.contains("quixotic") && !$0.contains("\"quixotic\"") }
        })
        #expect(!screen[0].hasPrefix("<!-- search markers"))
    }
}
