import LineLayout
import MarkdownModel

/// What `resolve` and `capture` need to know about one leaf block of the current document.
/// Width-independent except `weight`, which only steers the last-resort fraction rule.
public struct LeafFacts: Sendable, Equatable {
    public var block: BlockID
    /// The block's content text (`BlockLayout.text`): offsets are UTF-8 offsets into it.
    /// Empty in facts made from a layout, which read each text from the layout's content when
    /// they need it (`DocumentFacts.text(ofLeaf:)`): a copy of every text of a large document
    /// held more than the document for as long as it was open.
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
    public let leaves: Leaves
    /// Number of source lines of the Markdown.
    public let sourceLineCount: Int
    /// `StableHash(bytes:)` of the document's bytes: equal to a stored entry's hash means the
    /// stored anchor is exact.
    public let contentHash: StableHash

    /// (Built for every leaf of a document when a position is saved or restored, which may
    /// be hundreds of thousands of leaves, so nothing here hashes a heading path per leaf or
    /// looks a leaf up in a dictionary; saving once took seconds so.)
    public init(leaves: [LeafFacts], sourceLineCount: Int, contentHash: StableHash) {
        self.init(leaves: Leaves(kept: leaves), sourceLineCount: sourceLineCount, contentHash: contentHash)
    }

    /// Facts from a document and each leaf block's content text (`BlockLayout.text`).
    /// `weight` gives a leaf's share of the document for the fraction rule (e.g. rows).
    public init(document: Document, contentHash: StableHash, text: (BlockID) -> String,
                weight: (BlockID) -> Int = { _ in 1 }) {
        var leaves: [LeafFacts] = []
        leaves.reserveCapacity(document.blocks.reduce(0) { $0 + ($1.kind.isLeaf ? 1 : 0) })
        var paths = HeadingPaths()
        for block in document.blocks where block.kind.isLeaf {
            let path = paths.path(after: block, title: text)
            leaves.append(LeafFacts(block: block.id, text: text(block.id), headingPath: paths.paths[path],
                                    sourceLines: block.source, weight: weight(block.id)))
        }
        self.init(leaves: leaves, sourceLineCount: document.sourceLineCount, contentHash: contentHash)
    }

    /// Facts from the pager's layout, compact: per leaf its block, heading path (a number:
    /// the paths are kept once each) and weight (its row count), 12 bytes; its text, length,
    /// fingerprint and source lines are read from the layout's content and document when
    /// asked for (`Leaves`: a fingerprint is hashed straight from the content's bytes when a
    /// position is resolved). Leaves of 72 bytes (a path array, source lines and a length
    /// each) and the indexes beside them held several times more for as long as the document
    /// was open. No string is made
    /// per leaf, only for headings (their titles make the paths).
    public init(layout: DocumentLayout, contentHash: StableHash) {
        guard let document = layout.document else {
            // A text document: each line is a leaf (the caller keeps this to inputs of a few MB).
            let leaves = layout.unitRange.map { u in
                LeafFacts(block: layout.content.id(ofUnit: u), text: layout.text(ofUnit: u), headingPath: [],
                          sourceLines: layout.content.sourceLines(ofUnit: u))
            }
            self.init(leaves: leaves, sourceLineCount: layout.content.sourceLineCount, contentHash: contentHash)
            return
        }
        let content = layout.content
        let count = document.blocks.reduce(0) { $0 + ($1.kind.isLeaf ? 1 : 0) }
        var compact: [Leaves.CompactLeaf] = [], weights: [UInt32] = []
        compact.reserveCapacity(count)
        weights.reserveCapacity(count)
        var paths = HeadingPaths()
        let title = { (id: BlockID) in content.unit(of: id).map { content.text(ofUnit: $0) } ?? "" }
        for block in document.blocks where block.kind.isLeaf {
            let path = paths.path(after: block, title: title)
            let unit = content.unit(of: block.id)
            compact.append(Leaves.CompactLeaf(block: Int32(clamping: block.id.rawValue), path: Int32(path)))
            weights.append(UInt32(clamping: unit.map { layout.index.count(ofUnit: $0) } ?? 1))
        }
        self.init(leaves: Leaves(compact: compact, weights: weights, paths: paths.paths, document: document, content: content),
                  sourceLineCount: document.sourceLineCount, contentHash: contentHash)
    }

    private init(leaves: Leaves, sourceLineCount: Int, contentHash: StableHash) {
        self.leaves = leaves
        self.sourceLineCount = sourceLineCount
        self.contentHash = contentHash
    }

    /// Leaf i's content text: kept in the leaf, or read from the layout's content.
    public func text(ofLeaf i: Int) -> String { leaves.text(ofLeaf: i) }

    /// Index into `leaves` of a block, nil when it is not a leaf of this document.
    public func leafIndex(of block: BlockID) -> Int? { leaves.index(of: block) }

