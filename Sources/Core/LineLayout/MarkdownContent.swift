#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MarkdownModel
import Styling
import Threads

/// A Markdown document as layout units: its leaf blocks (and containers without children,
/// an empty `-` or `>`, which still show their marker on a row), in document order.
///
/// Holds what every width shares: the content text and links of each unit, computed once
/// when the content is built (by the same pass that counts the first width's rows).
public final class MarkdownContent: LayoutContent {
    public var asText: TextContent? { nil }
    public var asMarkdown: MarkdownContent? { self }
    public let document: Document
    public let isComplete: Bool
    let containers: Containers
    /// Block id of each unit, in document order.
    let units: UnitIDs
    /// Each unit's content text, in one buffer.
    let texts: UnitTexts
    /// Bytes of all units' content text (what a layout pass reads).
    public var textBytes: Int { texts.byteCount }
    /// Heading level of each unit, 0 for other units (estimates and the outline read it for
    /// every unit: without copying a block each time).
    let headingLevels: [UInt8]
    /// Links of each unit, by position in its content text.
    public let links: UnitLinks
    /// Syntax runs of the code blocks laid out so far with a highlighter.
    let syntaxCache = SyntaxCache()
    /// Pictures of the images laid out so far (`LayoutOptions.pictures`, deferred).
    let pictureCache = PictureCache()

    /// Documents with at least this many units are laid out on several threads.
    static let parallelThreshold = 4096

    /// The content of `document`, and each unit's row count at `options` (one layout pass;
    /// `parallel` forces or forbids threads, nil decides by size).
    public static func build(_ document: Document, options: LayoutOptions, isComplete: Bool = true,
                             parallel: Bool? = nil) -> (content: MarkdownContent, rowCounts: [Int]) {
        let built = buildKeepingLayouts(document, options: options, isComplete: isComplete, parallel: parallel)
        return (built.content, built.rowCounts)
    }

    /// `build`, also handing back the layouts it made when the whole document is small
    /// enough for `DocumentLayout`'s cache to keep them (nil otherwise). A large document's
    /// rows are counted as they are made and dropped: only each unit's text and links stay,
    /// never the rows of the whole document at once.
    static func buildKeepingLayouts(_ document: Document, options: LayoutOptions, isComplete: Bool = true,
                                    parallel: Bool? = nil, sliceUnits: Int = 4096)
        -> (content: MarkdownContent, rowCounts: [Int], layouts: [BlockLayout]?) {
        let skeleton = Skeleton(document)
        if skeleton.units.count <= keptLayoutsUnits, !(parallel ?? false) {
            // Small: lay out whole, keep the rows while they fit the cache.
            var kept: [BlockLayout]? = []
            var rows = 0
            var texts = UnitTexts(), links = UnitLinks(), counts: [Int] = []
            for k in skeleton.units.indices {
                let layout = Skeleton.layoutUnit(k, units: skeleton.units, document: document,
                                                 containers: skeleton.containers, options: options)
                texts.append(layout.text, shared: Self.isPlainText(layout.text, of: skeleton, unit: k))
                links.append(layout.links)
                counts.append(layout.lines.count)
                rows += layout.lines.count
                if rows > DocumentLayout.cacheRows { kept = nil } else { kept?.append(layout) }
            }
            let content = MarkdownContent(skeleton: skeleton, isComplete: isComplete, texts: texts, links: links)
            return (content, counts, kept)
        }
        // A slice of units at a time, so that only one slice's texts are ever strings: their
        // bytes move into the one buffer and the next slice's strings reuse their memory.
        // (4,096 units: a slice four times larger held megabytes of strings at the top of the
        // pager's peak; smaller slices cost nothing measurable.)
        let total = skeleton.units.count
        var texts = UnitTexts(), links = UnitLinks(), counts: [Int] = []
        texts.reserve(units: total)
        links.reserve(units: total)
        counts.reserveCapacity(total)
        var start = 0
        while start < total {
            let end = min(total, start + max(1, sliceUnits))
            let measured = skeleton.mapUnits(parallel: parallel, range: start..<end, executor: options.executor) { k, units, document, containers in
                Skeleton.measureUnit(k, units: units, document: document, containers: containers, options: options)
            }
            for (k, m) in zip(start..<end, measured) {
                texts.append(m.text, shared: Self.isPlainText(m.text, of: skeleton, unit: k))
                links.append(m.links)
                counts.append(m.rows)
            }
            start = end
        }
        let content = MarkdownContent(skeleton: skeleton, isComplete: isComplete, texts: texts, links: links)
        return (content, counts, nil)
    }

