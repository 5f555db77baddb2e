import MarkdownModel

/// Layouts of one document at the widths (and options) seen most recently, so that going
/// back to a width seen before (resizing a terminal back and forth, toggling link URLs) costs a
/// dictionary look-up instead of a re-layout.
///
/// A value type: keep it in the state that owns the document and replace it when the document
/// changes (block ids are only meaningful for one document). Each entry is a whole
/// `DocumentLayout`, i.e. the `BlockLayout` of every leaf block for one `LayoutOptions`
/// (width + link style); per-block layouts are pure functions of the block, its containers and
/// the options, so an entry is exactly what a fresh layout would produce. At most `capacity`
/// entries are kept (least recently used goes first): a layout holds its rows' text, roughly a
/// few times the document's size.
public struct LayoutCache: Sendable {
    public let document: Document
    public let capacity: Int
    private var entries: [(options: LayoutOptions, layout: DocumentLayout)] = []

    public init(document: Document, capacity: Int = 4) {
        self.document = document
        self.capacity = max(1, capacity)
    }

    /// The layout for `options`, computed now if it is not cached.
    public mutating func layout(_ options: LayoutOptions) -> DocumentLayout {
        if let i = entries.firstIndex(where: { $0.options == options }) {
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.layout
        }
        let layout = DocumentLayout(document: document, options: options)
        entries.append((options, layout))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        return layout
    }

    /// The cached layout for `options`, if any (no computation).
    public func cached(_ options: LayoutOptions) -> DocumentLayout? {
        entries.first(where: { $0.options == options })?.layout
    }

    /// Options with a cached layout, least recently used first.
    public var cachedOptions: [LayoutOptions] { entries.map(\.options) }
}
