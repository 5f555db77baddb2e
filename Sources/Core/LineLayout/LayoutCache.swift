/// Row counts of one document at the widths (and options) seen most recently, so that going
/// back to a width seen before (resizing a terminal back and forth, toggling a split pane)
/// needs no layout pass: the counts come back exact and the rows of the units on screen are
/// laid out again on demand (a few screens, not the document).
///
/// A value type: keep it next to the content it counts and replace it when the content
/// changes. One entry costs about a byte per unit.
public struct LayoutCache: Sendable {
    public let capacity: Int
    private var entries: [(options: LayoutOptions, index: RowIndex)] = []

    public init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// The exact counts for `options`, if cached (made most recent).
    public mutating func counts(for options: LayoutOptions) -> RowIndex? {
        // By `rowsKey`: the highlighter never changes rows.
        guard let i = entries.firstIndex(where: { $0.options == options.rowsKey }) else { return nil }
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.index
    }

    /// Remembers exact counts for `options` (only complete, exact indices are worth keeping).
    public mutating func store(_ index: RowIndex, for options: LayoutOptions) {
        guard index.isExact else { return }
        entries.removeAll { $0.options == options.rowsKey }
        entries.append((options.rowsKey, index))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// Options with cached counts, least recently used first.
}
