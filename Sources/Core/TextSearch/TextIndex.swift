/// A text's position in the texts a search looks through (`DocumentSearcher`'s and
/// `MatchCounter`'s collection): 0-based. For the pager, text i is a unit of the layout only
/// when no filter hides units (`SearchTexts.unit(ofText:)` converts); its own type so that
/// the compiler finds one used as the other.
///
/// A plain `Int` inside; the collection itself stays indexed by `Int`.
public struct TextIndex: Hashable, Comparable, Strideable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var index: Int

    public init(_ index: Int) { self.index = index }
    public init(integerLiteral value: Int) { index = value }

    public static func < (a: TextIndex, b: TextIndex) -> Bool { a.index < b.index }
    public func distance(to other: TextIndex) -> Int { other.index - index }
    public func advanced(by n: Int) -> TextIndex { TextIndex(index + n) }
    public var description: String { String(index) }

    public static func + (t: TextIndex, n: Int) -> TextIndex { TextIndex(t.index + n) }
    public static func - (t: TextIndex, n: Int) -> TextIndex { TextIndex(t.index - n) }
    /// Texts from `b` to `a`.
    public static func - (a: TextIndex, b: TextIndex) -> Int { a.index - b.index }
}
