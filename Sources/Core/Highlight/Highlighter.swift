import Styling

/// Highlights fenced code by its info string: the grammar for the language (handed in by the
/// caller, which loads grammars at the edge), or `DiffRuns` for diffs.
///
/// Pure: it never touches a file. Unknown languages and missing grammars give nil, which
/// means "show the code as it is".
public final class Highlighter: Sendable {
    private let grammar: @Sendable (String) -> Grammar?

    /// `grammar` returns the grammar of a canonical language name (`Languages.supported`),
    /// nil when it has none; it is called from any thread and should cache.
    public init(grammar: @escaping @Sendable (String) -> Grammar?) {
        self.grammar = grammar
    }

    /// Runs for `code` written in the language `info` names, nil when folio cannot highlight it.
    public func runs(info: String, code: String) -> [SyntaxRun]? { highlight(info: info, code: code)?.runs }

    /// Runs for `code` in the canonical language `name`.
    public func runs(language name: String, code: String) -> [SyntaxRun]? { highlight(language: name, code: code)?.runs }

    /// `code` in the language `info` names highlighted within `budget` (and why some of it was
    /// left plain), nil when folio cannot highlight it.
    public func highlight(info: String, code: String, budget: HighlightBudget = .standard) -> Highlighting? {
        guard let name = Languages.canonical(info: info) else { return nil }
        return highlight(language: name, code: code, budget: budget)
    }

    /// `highlight(info:code:budget:)` for the canonical language `name`.
    public func highlight(language name: String, code: String, budget: HighlightBudget = .standard) -> Highlighting? {
        if name == "diff" { return Highlighting(runs: DiffRuns.runs(code)) }
        guard let g = grammar(name) else { return nil }
        return g.highlight(code, budget: budget)
    }
}
