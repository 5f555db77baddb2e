/// A piece of code a highlighter named: `range` in UTF-8 bytes of the code it was given.
/// A highlighter hands back runs sorted by position and never overlapping; bytes outside
/// every run have no role.
public struct SyntaxRun: Hashable, Sendable {
    public var range: Range<Int>
    public var role: SyntaxRole
    public init(range: Range<Int>, role: SyntaxRole) { self.range = range; self.role = role }
}

/// What a highlighter made of a block: its runs, and why part of it was left plain.
public struct Highlighting: Sendable, Equatable {
    public var runs: [SyntaxRun]
    /// Why some of the code was left plain, for the reader ("brackets nested over 1000
    /// deep"); nil when all of it was highlighted.
    public var note: String?

    public init(runs: [SyntaxRun], note: String? = nil) {
        self.runs = runs
        self.note = note
    }
}
