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
