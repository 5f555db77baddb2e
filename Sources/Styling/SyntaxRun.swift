/// A piece of code a highlighter named: `range` in UTF-8 bytes of the code it was given.
/// A highlighter hands back runs sorted by position and never overlapping; bytes outside
/// every run have no role.
public struct SyntaxRun: Hashable, Sendable {
    public var range: Range<Int>
    public var role: SyntaxRole
    public init(range: Range<Int>, role: SyntaxRole) { self.range = range; self.role = role }
}
