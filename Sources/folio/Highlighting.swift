import GrammarLoader
import LineLayout
import Pager

extension Folio {
    /// Syntax highlighting when colour is written (never with `--color=never`, `NO_COLOR`,
    /// `--plain` or into a pipe: then code looks as it always did). Grammars load on first use.
    static func codeHighlighter(theme: Theme?) -> CodeHighlighter? {
        guard let theme, theme.depth != .none else { return nil }
        let highlighter = GrammarLoader.forThisProcess().highlighter()
        return CodeHighlighter { info, code in highlighter.runs(info: info, code: code) }
    }
}
