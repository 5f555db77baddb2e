import GrammarLoader
import LineLayout
import Pager

extension Launch {
    /// Syntax highlighting when colour is written (never with `--color=never`, `NO_COLOR`,
    /// `--plain` or into a pipe: then code looks as it always did). Grammars load on first use.
    /// `deferred`: the pager's (blocks are highlighted off the run loop, `SyntaxJobs`).
    static func codeHighlighter(theme: Theme?, deferred: Bool) -> CodeHighlighter? {
        guard let theme, theme.addsColour else { return nil }
        let highlighter = GrammarLoader.forThisProcess(environment: ProcessEnvironment.current).highlighter()
        return CodeHighlighter(deferred: deferred) { info, code in highlighter.highlight(info: info, code: code) }
    }
}
