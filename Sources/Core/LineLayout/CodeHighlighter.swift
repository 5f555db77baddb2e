import MarkdownModel
import Styling
import Synchronization

/// Syntax highlighting as layout receives it: a function from a code block's info string and
/// its code (the block's literal, as written) to syntax runs in the code's UTF-8 bytes, nil
/// when the language is not highlighted. Made at the edge (folio wires grammars into it), so
/// layout stays pure.
///
/// Part of `LayoutOptions`; two options are equal only with the same highlighter object.
/// Highlighting never changes wrapping: rows are made as without it and their code spans are
/// cut at run boundaries, each piece tagged with its `SpanStyle.syntax`.
///
/// `deferred` (the pager): a document's layout never runs a grammar. A code block laid out
/// before its runs are made shows plain and is asked for (`MarkdownContent.takeSyntaxJobs`);
/// the edge highlights it off the run loop and hands the runs back (`storeSyntax`), and the
/// pager lays the block out again. Otherwise (print mode, tests, benchmarks) a block is
/// highlighted when it is laid out.
public final class CodeHighlighter: Hashable, Sendable {
    let highlight: @Sendable (_ info: String, _ code: String) -> Highlighting?
    public let deferred: Bool

    public init(deferred: Bool = false, _ highlight: @escaping @Sendable (_ info: String, _ code: String) -> Highlighting?) {
        self.highlight = highlight
        self.deferred = deferred
    }

    /// Runs `code` (the info string's language) through the highlighter: what a job does.
    public func highlight(info: String, code: String) -> Highlighting? { highlight(info, code) }

    public static func == (a: CodeHighlighter, b: CodeHighlighter) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// Where a code block's runs come from while a unit is laid out: the highlighter itself (print
/// mode: each block is laid out once) or a document's cache of it (the pager).
typealias SyntaxSource = @Sendable (_ block: BlockID, _ info: String, _ code: String) -> [SyntaxRun]?

/// A code block whose runs the pager's layout asked for (`CodeHighlighter.deferred`).
public struct SyntaxJob: Sendable {
    public let block: BlockID
    public let info: String
    public let code: String
}

/// The runs of each code block of one document, made the first time the block is laid out for
/// display and kept: keys, resizes and the other width never highlight a block twice.
/// Shared by the threads that lay out units and the one that highlights.
final class SyntaxCache: Sendable {
    private struct State {
        var runs: [BlockID: [SyntaxRun]?] = [:]
        /// Blocks asked for and not handed out yet, in the order asked.
        var wanted: [SyntaxJob] = []
        /// Blocks asked for (handed out or not) whose runs are not in yet.
        var asked: Set<BlockID> = []
    }
    private let state = Mutex(State())

    /// Highlights on the caller's thread on a miss.
    func runs(of block: BlockID, make: () -> [SyntaxRun]?) -> [SyntaxRun]? {
        if let cached = state.withLock({ $0.runs[block] }) { return cached }
        let made = make()
        state.withLock { $0.runs[block] = .some(made) }
        return made
    }

    /// The runs if made, else nil, and the block is asked for (once).
    func runsOrAsk(_ block: BlockID, info: String, code: String) -> [SyntaxRun]? {
        state.withLock { s in
            if let cached = s.runs[block] { return cached }
            if s.asked.insert(block).inserted { s.wanted.append(SyntaxJob(block: block, info: info, code: code)) }
            return nil
        }
    }

    func takeJobs() -> [SyntaxJob] {
        state.withLock { s in
            defer { s.wanted = [] }
            return s.wanted
        }
    }

    var hasJobs: Bool { state.withLock { !$0.wanted.isEmpty } }

    func store(_ runs: [SyntaxRun]?, of block: BlockID) {
        state.withLock { s in
            s.runs[block] = .some(runs)
            s.asked.remove(block)
        }
    }

}

extension CodeHighlighter {
    /// Straight to the highlighter, no cache (print mode).
    var uncached: SyntaxSource {
        let h = highlight
        return { _, info, code in h(info, code)?.runs }
    }

    func cached(in cache: SyntaxCache) -> SyntaxSource {
        if deferred {
            return { id, info, code in cache.runsOrAsk(id, info: info, code: code) }
        }
        let h = highlight
        return { id, info, code in cache.runs(of: id) { h(info, code)?.runs } }
    }
}
