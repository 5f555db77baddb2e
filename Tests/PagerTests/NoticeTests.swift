import LineLayout
import Styling
@testable import Pager
import Synchronization
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
            return layout.rowRange.flatMap { layout.line(at: $0).spans.compactMap(\.style.syntax) }
        }
        let before = h.content
        #expect(roles().isEmpty)
        let keyword = CodeHighlighter { _, code in Highlighting(runs: [SyntaxRun(range: 0..<min(4, code.utf8.count), role: .keyword)]) }
        h.send(.highlighterReady(keyword))
        #expect(h.content == before, "highlighting never changes rows")
        #expect(roles().contains(.keyword))
    }
}

/// The pager's highlighter is deferred: layout never runs it, a block shows plain until the
/// edge hands its runs in (`.codeHighlighted`), and the first note of a document is said once.
@Suite struct DeferredHighlightingTests {
    final class Calls: Sendable {
        let made = Mutex(0)
        var count: Int { made.withLock { $0 } }
    }

    func roles(_ h: PagerHarness) -> [SyntaxRole] {
        let layout = h.state.active.layout
        return layout.rowRange.flatMap { layout.line(at: $0).spans.compactMap(\.style.syntax) }
    }

    @Test func blocksShowPlainUntilTheirRunsAreHandedIn() throws {
        var h = PagerHarness(markdown: "# T\n\n```sh\necho hi\n```\n\n```sh\nls\n```\n", columns: 40, rows: 10)
        let calls = Calls()
        let keyword = CodeHighlighter(deferred: true) { _, code in
            calls.made.withLock { $0 += 1 }
            return Highlighting(runs: [SyntaxRun(range: 0..<min(2, code.utf8.count), role: .keyword)], note: "too deep")
        }
        let before = h.content
        h.send(.highlighterReady(keyword))
        #expect(calls.count == 0, "layout never runs a deferred highlighter")
        #expect(roles(h).isEmpty)
        #expect(h.content == before)
        let content = try #require(h.state.active.layout.content as? MarkdownContent)
        let jobs = content.takeSyntaxJobs()
        #expect(jobs.map(\.code) == ["echo hi\n", "ls\n"], "both blocks on screen were asked for, in order")
        #expect(content.takeSyntaxJobs().isEmpty, "each is handed out once")
        // The edge runs them and hands the runs in; the first note reaches the status line.
        for job in jobs {
            let made = try #require(keyword.highlight(info: job.info, code: job.code))
            content.storeSyntax(made.runs, of: job.block)
            h.send(.codeHighlighted(content: content, blocks: [job.block], note: made.note.map { "block: \($0)" }))
        }
        #expect(roles(h) == [.keyword, .keyword])
        #expect(h.content == before, "highlighting never changes rows")
        #expect(h.status.contains("block: too deep"), "\(h.status)")
        h.send("j")
        h.send(.codeHighlighted(content: content, blocks: [], note: "again"))
        #expect(!h.status.contains("again"), "a document's note is said once")
        #expect(content.takeSyntaxJobs().isEmpty, "a block with runs is never asked for again")
    }
}