    /// Leaf i's index among the leaves with the same heading path (`ReadingPosition.sectionIndex`).
    public func sectionIndex(ofLeaf i: Int) -> Int { leaves.sectionIndex(ofLeaf: i) }
}

/// The heading paths met walking a document's leaves in order, each kept once.
private struct HeadingPaths {
    private(set) var paths: [[String]] = [[]]
    private var numbers: [[String]: Int] = [[]: 0]
    /// Open headings: (level, normalized title). A heading of level L closes those of level >= L.
    private var open: [(level: Int, title: String)] = []
    private var current = 0

    /// The number of the path of `block` (a leaf, met in document order): a heading's path
    /// ends with itself.
    mutating func path(after block: Block, title: (BlockID) -> String) -> Int {
        guard case .heading(let level, _) = block.kind else { return current }
        while let last = open.last, last.level >= level { open.removeLast() }
        open.append((level, StableHash.normalized(title(block.id))))
        let path = open.map(\.title)
        if let known = numbers[path] {
            current = known
        } else {
            current = paths.count
            numbers[path] = current
            paths.append(path)
        }
        return current
    }
}

/// The leaves of `DocumentFacts`, in document order: kept as `LeafFacts` (facts made from
/// texts), or compact (facts made from a layout), each `LeafFacts` then made when read.
public struct Leaves: RandomAccessCollection, Sendable {
    struct CompactLeaf: Sendable {
        var block: Int32
        var path: Int32
    }
    private enum Storage: Sendable {
        /// With block id → leaf index + 1 (0: not a leaf; ids are dense, so an array) and
        /// each leaf's index in its section.
        case kept([LeafFacts], indexOfBlock: [Int32], sectionIndex: [Int32])
        case compact([CompactLeaf], weights: [UInt32], paths: [[String]], document: Document,
                     content: any LayoutContent)
    }
    private let storage: Storage

    init(kept leaves: [LeafFacts]) {
        var index = [Int32](repeating: 0, count: Swift.max(0, (leaves.map(\.block.rawValue).max() ?? -1) + 1))
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
        storage = .kept(leaves, indexOfBlock: index, sectionIndex: section)
    }

    init(compact: [CompactLeaf], weights: [UInt32], paths: [[String]], document: Document, content: any LayoutContent) {
        storage = .compact(compact, weights: weights, paths: paths, document: document, content: content)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .kept(let leaves, _, _): return leaves.count
        case .compact(let leaves, _, _, _, _): return leaves.count
        }
    }

    public subscript(i: Int) -> LeafFacts {
        switch storage {
        case .kept(let leaves, _, _): return leaves[i]
        case .compact(let leaves, let weights, let paths, let document, let content):
            let leaf = leaves[i]
            let block = BlockID(Int(leaf.block))
            let (length, fingerprint) = content.unit(of: block).map { u in
                content.withText(ofUnit: u) { ($0.count, StableHash.fingerprint(utf8: $0)) }
            } ?? (0, StableHash.fingerprint(of: ""))
            return LeafFacts(block: block, textLength: length, fingerprint: fingerprint,
                             headingPath: paths[Int(leaf.path)], sourceLines: document[block].source,
                             weight: Int(weights[i]))
        }
    }

    /// Leaf i's content text.
    func text(ofLeaf i: Int) -> String {
        switch storage {
        case .kept(let leaves, _, _): return leaves[i].text
        case .compact(let leaves, _, _, _, let content):
            return content.unit(of: BlockID(Int(leaves[i].block))).map { content.text(ofUnit: $0) } ?? ""
        }
    }

    /// Index of a block's leaf, nil when it is not a leaf.
    func index(of block: BlockID) -> Int? {
        let id = block.rawValue
        switch storage {
        case .kept(_, let indexOfBlock, _):
            guard id >= 0, id < indexOfBlock.count, indexOfBlock[id] > 0 else { return nil }
            return Int(indexOfBlock[id]) - 1
        case .compact(let leaves, _, _, _, _):
            // Leaves are in document order: their ids ascend.
            var low = 0, high = leaves.count
            while low < high {
                let mid = (low + high) / 2
                if Int(leaves[mid].block) < id { low = mid + 1 } else { high = mid }
            }
            return low < leaves.count && Int(leaves[low].block) == id ? low : nil
        }
    }

    /// Leaf i's index among the leaves with the same heading path (counted: it is asked for
    /// once per saved position).
    func sectionIndex(ofLeaf i: Int) -> Int {
        switch storage {
        case .kept(_, _, let sectionIndex): return Int(sectionIndex[i])
        case .compact(let leaves, _, _, _, _):
            let path = leaves[i].path
            return leaves[..<i].reduce(0) { $0 + ($1.path == path ? 1 : 0) }
        }
    }
}
