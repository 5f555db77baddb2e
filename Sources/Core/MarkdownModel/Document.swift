/// The immutable Markdown document: a flat, pre-order array of blocks.
///
/// Blocks are stored flat (not as a recursive Swift tree) so that 10,000 nested block quotes
/// can neither overflow the stack when the tree is built, walked or freed. `BlockID` is the
/// pre-order index into `blocks`; it is stable for a given input.
public struct Document: Sendable {
    /// Every block in pre-order; `blocks[0]` is the `.document` root.
    public let blocks: [Block]
    /// Number of lines of the Markdown source (1-based line numbers run 1...sourceLineCount).
    public let sourceLineCount: Int
    /// Link fragments that name a block other than a heading (footnotes: `user-content-fn-x`
    /// → the definition, `user-content-fnref-x` → the block of its first reference).
    public let anchors: [String: BlockID]
    /// Source lines of blocks that are not shown, wholly or in part (HTML comments,
    /// `</details>`, an HTML block shown as the text between its tags, footnote definitions
    /// nothing refers to): lines that may belong to no block yet are not blank.
    public let hiddenLines: [SourceLines]

    public init(blocks: [Block], sourceLineCount: Int, anchors: [String: BlockID] = [:], hiddenLines: [SourceLines] = []) {
        precondition(!blocks.isEmpty, "a document has at least its root block")
        self.blocks = blocks
        self.sourceLineCount = sourceLineCount
        self.anchors = anchors
        self.hiddenLines = hiddenLines
    }

    public var root: BlockID { BlockID(0) }
    public subscript(id: BlockID) -> Block { blocks[id.rawValue] }

    /// The plain text of block `i`'s packed inlines, in place (`BlockKind.withPackedPlainText`
    /// without a closure or a copy of the block: search reads a unit's text through this).
    /// The bytes stay valid while this document, or any copy of it, lives.
    public func unsafePackedPlainText(ofBlock i: Int) -> UnsafeBufferPointer<UInt8>? {
        blocks.withUnsafeBufferPointer { $0[i].kind.unsafePackedPlainText }
    }
}

/// Pre-order index of a block in its document.
public struct BlockID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: BlockID, b: BlockID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// An inclusive range of 1-based source lines.
public struct SourceLines: Hashable, Sendable {
    public var first: Int
    public var last: Int
    public init(_ first: Int, _ last: Int) { self.first = first; self.last = last }
}

public struct Block: Sendable {
    // The fields are in this order so that the flag, the depth and the parent fill the
    // padding after `kind` (Swift lays a struct out in declaration order), the last two in
    // 32 bits, and the id and source lines are 32 bits too: a block is 56 bytes instead of
    // 80, and a 20 MB changelog has 340,000.
    // (Neither a depth nor a block id reaches 2^31: a document of 2^31 blocks would not fit
    // in memory.)
    private let storedID: Int32
    public let kind: BlockKind
    /// A piece of a giant paragraph that goes on from the block before it, on the next row
    /// with no blank row between (see `DocumentBuilder.giantParagraphBytes`).
    public let continuesPrevious: Bool
    private let storedDepth: Int32
    /// The parent's id, -1 for the root.
    private let storedParent: Int32
    /// How many children; in the padding before `storedChildren`.
    private let childCount: Int32
    /// The children's ids, unless there is only one and it is the next block (the first
    /// child of a block is always the next one, in pre-order): then empty, and no array is
    /// allocated — most list items hold one paragraph (140,000 arrays of a changelog's
    /// 168,000).
    private let storedChildren: [Int32]
    /// `source` in 32 bits each (no source has 2^31 lines).
    private let firstLine: Int32, lastLine: Int32

    public var id: BlockID { BlockID(Int(storedID)) }
    public var source: SourceLines { SourceLines(Int(firstLine), Int(lastLine)) }

    public var parent: BlockID? { storedParent < 0 ? nil : BlockID(Int(storedParent)) }
    /// The parent's id as an index, -1 for the root.
    public var parentIndex: Int { Int(storedParent) }
    /// Nesting depth: the root is 0.
    public var depth: Int { Int(storedDepth) }
    /// Direct children, in order.
    public var children: BlockChildren {
        BlockChildren(count: Int(childCount), next: id.rawValue + 1, ids: storedChildren)
    }

