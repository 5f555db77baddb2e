import LessOptions
import Pager
import TextModel
import TextSearch
import Viewport

/// folio's options (`LessOptions.Options`, read from `$LESS`, `$FOLIO` and the command line by
/// `Invocation`) in the terms of the modules they configure.
extension Options {
    /// The kind every input is forced to, if any (`--markdown`, `--text`).
    var forcedKind: DocumentKind? {
        switch kind {
        case .markdown: return .markdown
        case .text: return .text
        case nil: return nil
        }
    }

    /// The reading settings less's options choose (`-i`/`-I`, `-j`, `-K`, `-e`, `-g`, `-a`,
    /// `-#`, `--no-search-wrap`), set on the pager's configuration.
    func configureReading(_ config: inout PagerConfig) {
        switch searchCase {
        case .sensitive: config.searchCase = .sensitive
        case .smart: config.searchCase = .smart
        case .insensitive: config.searchCase = .insensitive
        }
        if let jumpTarget { config.jumpTarget = PagerConfig.revealPolicy(jumpTarget) }
        config.quitOnInterrupt = quitOnInterrupt
        config.quitAtEOF = quitAtEOF
        config.matchHighlight = highlight
        config.searchSkipsScreen = searchSkipsScreen
        config.searchWraps = searchWraps
        if let shift { config.horizontalShift = shift }
        // The user's key bindings (their errors were said at the start).
        let (bindings, _, lineEdits) = UserConfig.bindings(keyFiles)
        config.keyBindings = bindings
        config.lineEditBindings = lineEdits
    }
}
