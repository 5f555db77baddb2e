import LineLayout
import MarkdownModel

/// What `resolve` and `capture` need to know about one leaf block of the current document.
/// Width-independent except `weight`, which only steers the last-resort fraction rule.
public struct LeafFacts: Sendable, Equatable {
    public var block: BlockID
    /// The block's content text (`BlockLayout.text`): offsets are UTF-8 offsets into it.
    /// Empty in facts made from a layout, which read each text from the layout's content when
    /// they need it (`DocumentFacts.text(ofLeaf:)`): a copy of every text of a 20 MB document
    /// held ~25 MB for as long as the document was open.
    public var text: String
    /// UTF-8 bytes of the text.
    public var textLength: Int
    /// `StableHash.fingerprint(of: text)`.
    public var fingerprint: StableHash
    /// Titles of the enclosing headings, outermost first; a heading's path ends with itself.
    public var headingPath: [String]
    /// 1-based source lines of the block.
    public var sourceLines: SourceLines
    /// Share of the document this leaf takes (its row count at the current width, or 1).
    public var weight: Int

    public init(block: BlockID, text: String, headingPath: [String], sourceLines: SourceLines, weight: Int = 1) {
        self.init(block: block, textLength: text.utf8.count, fingerprint: StableHash.fingerprint(of: text),
                  headingPath: headingPath, sourceLines: sourceLines, weight: weight)
        self.text = text
    }

    /// A leaf that keeps its text's length and fingerprint, not the text.
    init(block: BlockID, textLength: Int, fingerprint: StableHash, headingPath: [String], sourceLines: SourceLines,
         weight: Int) {
        self.block = block
        self.text = ""
        self.textLength = textLength
        self.fingerprint = fingerprint
        self.headingPath = headingPath
        self.sourceLines = sourceLines
        self.weight = max(1, weight)
    }
}

/// The facts of every leaf block of a document, in document order. Built once per opened
/// (or re-opened) document; the pager gets it from its `DocumentLayout`.
public struct DocumentFacts: Sendable {
    public let leaves: [LeafFacts]
    /// Number of source lines of the Markdown.
    public let sourceLineCount: Int
    /// `StableHash(bytes:)` of the document's bytes: equal to a stored entry's hash means the
    /// stored anchor is exact.
    public let contentHash: StableHash
    /// Block id → leaf index + 1 (0: not a leaf); ids are dense, so an array, not a dictionary.
    let indexOfBlock: [Int32]
    /// Leaf index → index among the leaves with the same heading path.
    let sectionIndex: [Int32]
    /// Where the leaves' texts are read when the leaves do not keep them (facts made from a
    /// layout).
    let content: (any LayoutContent)?

    /// (Built for every leaf of a document when a position is saved or restored: at 20 MB
    /// that is ~140,000 leaves, so nothing here hashes a heading path per leaf or looks a
    /// leaf up in a dictionary; saving once took 2 s there.)
    public init(leaves: [LeafFacts], sourceLineCount: Int, contentHash: StableHash) {
        self.init(leaves: leaves, sourceLineCount: sourceLineCount, contentHash: contentHash, content: nil)
    }

    init(leaves: [LeafFacts], sourceLineCount: Int, contentHash: StableHash, content: (any LayoutContent)?) {
        self.content = content
        self.leaves = leaves
        self.sourceLineCount = sourceLineCount
        self.contentHash = contentHash
        var index = [Int32](repeating: 0, count: max(0, (leaves.map(\.block.rawValue).max() ?? -1) + 1))
        var seen: [[String]: Int] = [:]
        var section: [Int32] = []
        section.reserveCapacity(leaves.count)
        // Leaves come in runs with one heading path: the count is looked up once per run.
        var runPath: [String]? = nil
        var n = 0
        for (i, leaf) in leaves.enumerated() {
            if leaf.block.rawValue >= 0 { index[leaf.block.rawValue] = Int32(i + 1) }
            if runPath != leaf.headingPath {
                if let runPath { seen[runPath] = n }
                runPath = leaf.headingPath
                n = seen[leaf.headingPath, default: 0]
            }
            section.append(Int32(clamping: n))
            n += 1
        }
        indexOfBlock = index
        sectionIndex = section
    }

