import TextSearch

/// What the command line asks to do once the first screen is laid out, as less's `+cmd`
/// options do: `+N` (line N), `+/pattern` and `-p pattern` (search), `+G` (the end), `+F`
/// (follow). Sent to the pager as `.start`.
public enum StartCommand: Equatable, Sendable {
    case line(Int)
    case search(String)
    case end
    /// `+F`: follow the end of the input.
    case follow
}

extension PagerState {
    /// `command` done as its keys would be: on input still being read, `+N`, `+G` and the
    /// search read on as far as they need; a pattern that does not compile is said on the
    /// status line.
    mutating func start(_ command: StartCommand) -> [PagerEffect] {
        switch command {
        case .line(let n):
            // A count then `g`, as typed: on a pipe, it reads on to line N (never an effect
            // before the last key).
            var effects = update(.key(.char("g")))  // reset
            for d in String(n) { effects += update(.key(.char(d))) }
            return effects + update(.key(.char("g")))
        case .end:
            return update(.key(.char("G")))
        case .follow:
            return followEnd()
        case .search(let text):
            let options = SearchOptions(mode: config.literalSearch ? .literal : .regex, caseSensitivity: config.searchCase)
            do {
                return startSearch(text, pattern: try SearchPattern(text, options: options))
            } catch {
                message = error.description
                return []
            }
        }
    }
}