    public init(id: BlockID, kind: BlockKind, parent: BlockID?, children: some Collection<BlockID>, depth: Int,
                source: SourceLines, continuesPrevious: Bool = false) {
        self.storedID = Int32(clamping: id.rawValue); self.kind = kind
        self.storedParent = parent.map { Int32(clamping: $0.rawValue) } ?? -1
        self.storedDepth = Int32(clamping: depth)
        self.firstLine = Int32(clamping: source.first); self.lastLine = Int32(clamping: source.last)
        self.continuesPrevious = continuesPrevious
        childCount = Int32(clamping: children.count)
        storedChildren = children.count == 1 && children.first?.rawValue == id.rawValue + 1
            ? [] : children.map { Int32(clamping: $0.rawValue) }
    }
}

/// A block's children (`Block.children`): a collection of ids read from the block's compact
/// storage.
public struct BlockChildren: RandomAccessCollection, Equatable, Sendable {
    public let count: Int
    /// The only child when `ids` is empty.
    private let next: Int
    private let ids: [Int32]

    init(count: Int, next: Int, ids: [Int32]) { self.count = count; self.next = next; self.ids = ids }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(i: Int) -> BlockID {
        precondition(i >= 0 && i < count, "child index out of range")
        return ids.isEmpty ? BlockID(next + i) : BlockID(Int(ids[i]))
    }

    public static func == (a: BlockChildren, b: BlockChildren) -> Bool { a.elementsEqual(b) }
}

public enum BlockKind: Sendable, Equatable {
    case document
    case blockQuote
    /// A GitHub alert: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
    /// `[!WARNING]` or `[!CAUTION]` (the marker line is removed from its first paragraph).
    case alert(AlertKind)
    indirect case list(ListInfo)
    case item(ItemInfo)
    case paragraph(Inlines)
    // The cases with large payloads are `indirect` (boxed): every block pays for the largest
    // inline payload, and paragraphs and items are most blocks. A heading's level and inlines
    // (24 bytes) would make every block 72 bytes instead of 64; headings are few.
    indirect case heading(level: Int, Inlines)
    indirect case codeBlock(info: String, literal: String, fenced: Bool)
    case htmlBlock(String)
    case thematicBreak
    indirect case table(Table)
    /// The `<summary>` of an HTML `<details>`: one marked line (the details' body follows as
    /// ordinary blocks).
    case summary(Inlines)
    /// YAML (`---`) or TOML (`+++`) front matter at the top of the source: its lines between
    /// the fences.
    indirect case frontMatter(literal: String, toml: Bool)

    /// The same kind with its inlines packed (`Inlines.packed()`): what a parse leaves in a
    /// finished block.
    public func packed() -> BlockKind {
        var arena = PackedArena()
        defer { arena.finish() }
        return packed(into: &arena)
    }

    /// `packed()`, into `arena` (`DocumentBuilder` packs a parse's blocks into one).
    func packed(into arena: inout PackedArena) -> BlockKind {
        switch self {
        case .paragraph(let inlines): return .paragraph(inlines.packed(into: &arena))
        case .heading(let level, let inlines): return .heading(level: level, inlines.packed(into: &arena))
        case .summary(let inlines): return .summary(inlines.packed(into: &arena))
        case .table(var table):
            table.header = table.header.map { $0.packed(into: &arena) }
            table.rows = table.rows.map { $0.map { $0.packed(into: &arena) } }
            return .table(table)
        case .document, .blockQuote, .alert, .list, .item, .codeBlock, .htmlBlock, .thematicBreak, .frontMatter:
            return self
        }
    }

    /// `body` of the plain text of a paragraph's, heading's or summary's packed inlines, where
    /// they keep it (`Inlines.withPackedPlainText`); nil for other kinds and unpacked inlines.
    public func withPackedPlainText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let bytes = unsafePackedPlainText else { return nil }
        return withExtendedLifetime(self) { body(bytes) }
    }

    /// The bytes `withPackedPlainText` reads: valid while this kind (or a copy) lives.
    var unsafePackedPlainText: UnsafeBufferPointer<UInt8>? {
        switch self {
        case .paragraph(let inlines), .heading(_, let inlines), .summary(let inlines):
            return inlines.packedBytes?.unsafePlainText
        default: return nil
        }
    }

    /// True for blocks that hold no other blocks (what the layout turns into rows).
    public var isLeaf: Bool {
        switch self {
        case .document, .blockQuote, .alert, .list, .item: return false
        default: return true
        }
    }
}

public enum AlertKind: String, Sendable, Equatable, CaseIterable {
    case note, tip, important, warning, caution

