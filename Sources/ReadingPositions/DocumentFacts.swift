import LineLayout
import MarkdownModel

/// What `resolve` and `capture` need to know about one leaf block of the current document.
/// Width-independent except `weight`, which only steers the last-resort fraction rule.
public struct LeafFacts: Sendable, Equatable {
    public var block: BlockID
    /// The block's content text (`BlockLayout.text`): offsets are UTF-8 offsets into it.
    public var text: String
    /// `StableHash.fingerprint(of: text)`.
    public var fingerprint: StableHash
    /// Titles of the enclosing headings, outermost first; a heading's path ends with itself.
    public var headingPath: [String]
    /// 1-based source lines of the block.
    public var sourceLines: SourceLines
    /// Share of the document this leaf takes (its row count at the current width, or 1).
    public var weight: Int

    public init(block: BlockID, text: String, headingPath: [String], sourceLines: SourceLines, weight: Int = 1) {
        self.block = block
        self.text = text
        self.fingerprint = StableHash.fingerprint(of: text)
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
    let indexOfBlock: [BlockID: Int]
    /// Leaf index → index among the leaves with the same heading path.
    let sectionIndex: [Int]

    public init(leaves: [LeafFacts], sourceLineCount: Int, contentHash: StableHash) {
        self.leaves = leaves
        self.sourceLineCount = sourceLineCount
        self.contentHash = contentHash
        var index: [BlockID: Int] = [:]
        var seen: [[String]: Int] = [:]
        var section: [Int] = []
        section.reserveCapacity(leaves.count)
        for (i, leaf) in leaves.enumerated() {
            index[leaf.block] = i
            let n = seen[leaf.headingPath, default: 0]
            section.append(n)
            seen[leaf.headingPath] = n + 1
        }
        indexOfBlock = index
        sectionIndex = section
    }

    /// Facts from a document and each leaf block's content text (`BlockLayout.text`).
    /// `weight` gives a leaf's share of the document for the fraction rule (e.g. rows).
    public init(document: Document, contentHash: StableHash, text: (BlockID) -> String,
                weight: (BlockID) -> Int = { _ in 1 }) {
        var leaves: [LeafFacts] = []
        // Open headings: (level, title). A heading of level L closes those of level >= L.
        var open: [(level: Int, title: String)] = []
        for block in document.blocks where block.kind.isLeaf {
            let content = text(block.id)
            if case .heading(let level, _) = block.kind {
                while let last = open.last, last.level >= level { open.removeLast() }
                open.append((level, StableHash.normalized(content)))
            }
            leaves.append(LeafFacts(block: block.id, text: content, headingPath: open.map(\.title),
                                    sourceLines: block.source, weight: weight(block.id)))
        }
        self.init(leaves: leaves, sourceLineCount: document.sourceLineCount, contentHash: contentHash)
    }

    /// Facts from the pager's layout: content texts from `layout.blocks`, row counts as weights.
    public init(layout: DocumentLayout, contentHash: StableHash) {
        var texts: [BlockID: String] = [:]
        var rows: [BlockID: Int] = [:]
        for b in layout.blocks {
            texts[b.block] = b.text
            rows[b.block] = b.lines.count
        }
        self.init(document: layout.document, contentHash: contentHash, text: { texts[$0] ?? "" }, weight: { rows[$0] ?? 1 })
    }

    /// Index into `leaves` of a block, nil when it is not a leaf of this document.
    public func leafIndex(of block: BlockID) -> Int? { indexOfBlock[block] }
}