    /// Whether `text` (unit k's layout text) is exactly its block's packed plain text, so the
    /// content keeps no copy of it (`UnitTexts`).
    private static func isPlainText(_ text: String, of skeleton: Skeleton, unit k: Int) -> Bool {
        var text = text
        return text.withUTF8 { t in
            skeleton.document.blocks[skeleton.units[k].rawValue].kind.withPackedPlainText { p in
                p.count == t.count && (t.count == 0 || memcmp(p.baseAddress!, t.baseAddress!, t.count) == 0)
            } ?? false
        }
    }

    /// Documents with at most this many units laid out by `buildKeepingLayouts` keep their
    /// rows when they fit `DocumentLayout.cacheRows`.
    static let keptLayoutsUnits = 2048

    /// Every row of `document` laid out with `options`, in order, handed to `body`. On one
    /// thread (`parallel` false, or nil and fewer units than `parallelThreshold`) each row is
    /// handed over as it is made and then dropped, so memory stays that of one row whatever
    /// the block (a 10 MB paragraph at width 1 is 10 million rows); on several threads the
    /// units are laid out first, as `layoutAll`.
    public static func forEachRow(_ document: Document, options: LayoutOptions, parallel: Bool? = nil,
                                  _ body: (VisualLine) -> Void) {
        let skeleton = Skeleton(document)
        let syntax = options.highlighter?.uncached
        if parallel ?? (skeleton.units.count >= parallelThreshold) {
            for block in skeleton.layoutAll(options: options, parallel: true, syntax: syntax) {
                for line in block.lines { body(line) }
            }
            return
        }
        withoutActuallyEscaping(body) { stream in
            for k in skeleton.units.indices {
                _ = Skeleton.layoutUnit(k, units: skeleton.units, document: document, containers: skeleton.containers,
                                        options: options, syntax: syntax, stream: stream)
            }
        }
    }

    /// Every row of `document` laid out with `options`, folded by `row` into one value per run
    /// of consecutive units, the runs done on all cores and returned in order (print mode of a
    /// document parsed whole: each run's rows are written as they are made and dropped, so no
    /// thread holds more than a row, and nothing waits for one thread to write all output).
    /// Rows must not depend on the rows before them (print mode's lines do not: each starts
    /// from the plain style). Fewer units than `parallelThreshold` make one run on this thread.
    public static func mapRowRuns<T>(_ document: Document, options: LayoutOptions,
                                     start: @escaping @Sendable () -> T,
                                     row: @escaping @Sendable (inout T, VisualLine) -> Void) -> [T] {
        let skeleton = Skeleton(document)
        let syntax = options.highlighter?.uncached
        let (units, containers) = (skeleton.units, skeleton.containers)
        // Runs of ~256 units: enough to share the cores out evenly, few enough that each
        // run's buffer is large.
        let runs = units.count >= parallelThreshold ? min(256, units.count / 256) : 1
        return options.executor.map(count: runs) { r in
            var value = start()
            for k in (r * units.count / runs)..<((r + 1) * units.count / runs) {
                _ = Skeleton.layoutUnit(k, units: units, document: document, containers: containers,
                                        options: options, syntax: syntax, stream: { row(&value, $0) })
            }
            return value
        }
    }

    /// Every unit of `document` laid out with `options` (print mode, tests).
    public static func layoutAll(_ document: Document, options: LayoutOptions, parallel: Bool? = nil) -> [BlockLayout] {
        Skeleton(document).layoutAll(options: options, parallel: parallel, syntax: options.highlighter?.uncached)
    }