    /// The title GitHub shows: `Note`, `Tip`, … (Spelled out: `String + Substring` is the
    /// standard library's generic `append(contentsOf:)`, whose first call in a process looks
    /// its associated types up over every conformance in the binary, in the first screen.)
    public var title: String {
        switch self {
        case .note: "Note"
        case .tip: "Tip"
        case .important: "Important"
        case .warning: "Warning"
        case .caution: "Caution"
        }
    }
}

public struct ListInfo: Sendable, Equatable {
    public var ordered: Bool
    /// First number of an ordered list (cmark's start), 1 for bullet lists.
    public var start: Int
    /// Tight lists have no blank line between items.
    public var tight: Bool
    /// `.` or `)` for ordered lists; the bullet character (`-`, `*`, `+`) for bullet lists.
    public var delimiter: Character
    public init(ordered: Bool, start: Int, tight: Bool, delimiter: Character) {
        self.ordered = ordered; self.start = start; self.tight = tight; self.delimiter = delimiter
    }
}

public struct ItemInfo: Sendable, Equatable {
    public enum Task: Sendable, Equatable { case unchecked, checked }
    /// GitHub task list state; the `[ ]`/`[x]` text has been removed from the item's first paragraph.
    public var task: Task?
    public init(task: Task? = nil) { self.task = task }
}

public enum TableAlignment: Sendable, Equatable { case none, left, center, right }

public struct Table: Sendable, Equatable {
    public var alignments: [TableAlignment]
    /// Header cells; every row has exactly `alignments.count` cells (missing cells are empty).
    public var header: [Inlines]
    public var rows: [[Inlines]]
    public init(alignments: [TableAlignment], header: [Inlines], rows: [[Inlines]]) {
        self.alignments = alignments; self.header = header; self.rows = rows
    }
}

/// Inline content as a flat pre-order list: each node is followed by its `descendantCount`
/// descendants. Flat, so deep emphasis nesting cannot overflow the stack.
///
/// Two forms behind one API. While a parse builds and rewrites inlines they are an array of
/// nodes; a finished block's inlines are *packed* (`packed()`, see `PackedInlines`): one byte
/// buffer holding every node and its text. Packed, a changelog's inlines take a fraction of
/// what they took as nodes (an array of 24-byte nodes, a heap string with its 32-byte header for every
/// text over 15 bytes, a box for every link). Reading `nodes` of packed inlines decodes them
/// (what a layout of a block on screen, or a search text, pays once); writing them makes them
/// an array again.
public struct Inlines: Sendable, Equatable {
    private var storage: Storage
    private enum Storage: Sendable {
        case nodes([InlineNode])
        case packed(PackedInlines)
    }

    public init(_ nodes: [InlineNode] = []) { storage = .nodes(nodes) }

    public var nodes: [InlineNode] {
        get {
            switch storage {
            case .nodes(let nodes): return nodes
            case .packed(let packed): return packed.nodes()
            }
        }
        set { storage = .nodes(newValue) }
        _modify {
            var nodes: [InlineNode]
            switch storage {
            case .nodes(let n): nodes = n
            case .packed(let packed): nodes = packed.nodes()
            }
            storage = .nodes([])  // `nodes` is now the only reference: mutated in place
            defer { storage = .nodes(nodes) }
            yield &nodes
        }
    }

    public var isEmpty: Bool {
        switch storage {
        case .nodes(let nodes): return nodes.isEmpty
        case .packed: return false  // empty inlines are never packed
        }
    }

    /// The same inlines in their packed form (empty inlines stay an empty array).
    public func packed() -> Inlines {
        guard case .nodes(let nodes) = storage, !nodes.isEmpty else { return self }
        var result = self
        result.storage = .packed(PackedInlines(nodes))
        return result
    }

    /// `packed()`, at the end of `arena`.
    func packed(into arena: inout PackedArena) -> Inlines {
        guard case .nodes(let nodes) = storage, !nodes.isEmpty else { return self }
        var result = self
        result.storage = .packed(PackedInlines(nodes, into: &arena))
        return result
    }

    /// Whether these inlines are in their packed form (for tests and `folio-bench --memory`).
    public var isPacked: Bool { if case .packed = storage { true } else { false } }

    /// The first node (of packed inlines, decoded alone).
    var firstNode: InlineNode? {
        switch storage {
        case .nodes(let nodes): return nodes.first
        case .packed(let packed): return packed.firstNode()
        }
    }

