import LineLayout
import MarkdownModel
@testable import ReadingPositions

/// Builds `DocumentFacts` for a small Markdown subset by hand — ATX headings (`#`…) and
/// paragraphs separated by blank lines — with real `Document` blocks, so the heading-path code
/// of `DocumentFacts(document:…)` runs as it does for the pager.
/// (Independent of the cmark bridge, so these tests do not move when the parser does.)
func facts(_ markdown: String) -> DocumentFacts {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var kinds: [(BlockKind, SourceLines, String)] = []
    var paragraph: [String] = []
    var paragraphStart = 0
    func closeParagraph(at line: Int) {
        guard !paragraph.isEmpty else { return }
        let text = paragraph.joined(separator: " ")
        kinds.append((.paragraph(Inlines([InlineNode(.text(text))])), SourceLines(paragraphStart, line - 1), text))
        paragraph = []
    }
    for (i, line) in lines.enumerated() {
        let number = i + 1
        if line.trimmingCharacters(in: .whitespaces).isEmpty {
            closeParagraph(at: number)
        } else if line.hasPrefix("#") {
            closeParagraph(at: number)
            let level = line.prefix { $0 == "#" }.count
            let title = String(line.dropFirst(level)).trimmingCharacters(in: .whitespaces)
            kinds.append((.heading(level: level, Inlines([InlineNode(.text(title))])), SourceLines(number, number), title))
        } else {
            if paragraph.isEmpty { paragraphStart = number }
            paragraph.append(line.trimmingCharacters(in: .whitespaces))
        }
    }
    closeParagraph(at: lines.count + 1)
    let ids = kinds.indices.map { BlockID($0 + 1) }
    var blocks = [Block(id: BlockID(0), kind: .document, parent: nil, children: ids, depth: 0,
                        source: SourceLines(1, max(1, lines.count)))]
    var texts: [BlockID: String] = [:]
    for (i, (kind, source, text)) in kinds.enumerated() {
        blocks.append(Block(id: ids[i], kind: kind, parent: BlockID(0), children: [], depth: 1, source: source))
        texts[ids[i]] = text
    }
    let document = Document(blocks: blocks, sourceLineCount: lines.count)
    return DocumentFacts(document: document, contentHash: StableHash(bytes: markdown.utf8), text: { texts[$0] ?? "" })
}

extension DocumentFacts {
    /// The leaf whose text starts with `prefix`.
    func leaf(startingWith prefix: String) -> LeafFacts {
        guard let i = leaves.indices.first(where: { text(ofLeaf: $0).hasPrefix(prefix) }) else {
            fatalError("no leaf starts with \(prefix)")
        }
        return leaves[i]
    }

    /// The content text from the anchor on — what the reader sees first.
    func textAt(_ anchor: Anchor) -> String {
        guard let i = leafIndex(of: anchor.block) else { return "<not a leaf: \(anchor.block)>" }
        let utf8 = Array(text(ofLeaf: i).utf8)
        return String(decoding: utf8[min(anchor.offset, utf8.count)...], as: UTF8.self)
    }

    /// Captures the position at `offset` into the leaf starting with `prefix`.
    func position(at prefix: String, offset: Int = 0) -> ReadingPosition {
        let leaf = leaf(startingWith: prefix)
        let i = leafIndex(of: leaf.block)!
        return capture(anchor: Anchor(block: leaf.block, offset: offset), facts: self,
                       fraction: Double(i) / Double(max(1, leaves.count)))
    }
}
