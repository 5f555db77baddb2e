/// How a search pattern is read.
public enum SearchMode: Sendable, Hashable {
    /// A Perl-compatible regular expression (PCRE2 syntax), as in less. The default.
    case regex
    /// The pattern's characters stand for themselves: `a.c` finds only "a.c".
    case literal
}

/// Whether letter case matters when matching.
public enum CaseSensitivity: Sendable, Hashable {
    /// Case-insensitive unless the pattern contains an upper-case letter (less `-i`, vim
    /// `smartcase`). For a regex, letters that belong to syntax do not count: the `S` of `\S`,
    /// the `Lu` of `\p{Lu}`, group names, `(*VERB)`s. The default.
    case smart
    /// Always case-insensitive (less `-I`).
    case insensitive
    /// Always case-sensitive.
    case sensitive
}

/// The user-visible settings of a search.
public struct SearchOptions: Sendable, Hashable {
    public var mode: SearchMode
    public var caseSensitivity: CaseSensitivity

    public init(mode: SearchMode = .regex, caseSensitivity: CaseSensitivity = .smart) {
        self.mode = mode
        self.caseSensitivity = caseSensitivity
    }
}

/// Why a pattern could not be compiled. `description` is one line, fit for a status line.
public enum SearchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern is empty. A pager usually repeats the previous search instead (as less does);
    /// `SearchPattern` refuses it, because an empty pattern matches nothing useful.
    case emptyPattern
    /// PCRE2 rejected the pattern. `offset` is a UTF-8 byte offset into the pattern.
    case invalidPattern(reason: String, offset: Int)

    public var description: String {
        switch self {
        case .emptyPattern:
            return "Empty pattern"
        case .invalidPattern(let reason, let offset):
            return "Invalid pattern: \(reason) at offset \(offset)"
        }
    }
}
