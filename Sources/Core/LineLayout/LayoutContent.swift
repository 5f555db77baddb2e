import MarkdownModel

/// A document as the layout sees it, independent of width: an ordered list of *units*, each
/// laid out on its own. A unit is a leaf block of a Markdown document (see
/// `MarkdownContent`) or a line of a text document.
///
/// Units are addressed two ways: by position (`Unit`, 0-based, the order rows come in) and by
/// id (`BlockID`, what anchors and reading positions store: a leaf's block id, a line's
/// index). Both are stable while a document grows: units are only ever added at the end, and
/// only the units of an open tail are replaced.
///
/// Implementations are immutable snapshots (a growing document hands the pager a new
/// snapshot) and safe to share between threads.
public protocol LayoutContent: Sendable {
    /// Units in this snapshot.
    var unitCount: Int { get }
    /// Whether more units may come (the input is still being read).
    var isComplete: Bool { get }
    /// The id anchors use for unit `u`.
    func id(ofUnit u: Unit) -> BlockID
    /// The unit an id names; nil when it names no unit (a Markdown container, an id past
    /// the end).
    func unit(of id: BlockID) -> Unit?
    /// The units an id covers: a leaf's own unit, a container's leaves; nil when unknown.
    func units(covering id: BlockID) -> Range<Unit>?
    /// Unit `u` laid out with `options`. Pure: the same arguments give the same rows.
    func layout(unit u: Unit, options: LayoutOptions) -> BlockLayout
    /// Unit `u`'s content text, the same at every width (what search matches and anchors'
    /// offsets count in).
    func text(ofUnit u: Unit) -> String
    /// Unit `u`'s content text as UTF-8 bytes, read in place where the content keeps them
    /// (what search reads: no string is made per unit).
    func withText<R>(ofUnit u: Unit, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
    /// A guess at unit `u`'s rows at `width`, for units not laid out at that width yet.
    func estimatedRows(ofUnit u: Unit, options: LayoutOptions) -> Int
    /// `estimatedRows` of each of `units` (one call for many: a text input's first read holds
    /// tens of thousands of lines, all estimated before its first screen).
    func estimatedRows(of units: Range<Unit>, options: LayoutOptions) -> [Int]
    /// Whether `estimatedRows` is exact at `options` (chopped text lines: one row each).
    func estimatesAreExact(options: LayoutOptions) -> Bool
    /// Source lines of unit `u` (1-based, inclusive).
    func sourceLines(ofUnit u: Unit) -> SourceLines
    /// Lines of the source (1-based numbers run 1...sourceLineCount).
    var sourceLineCount: Int { get }
    /// The row counts of `units` at `options` (a layout pass; implementations may use
    /// several threads).
    func rowCounts(of units: Range<Unit>, options: LayoutOptions) -> [Int]
    /// `rowCounts`, for a count off the run loop while the reader reads
    /// (`DocumentState.countsWanted`): on at most all cores but one, so that one stays free
    /// for the keys.
    func backgroundRowCounts(of units: Range<Unit>, options: LayoutOptions) -> [Int]
    /// This content when it is a text document's, else nil: what `as? TextContent` answers,
    /// without a dynamic cast. (A cast that fails looks Foundation's boxing class up by name
    /// the first time in a process, over every type the binary holds: a fixed cost the first
    /// screen paid, for the `isText` of a Markdown document.)
    var asText: TextContent? { get }
    /// This content when it is a Markdown document's, else nil (see `asText`).
    var asMarkdown: MarkdownContent? { get }
}

extension LayoutContent {
    /// Every unit of this snapshot, in order.
    public var unitRange: Range<Unit> { 0..<endUnit }
    /// The unit after the last (`unitCount`).
    public var endUnit: Unit { Unit(unitCount) }

    public func backgroundRowCounts(of units: Range<Unit>, options: LayoutOptions) -> [Int] {
        rowCounts(of: units, options: options)
    }

    public func estimatesAreExact(options: LayoutOptions) -> Bool { false }

    public func withText<R>(ofUnit u: Unit, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text(ofUnit: u)
        return text.withUTF8(body)
    }

    public func estimatedRows(of units: Range<Unit>, options: LayoutOptions) -> [Int] {
        units.map { estimatedRows(ofUnit: $0, options: options) }
    }

    /// The first unit whose source lines reach `line` (the last unit when past the end).
    public func unit(forSourceLine line: Int) -> Unit {
        var lo = 0, hi = unitCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if sourceLines(ofUnit: Unit(mid)).last < line { lo = mid + 1 } else { hi = mid }
        }
        return Unit(min(lo, max(0, unitCount - 1)))
    }
}
