import LineLayout
import Styling
@testable import Pager
import Testing

/// Outside results reach the status line only as `.notice` events through `update`.
@Suite struct NoticeTests {
    @Test func noticeShowsUntilTheNextKey() {
        var h = PagerHarness(markdown: "# T\n\nSome text.", columns: 40, rows: 5)
        h.send(.notice("https://example.org (copied)"))
        #expect(h.status.contains("https://example.org (copied)"), "\(h.status)")
        #expect(h.effects.isEmpty)
        h.send("j")
        #expect(!h.status.contains("copied"))
    }
}

/// Highlighting joins after the first frame: the rows stay, the code gains its roles.
@Suite struct HighlighterReadyTests {
    @Test func codeIsHighlightedOnceTheHighlighterIsReady() {
        var h = PagerHarness(markdown: "# T\n\n```sh\necho hi\n```\n", columns: 40, rows: 8)
        func roles() -> [SyntaxRole] {
            let layout = h.state.active.layout
            return (0..<layout.rowCount).flatMap { layout.line(at: $0).spans.compactMap(\.style.syntax) }
        }
        let before = h.content
        #expect(roles().isEmpty)
        let keyword = CodeHighlighter { _, code in [SyntaxRun(range: 0..<min(4, code.utf8.count), role: .keyword)] }
        h.send(.highlighterReady(keyword))
        #expect(h.content == before, "highlighting never changes rows")
        #expect(roles().contains(.keyword))
    }
}
