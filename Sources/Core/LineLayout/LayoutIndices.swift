/// A layout unit's position in its document: 0-based, in the order rows come in (a Markdown
/// leaf block or a text line; see `LayoutContent`). The same at every width. Not a `BlockID`
/// (what anchors store: `LayoutContent.id(ofUnit:)` and `unit(of:)` convert) and not a `Row`.
///
/// Its own type so that the compiler finds a row or a search's text index used as a unit.
/// A plain `Int` inside: a loop over `Range<Unit>` costs what one over `Range<Int>` does.
/// Counts of units (`unitCount`) stay `Int`; `Unit(unitCount)` is the end position.
public struct Unit: Hashable, Comparable, Strideable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var index: Int

    public init(_ index: Int) { self.index = index }
    public init(integerLiteral value: Int) { index = value }

    public static func < (a: Unit, b: Unit) -> Bool { a.index < b.index }
    public func distance(to other: Unit) -> Int { other.index - index }
    public func advanced(by n: Int) -> Unit { Unit(index + n) }
    public var description: String { String(index) }

    public static func + (u: Unit, n: Int) -> Unit { Unit(u.index + n) }
    public static func - (u: Unit, n: Int) -> Unit { Unit(u.index - n) }
    /// Units from `b` to `a`.
    public static func - (a: Unit, b: Unit) -> Int { a.index - b.index }
    public static func += (u: inout Unit, n: Int) { u.index += n }
    public static func -= (u: inout Unit, n: Int) { u.index -= n }
}

/// A visual row of a document laid out at one width: 0-based, hidden units owning none (see
/// `RowIndex`). Valid for one width and filter only; positions that must survive a resize are
/// anchors. Not a `Unit`.
///
/// Its own type so that the compiler finds a unit used as a row. Counts of rows (`rowCount`,
/// a screen's height) and a row's place within its unit's lines stay `Int`.
public struct Row: Hashable, Comparable, Strideable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var index: Int

    public init(_ index: Int) { self.index = index }
    public init(integerLiteral value: Int) { index = value }

    public static func < (a: Row, b: Row) -> Bool { a.index < b.index }
    public func distance(to other: Row) -> Int { other.index - index }
    public func advanced(by n: Int) -> Row { Row(index + n) }
    public var description: String { String(index) }

    public static func + (r: Row, n: Int) -> Row { Row(r.index + n) }
    public static func - (r: Row, n: Int) -> Row { Row(r.index - n) }
    /// Rows from `b` to `a`.
    public static func - (a: Row, b: Row) -> Int { a.index - b.index }
    public static func += (r: inout Row, n: Int) { r.index += n }
    public static func -= (r: inout Row, n: Int) { r.index -= n }
}

/// `Unit` and `Row`: a plain `Int` position with a type of its own.
public protocol LayoutIndex: Strideable where Stride == Int {
    var index: Int { get }
    init(_ index: Int)
}

extension Unit: LayoutIndex {}
extension Row: LayoutIndex {}

extension Range where Bound: LayoutIndex {
    /// The positions `indices` names, typed.
    public init(indices: Range<Int>) { self = Bound(indices.lowerBound)..<Bound(indices.upperBound) }
    /// The positions as plain `Int`s (for the storage they index).
    public var indexRange: Range<Int> { lowerBound.index..<upperBound.index }
}