    private init(skeleton: Skeleton, isComplete: Bool, texts: UnitTexts, links: UnitLinks) {
        var texts = texts, links = links
        texts.shrink()
        links.shrink()
        document = skeleton.document
        containers = skeleton.containers
        units = skeleton.units
        self.isComplete = isComplete
        self.texts = texts
        self.links = links
        let document = skeleton.document
        headingLevels = skeleton.units.map { id in
            if case .heading(let level, _) = document.blocks[id.rawValue].kind { return UInt8(clamping: level) }
            return 0
        }
    }

    public var unitCount: Int { units.count }
    public var sourceLineCount: Int { document.sourceLineCount }
    public func id(ofUnit u: Unit) -> BlockID { units[u.index] }

    // A block's units are found by bisection in `units` (their ids ascend), its subtree's
    // end by walking down its last children: arrays of both per block were a large part
    // of a changelog's content.

    public func unit(of id: BlockID) -> Unit? {
        let i = id.rawValue
        guard i >= 0, i < document.blocks.count, Skeleton.isUnit(document.blocks[i]) else { return nil }
        return Unit(units.count(below: i))
    }

    public func units(covering id: BlockID) -> Range<Unit>? {
        let i = id.rawValue
        guard i >= 0, i < document.blocks.count else { return nil }
        var end = i  // the last block of its subtree (pre-order)
        while let last = document.blocks[end].children.last { end = last.rawValue }
        return Unit(units.count(below: i))..<Unit(units.count(below: end + 1))
    }

    public func layout(unit u: Unit, options: LayoutOptions) -> BlockLayout {
        Skeleton.layoutUnit(u.index, units: units, document: document, containers: containers, options: options,
                            syntax: options.highlighter?.cached(in: syntaxCache),
                            pictures: options.pictures?.cached(in: pictureCache, ask: options.pictures?.deferred ?? false))
    }

    /// Whether unit `u` is a code block (what a highlighter may colour).
    public func isCodeBlock(unit u: Unit) -> Bool {
        if case .codeBlock = document[units[u.index]].kind { return true }
        return false
    }

    /// Whether layout with deferred pictures asked for images not handed out yet.
    public var hasPictureJobs: Bool { pictureCache.hasJobs }

    /// The images layout asked for since the last call (each once).
    public func takePictureJobs() -> [PictureJob] { pictureCache.takeJobs() }

    /// Hands in an image asked for (nil: it shows as its caption only); the units that show
    /// it are laid out again by the pager (`DocumentLayout.pictureArrived`), their row counts changed.
    public func storePicture(_ picture: Picture?, for job: PictureJob) { pictureCache.store(picture, for: job) }

    /// Whether unit `u` is a paragraph of images with `source` among them.
    public func unit(_ u: Unit, shows source: String) -> Bool {
        guard u.index < units.count, case .paragraph(let inlines) = document[units[u.index]].kind,
              case .pictures(let refs)? = ImageParagraph.shape(inlines) else { return false }
        return refs.contains { $0.source == source }
    }

    /// Whether unit `u` is a paragraph shown as pictures (`ImageParagraph`).
    public func isPictureParagraph(unit u: Unit) -> Bool {
        guard case .paragraph(let inlines) = document[units[u.index]].kind,
              case .pictures? = ImageParagraph.shape(inlines) else { return false }
        return true
    }

    /// Whether layout with a deferred highlighter asked for code blocks' runs not handed out yet.
    public var hasSyntaxJobs: Bool { syntaxCache.hasJobs }

    /// The code blocks layout asked for since the last call, in the order asked (each once).
    public func takeSyntaxJobs() -> [SyntaxJob] { syntaxCache.takeJobs() }

    /// Hands in the runs of a code block asked for (nil: not highlighted); the units of
    /// `block` laid out before show plain until they are laid out again.
    public func storeSyntax(_ runs: [SyntaxRun]?, of block: BlockID) { syntaxCache.store(runs, of: block) }

    public func text(ofUnit u: Unit) -> String { withText(ofUnit: u) { String(decoding: $0, as: UTF8.self) } }

