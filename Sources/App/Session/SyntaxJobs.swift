import LineLayout
import MarkdownModel
import Threads

/// Highlights the code blocks the pager's layout asked for (`CodeHighlighter.deferred`) on a
/// thread of their own, below the run loop's priority, so no key waits for a grammar to load,
/// parse or run its query. One thread at a time, one block after the other, each posted as
/// it is done (the screen colours in block by block).
struct SyntaxJobs {
    /// A thread is highlighting (until its last block is delivered).
    private(set) var busy = false

    /// Starts highlighting what the layout of `content` asked for, unless a thread is at it
    /// (it starts again when that one is done: `delivered`).
    mutating func start(content: any LayoutContent, highlighter: CodeHighlighter?, mailbox: Mailbox?) {
        guard !busy, let mailbox, let highlighter, highlighter.deferred,
              let content = content.asMarkdown, content.hasSyntaxJobs else { return }
        let jobs = content.takeSyntaxJobs()
        guard !jobs.isEmpty else { return }
        busy = true
        startThread(stackSize: 8 << 20) {
            for (i, job) in jobs.enumerated() {
                let highlighting = highlighter.highlight(info: job.info, code: job.code)
                content.storeSyntax(highlighting?.runs, of: job.block)
                let note = highlighting?.note.map { Self.note($0, block: job.block, in: content) }
                mailbox.post(.highlighted(content: content, block: job.block, note: note, last: i == jobs.count - 1))
            }
        }
    }

    /// A block was delivered; the thread is done after its `last`.
    mutating func delivered(last: Bool) {
        if last { busy = false }
    }

    /// What the status line says of a block left (partly) plain.
    static func note(_ reason: String, block: BlockID, in content: MarkdownContent) -> String {
        let line = content.unit(of: block).map { content.sourceLines(ofUnit: $0).first } ?? 0
        return "Highlighting stopped in the code block at line \(line): \(reason)"
    }
}
