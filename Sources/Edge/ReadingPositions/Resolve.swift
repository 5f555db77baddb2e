import LineLayout
import MarkdownModel

/// An anchor found for a stored position, and which fact found it.
public struct ResolvedPosition: Hashable, Sendable {
    /// The rules of `resolve`, most exact first.
    public enum Rule: String, Hashable, Sendable {
        /// Same content: the stored anchor as it was.
        case exact
        /// The anchor block's text was found again (nearest its old index).
        case fingerprint
        /// The text changed; the same section was found (the same leaf of it, if it still has that many).
        case headingPath
        /// The block that now holds the stored source line.
        case sourceLine
        /// A large text document's line that now holds the stored byte offset (`LargeText`).
        case byteOffset
        /// The same fraction of the document (or the start of an empty one).
        case fraction
    }
    public var anchor: Anchor
    public var rule: Rule
    public init(anchor: Anchor, rule: Rule) { self.anchor = anchor; self.rule = rule }
}

/// Captures the position of `anchor` (normally the top row's anchor) for storing.
///
/// - Parameters:
///   - fraction: how far through the document the view is, 0...1 (e.g. top row / row count).
///   - sourceLine: the source line of the anchor's row; defaults to the block's first line.
public func capture(anchor: Anchor, facts: DocumentFacts, fraction: Double, sourceLine: Int? = nil) -> ReadingPosition {
    guard !facts.leaves.isEmpty else {
        return ReadingPosition(anchor: anchor, leafIndex: 0, fingerprint: StableHash.fingerprint(of: ""),
                               headingPath: [], sectionIndex: 0, sourceLine: sourceLine ?? 1, fraction: fraction)
    }
    // A container block (should not happen for a row's anchor) stands for its first leaf.
    let index = facts.leafIndex(of: anchor.block)
        ?? facts.leaves.firstIndex { $0.block >= anchor.block }
        ?? facts.leaves.count - 1
    let leaf = facts.leaves[index]
    return ReadingPosition(anchor: anchor, leafIndex: index, fingerprint: leaf.fingerprint,
                           headingPath: leaf.headingPath, sectionIndex: facts.sectionIndex(ofLeaf: index),
                           sourceLine: sourceLine ?? leaf.sourceLines.first, fraction: fraction)
}

/// Finds `stored` in the current document, by the most exact fact that still holds:
///
/// 1. same content hash → the stored anchor, exactly;
/// 2. a leaf with the same text fingerprint → the one nearest the old leaf index (preferring
///    one under the same headings), offset and ordinal kept (offset clamped and snapped down
///    to a character boundary);
/// 3. leaves with the same (non-empty) heading path → the same leaf of that section, or its
///    last one, offset kept (clamped, snapped);
/// 4. the leaf holding the stored source line (or the last one starting before it), the
///    offset estimated from the line's place in the block;
/// 5. the leaf at the stored fraction of the document (leaves weighted by `LeafFacts.weight`).
public func resolve(_ stored: ReadingPosition, storedContentHash: StableHash, in current: DocumentFacts) -> ResolvedPosition {
    let leaves = current.leaves
    guard !leaves.isEmpty else {
        return ResolvedPosition(anchor: Anchor(block: BlockID(0), offset: 0), rule: .fraction)
    }

    // 1. Same bytes: the same blocks, the same texts — if read as the same kind. The same
    // bytes read as Markdown and as text (a file left as Markdown, then piped and sniffed as
    // text) number their units differently: then the anchor's unit no longer holds its
    // source line, and the rules below find the place by its text or its line.
    if storedContentHash == current.contentHash, let i = current.leafIndex(of: stored.anchor.block),
       stored.anchor.offset >= 0, stored.anchor.offset <= leaves[i].textLength,
       leaves[i].sourceLines.first <= stored.sourceLine, stored.sourceLine <= max(leaves[i].sourceLines.first, leaves[i].sourceLines.last) {
        return ResolvedPosition(anchor: stored.anchor, rule: .exact)
    }

    // 2. The same text elsewhere. An empty text (a rule, an empty block) proves nothing.
    if stored.fingerprint != emptyFingerprint {
        var best: (rank: (Int, Int), index: Int)?
        for (i, leaf) in leaves.enumerated() where leaf.fingerprint == stored.fingerprint {
            let rank = (leaf.headingPath == stored.headingPath ? 0 : 1, abs(i - stored.leafIndex))
            if best == nil || rank < best!.rank { best = (rank, i) }
        }
        if let i = best?.index {
            let leaf = leaves[i]
            return ResolvedPosition(
                anchor: Anchor(block: leaf.block, offset: snapOffset(stored.anchor.offset, in: current.text(ofLeaf: i)),
                               ordinal: stored.anchor.ordinal),
                rule: .fingerprint)
        }
    }

    // 3. The same section. No headings at all is no fact.
    if !stored.headingPath.isEmpty {
        let section = leaves.indices.filter { leaves[$0].headingPath == stored.headingPath }
        if let last = section.last {
            let i = stored.sectionIndex < section.count ? section[stored.sectionIndex] : last
            let leaf = leaves[i]
            return ResolvedPosition(
                anchor: Anchor(block: leaf.block, offset: snapOffset(stored.anchor.offset, in: current.text(ofLeaf: i))),
                rule: .headingPath)
        }
    }

    // 4. The same source line, while the document still has it.
    let line = stored.sourceLine
    if line >= 1, line <= current.sourceLineCount {
        let i = leaves.firstIndex { $0.sourceLines.first <= line && line <= $0.sourceLines.last }
            ?? leaves.lastIndex { $0.sourceLines.first <= line }
            ?? 0
        let leaf = leaves[i]
        let span = max(1, leaf.sourceLines.last - leaf.sourceLines.first + 1)
        let into = min(max(0, line - leaf.sourceLines.first), span - 1)
        let estimate = leaf.textLength * into / span
        return ResolvedPosition(anchor: Anchor(block: leaf.block, offset: snapOffset(estimate, in: current.text(ofLeaf: i))),
                                rule: .sourceLine)
    }

    // 5. The same fraction of the document.
    let total = leaves.reduce(0) { $0 + $1.weight }
    let target = ReadingPosition.clampFraction(stored.fraction) * Double(total)
    var start = 0
    for (i, leaf) in leaves.enumerated() {
        let end = start + leaf.weight
        if target < Double(end) || leaf.block == leaves.last!.block {
            let into = min(1, max(0, (target - Double(start)) / Double(leaf.weight)))
            let estimate = Int(Double(leaf.textLength) * into)
            return ResolvedPosition(anchor: Anchor(block: leaf.block, offset: snapOffset(estimate, in: current.text(ofLeaf: i))),
                                    rule: .fraction)
        }
        start = end
    }
    preconditionFailure("unreachable: the last leaf always matches")
}

private let emptyFingerprint = StableHash.fingerprint(of: "")

/// `offset` clamped to `0...text.utf8.count` and moved down to the start of the character
/// (grapheme cluster) it falls in, so it is a valid UTF-8 and grapheme boundary.
public func snapOffset(_ offset: Int, in text: String) -> Int {
    if offset <= 0 { return 0 }
    var position = 0
    for ch in text {
        let next = position + ch.utf8.count
        if next > offset { return position }
        position = next
    }
    return position
}