    public func withText<R>(ofUnit unit: Unit, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let u = unit.index
        guard texts.isShared(u) else { return texts.withBytes(u, body) }
        // Shared only when the block's packed plain text was there to compare (`isPlainText`).
        guard let shared = document.unsafePackedPlainText(ofBlock: units[u].rawValue) else {
            preconditionFailure("a shared unit's block has no packed plain text")
        }
        return withExtendedLifetime(document) { body(shared) }
    }

    /// The first unit of the block a link fragment names (`Document.anchors`: footnotes).
    public func unit(ofAnchor fragment: String) -> Unit? {
        guard let id = document.anchors[fragment] ?? document.anchors[fragment.lowercased()],
              let units = units(covering: id), !units.isEmpty else { return nil }
        return units.lowerBound
    }

    public func rowCounts(of range: Range<Unit>, options: LayoutOptions) -> [Int] {
        let pictures = options.pictures?.cached(in: pictureCache, ask: false)
        let skeleton = Skeleton(document: document, containers: containers, units: units)
        return skeleton.mapUnits(parallel: nil, range: range.indexRange, executor: options.executor) { k, units, document, containers in
            Skeleton.measureUnit(k, units: units, document: document, containers: containers, options: options,
                                 pictures: pictures).rows
        }
    }

    /// On all cores but one: after a resize of a very large document, a count on both of two
    /// cores made keys wait behind its time slices — each step of a key's way (the
    /// terminal, its pty, folio, the terminal again) queued behind one; nice does not
    /// help, as it only ranks threads within the session. On one thread the exact counts
    /// come later (estimates show meanwhile, exact around the view) and keys do not wait.
    public func backgroundRowCounts(of range: Range<Unit>, options: LayoutOptions) -> [Int] {
        let pictures = options.pictures?.cached(in: pictureCache, ask: false)
        let executor = Executor(threads: options.executor.threads - 1, background: options.executor.background)
        let skeleton = Skeleton(document: document, containers: containers, units: units)
        return skeleton.mapUnits(parallel: executor.threads > 1 ? nil : false, range: range.indexRange, executor: executor) { k, units, document, containers in
            Skeleton.measureUnit(k, units: units, document: document, containers: containers, options: options,
                                 pictures: pictures).rows
        }
    }

    public func estimatedRows(ofUnit unit: Unit, options: LayoutOptions) -> Int {
        let u = unit.index
        let width = options.width
        let bytes = texts.byteCount(u)
        var rows = max(1, (bytes + max(1, width) - 1) / max(1, width))
        if headingLevels[u] != 0, headingLevels[u] <= 2 { rows += 1 }
        return rows + 1  // the separator row most units have
    }

    public func sourceLines(ofUnit u: Unit) -> SourceLines { document[units[u.index]].source }

    /// The heading level of unit `u`, nil when it is not a heading.
    public func headingLevel(ofUnit u: Unit) -> Int? {
        headingLevels[u.index] == 0 ? nil : Int(headingLevels[u.index])
    }
}

/// The width-independent structure of a document the layout walks: which blocks are units,
/// how ids map to units, and the container decoration.
struct Skeleton {
    let document: Document
    let containers: Containers
    let units: UnitIDs

    init(_ document: Document) {
        self.document = document
        var units = UnitIDs()
        for b in document.blocks where Self.isUnit(b) { units.append(b.id) }
        self.units = units.exactlySized
        self.containers = Containers(document)
    }

    static func isUnit(_ b: Block) -> Bool {
        switch b.kind {
        case .document: return false
        case .blockQuote, .alert, .list, .item: return b.children.isEmpty
        default: return true
        }
    }

