import FoundationEssentials
import Threads
import MarkdownModel
import Styling

/// Syntax highlighting as layout receives it: a function from a code block's info string and
/// its code (the block's literal, as written) to syntax runs in the code's UTF-8 bytes, nil
/// when the language is not highlighted. Made at the edge (folio wires grammars into it), so
/// layout stays pure.
///
/// Part of `LayoutOptions`; two options are equal only with the same highlighter object.
/// Highlighting never changes wrapping: rows are made as without it and their code spans are
/// cut at run boundaries, each piece tagged with its `SpanStyle.syntax`.
public final class CodeHighlighter: Hashable, Sendable {
    let highlight: @Sendable (_ info: String, _ code: String) -> [SyntaxRun]?

    public init(_ highlight: @escaping @Sendable (_ info: String, _ code: String) -> [SyntaxRun]?) {
        self.highlight = highlight
    }

    public static func == (a: CodeHighlighter, b: CodeHighlighter) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// Where a code block's runs come from while a unit is laid out: the highlighter itself (print
/// mode: each block is laid out once) or a document's cache of it (the pager).
typealias SyntaxSource = @Sendable (_ block: BlockID, _ info: String, _ code: String) -> [SyntaxRun]?

/// The runs of each code block of one document, made the first time the block is laid out for
/// display and kept: keys, resizes and the other width never highlight a block twice.
/// Shared by the threads that lay out units (a lock around a dictionary).
final class SyntaxCache: @unchecked Sendable {
    private let lock = Lock()
    private var runs: [BlockID: [SyntaxRun]?] = [:]

    func runs(of block: BlockID, make: () -> [SyntaxRun]?) -> [SyntaxRun]? {
        lock.lock()
        if let cached = runs[block] { lock.unlock(); return cached }
        lock.unlock()
        let made = make()
        lock.lock()
        runs[block] = .some(made)
        lock.unlock()
        return made
    }

    /// Blocks highlighted so far (tests).
    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return runs.count
    }
}

extension CodeHighlighter {
    /// Straight to the highlighter, no cache (print mode).
    var uncached: SyntaxSource {
        let h = highlight
        return { _, info, code in h(info, code) }
    }

    func cached(in cache: SyntaxCache) -> SyntaxSource {
        let h = highlight
        return { id, info, code in cache.runs(of: id) { h(info, code) } }
    }
}