    /// True when these inlines are packed and `byte` is nowhere in them, so no text holds it
    /// (a pass that looks for `^` skips them without decoding); false says nothing.
    func packedLacks(_ byte: UInt8) -> Bool {
        if case .packed(let packed) = storage { return !packed.contains(byte: byte) }
        return false
    }

    /// Whether two text nodes follow each other at the top level.
    var hasAdjacentTopLevelText: Bool {
        if case .packed(let packed) = storage { return packed.hasAdjacentTopLevelText }
        let nodes = self.nodes
        var k = 0, lastIsText = false
        while k < nodes.count {
            let isText: Bool
            if case .text = nodes[k].kind { isText = true } else { isText = false }
            if isText && lastIsText { return true }
            lastIsText = isText
            k += nodes[k].descendantCount + 1
        }
        return false
    }

    /// `body` of the plain text's bytes where packed inlines keep them (`plainText` without a
    /// copy); nil when these inlines are not packed.
    public func withPackedPlainText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        if case .packed(let packed) = storage { return packed.withPlainText(body) }
        return nil
    }

    /// Bytes of the packed buffer (0 when not packed).
    public var packedByteCount: Int { packedBytes?.byteCount ?? 0 }

    /// The packed bytes, when packed.
    var packedBytes: PackedInlines? { if case .packed(let p) = storage { p } else { nil } }

    /// Equal nodes (strings compared as Swift compares them, by canonical equivalence),
    /// whatever the forms: equal packed bytes prove it at once.
    public static func == (a: Inlines, b: Inlines) -> Bool {
        if case .packed(let x) = a.storage, case .packed(let y) = b.storage, x == y { return true }
        return a.nodes == b.nodes
    }
}

public struct InlineNode: Sendable, Equatable {
    public var kind: InlineKind
    /// Kept in 32 bits, in the padding after `kind`: a node is 24 bytes instead of 32, and
    /// a 20 MB changelog has 660,000 of them. (No paragraph has 2^31 nodes: giant ones are
    /// cut into pieces of ~16 KB.)
    private var descendants: Int32
    /// Number of nodes after this one that belong to its subtree (0 for leaves).
    public var descendantCount: Int {
        get { Int(descendants) }
        set { descendants = Int32(clamping: newValue) }
    }
    public init(_ kind: InlineKind, descendantCount: Int = 0) {
        self.kind = kind; self.descendants = Int32(clamping: descendantCount)
    }
}

public enum InlineKind: Sendable, Equatable {
    // Leaves
    case text(String)
    case code(String)
    case html(String)
    case softBreak
    case lineBreak
    // Containers (their children follow them)
    case emphasis
    case strong
    case strikethrough
    /// `autolink` is true for `<https://…>` and bare GitHub-style autolinks.
    // Boxed, so that every node is not as large as a link (48 → 32 bytes a node).
    indirect case link(destination: String, title: String, autolink: Bool)
    /// Children are the alt text.
    indirect case image(source: String, title: String)
}

extension BlockKind {
    /// The same kind, its box (an `indirect` case) and the strings and arrays in it allocated
    /// anew (`ChunkPlan.join` moves every piece's blocks into the document with it).
    ///
    /// A large source's pieces are parsed on several threads, and each block's box is made
    /// among that piece's short-lived garbage: once the garbage is freed, the boxes pin a
    /// page each here and there, which the heap cannot give back. Made again by the join,
    /// one after the other, they fill whole pages, and the old ones' pages go back
    /// (`scripts/memory-bench.sh` measures it). The packed inlines
    /// are in arenas of ~1 MB (`PackedArena`) and are kept as they are.
    func reallocated() -> BlockKind {
        func fresh(_ s: String) -> String {
            var s = s
            return s.withUTF8 { utf8 in String(unsafeUninitializedCapacity: utf8.count) { _ = $0.initialize(fromContentsOf: utf8); return utf8.count } }
        }
        switch self {
        case .list(let info): return .list(info)
        case .heading(let level, let inlines): return .heading(level: level, inlines)
        case .codeBlock(let info, let literal, let fenced): return .codeBlock(info: fresh(info), literal: fresh(literal), fenced: fenced)
        case .htmlBlock(let s): return .htmlBlock(fresh(s))
        case .table(let table):
            return .table(Table(alignments: Array(table.alignments), header: Array(table.header),
                                rows: table.rows.map { Array($0) }))
        case .frontMatter(let literal, let toml): return .frontMatter(literal: fresh(literal), toml: toml)
        case .document, .blockQuote, .alert, .item, .paragraph, .thematicBreak, .summary: return self
        }
    }
}