    /// Unit `k`: its container prefix, the separator row before the next unit, its rows.
    static func layoutUnit(_ k: Int, units: UnitIDs, document: Document, containers: Containers,
                           options: LayoutOptions, syntax: SyntaxSource? = nil, pictures: PictureSource? = nil,
                           stream: ((VisualLine) -> Void)? = nil) -> BlockLayout {
        let id = units[k]
        let block = document.blocks[id.rawValue]
        // The reading column (`--max-width`, `--align`): a left margin in front of every row,
        // prose capped, top-level code and tables to the right edge.
        let (margin, width) = options.column(wide: document.blocks[id.rawValue].parentIndex == 0 && block.kind.mayUseFullWidth)
        var unitOptions = options
        unitOptions.width = margin + width
        let alert = containers.titledAlert(of: id)
        let prefix = containers.prefix(of: id, width: width, titledAlert: alert?.id).indented(margin)
        let separator = k + 1 < units.count ? containers.separator(between: id, and: units[k + 1], width: width)?.indented(margin, drawingOnly: true) : nil
        let title = alert.map { ($0.kind, containers.prefix(of: $0.id, width: width).indented(margin)) }
        return BlockLayouter.layout(block, prefix: prefix, separator: separator, options: unitOptions,
                                    title: title, syntax: syntax, pictures: pictures, stream: stream)
    }

    init(document: Document, containers: Containers, units: UnitIDs) {
        self.document = document; self.containers = containers; self.units = units
    }

    /// Units `range` (all by default) laid out, on several threads for many units.
    /// Without `syntax` code is not highlighted (the counting pass: highlighting never
    /// changes rows).
    func layoutAll(options: LayoutOptions, parallel: Bool?, range: Range<Int>? = nil,
                   syntax: SyntaxSource? = nil) -> [BlockLayout] {
        mapUnits(parallel: parallel, range: range, executor: options.executor) { k, units, document, containers in
            Self.layoutUnit(k, units: units, document: document, containers: containers, options: options,
                            syntax: syntax)
        }
    }

    /// What a unit's layout leaves when its rows are only counted.
    struct Measured: Sendable {
        var text: String
        var links: [LinkTarget]
        var rows: Int
    }

    /// Unit `k` laid out with its rows counted as they are made and dropped (no row is kept:
    /// counting a document's rows costs the memory of one row at a time per thread).
    static func measureUnit(_ k: Int, units: UnitIDs, document: Document, containers: Containers,
                            options: LayoutOptions, pictures: PictureSource? = nil) -> Measured {
        final class Counter { var rows = 0 }
        let counter = Counter()
        let layout = layoutUnit(k, units: units, document: document, containers: containers, options: options, pictures: pictures,
                                stream: { _ in counter.rows += 1 })
        return Measured(text: layout.text, links: layout.links, rows: counter.rows)
    }

    /// `transform` of each unit of `range` (all by default), in order; on several threads for
    /// many units (`parallel` forces or forbids threads, nil decides by size).
    func mapUnits<T>(parallel: Bool?, range: Range<Int>? = nil, executor: Executor,
                     _ transform: @escaping @Sendable (Int, UnitIDs, Document, Containers) -> T) -> [T] {
        let range = range ?? 0..<units.count
        let count = range.count
        let first = range.lowerBound
        let (units, document, containers) = (self.units, self.document, self.containers)
        guard parallel ?? (count >= MarkdownContent.parallelThreshold), count > 0 else {
            return range.map { transform($0, units, document, containers) }
        }
        // (Runs at once: at most as many as slices, the calling thread among them.)
        return executor.map(count: count, slices: max(1, min(64, count / 256))) { k in
            transform(first + k, units, document, containers)
        }
    }
}

/// The block id of each unit, in 32 bits each (a document of 2^31 blocks would not fit in
/// memory): half of `[BlockID]`.
struct UnitIDs: RandomAccessCollection, Sendable {
    private var ids: [Int32] = []
    init() {}
    var startIndex: Int { 0 }
    var endIndex: Int { ids.count }
    subscript(i: Int) -> BlockID { BlockID(Int(ids[i])) }
    mutating func append(_ id: BlockID) { ids.append(Int32(clamping: id.rawValue)) }
    mutating func reserveCapacity(_ n: Int) { ids.reserveCapacity(n) }
    /// How many units have an id below `id` (the ids ascend).
    func count(below id: Int) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if Int(ids[mid]) < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
    /// The same ids in an array of their size.
    var exactlySized: UnitIDs { var copy = self; copy.ids = ids.exactlySized; return copy }
}