    /// Facts from a document and each leaf block's content text (`BlockLayout.text`).
    /// `weight` gives a leaf's share of the document for the fraction rule (e.g. rows).
    public init(document: Document, contentHash: StableHash, text: (BlockID) -> String,
                weight: (BlockID) -> Int = { _ in 1 }) {
        let leaves = Self.leaves(of: document, title: text) { block, path in
            LeafFacts(block: block.id, text: text(block.id), headingPath: path, sourceLines: block.source,
                      weight: weight(block.id))
        }
        self.init(leaves: leaves, sourceLineCount: document.sourceLineCount, contentHash: contentHash)
    }

    /// The leaves of `document` in order, each made by `leaf` with its heading path (the
    /// normalized titles of the open headings, from `title`).
    private static func leaves(of document: Document, title: (BlockID) -> String,
                               leaf: (Block, [String]) -> LeafFacts) -> [LeafFacts] {
        var leaves: [LeafFacts] = []
        // Exactly (appending would leave up to twice the array: 13 MB of slack at 20 MB).
        leaves.reserveCapacity(document.blocks.reduce(0) { $0 + ($1.kind.isLeaf ? 1 : 0) })
        // Open headings: (level, title). A heading of level L closes those of level >= L.
        var open: [(level: Int, title: String)] = []
        // The path as an array shared by every leaf under the same headings (built once per
        // heading, not once per leaf).
        var path: [String] = []
        for block in document.blocks where block.kind.isLeaf {
            if case .heading(let level, _) = block.kind {
                while let last = open.last, last.level >= level { open.removeLast() }
                open.append((level, StableHash.normalized(title(block.id))))
                path = open.map(\.title)
            }
            leaves.append(leaf(block, path))
        }
        return leaves
    }

    /// Facts from the pager's layout: content texts from `layout.blocks`, row counts as weights.
    /// The leaves keep no texts (`text(ofLeaf:)` reads them from the layout's content): each
    /// leaf's fingerprint and length come straight from the content's bytes, and no string is
    /// made per leaf (170,000 at 20 MB), only for headings (their titles make the paths).
    public init(layout: DocumentLayout, contentHash: StableHash) {
        guard let document = layout.document else {
            // A text document: each line is a leaf (the caller keeps this to inputs of a few MB).
            let leaves = (0..<layout.unitCount).map { u in
                LeafFacts(block: layout.content.id(ofUnit: u), text: layout.text(ofUnit: u), headingPath: [],
                          sourceLines: layout.content.sourceLines(ofUnit: u))
            }
            self.init(leaves: leaves, sourceLineCount: layout.content.sourceLineCount, contentHash: contentHash)
            return
        }
        let content = layout.content
        let leaves = Self.leaves(of: document, title: { id in content.unit(of: id).map { content.text(ofUnit: $0) } ?? "" }) {
            block, path in
            let unit = content.unit(of: block.id)
            let (length, fingerprint) = unit.map { u in content.withText(ofUnit: u) { ($0.count, StableHash.fingerprint(utf8: $0)) } }
                ?? (0, StableHash.fingerprint(of: ""))
            return LeafFacts(block: block.id, textLength: length, fingerprint: fingerprint, headingPath: path,
                             sourceLines: block.source, weight: unit.map { layout.index.count(ofUnit: $0) } ?? 1)
        }
        self.init(leaves: leaves, sourceLineCount: document.sourceLineCount, contentHash: contentHash, content: content)
    }

    /// Leaf i's content text: kept in the leaf, or read from the layout's content.
    public func text(ofLeaf i: Int) -> String {
        guard let content else { return leaves[i].text }
        return content.unit(of: leaves[i].block).map { content.text(ofUnit: $0) } ?? ""
    }

    /// Index into `leaves` of a block, nil when it is not a leaf of this document.
    public func leafIndex(of block: BlockID) -> Int? {
        let id = block.rawValue
        guard id >= 0, id < indexOfBlock.count, indexOfBlock[id] > 0 else { return nil }
        return Int(indexOfBlock[id]) - 1
    }
}
