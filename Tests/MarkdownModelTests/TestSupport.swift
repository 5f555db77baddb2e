import Testing
@testable import MarkdownModel

/// Parses `markdown` and checks the structural invariants every document must satisfy.
func parsed(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) -> Document {
    let document = MarkdownParser.parse(markdown)
    checkInvariants(document, sourceLocation: sourceLocation)
    return document
}

/// The dump of `markdown`, without its final newline (so that `"""` literals compare equal).
func dump(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    var text = parsed(markdown, sourceLocation: sourceLocation).dump()
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// The inline dump of the only paragraph of `markdown`.
func inlineDump(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let document = parsed(markdown, sourceLocation: sourceLocation)
    guard document.blocks.count == 2, case .paragraph(let inlines) = document.blocks[1].kind else {
        Issue.record("expected one paragraph, got:\n\(document.dump())", sourceLocation: sourceLocation)
        return ""
    }
    return DumpText.inline(inlines)
}

/// The inlines of the only paragraph of `markdown`.
func paragraphInlines(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) -> [InlineNode] {
    let document = parsed(markdown, sourceLocation: sourceLocation)
    guard document.blocks.count == 2, case .paragraph(let inlines) = document.blocks[1].kind else {
        Issue.record("expected one paragraph, got:\n\(document.dump())", sourceLocation: sourceLocation)
        return []
    }
    return inlines.nodes
}

/// IDs are pre-order indices, parents and children agree, subtrees are contiguous, source
/// lines are ordered and in range, inline subtrees are well nested, tables are rectangular.
func checkInvariants(_ document: Document, sourceLocation: SourceLocation = #_sourceLocation) {
    let blocks = document.blocks
    var failures: [String] = []
    func fail(_ message: String) { if failures.count < 5 { failures.append(message) } }

    if case .document = blocks[0].kind {} else { fail("root is not a document") }
    if blocks[0].parent != nil || blocks[0].depth != 0 { fail("root has a parent or depth") }
    let lineLimit = max(1, document.sourceLineCount)
    // Last pre-order index of each block's subtree, computed back to front.
    var subtreeEnd = Array(blocks.indices)
    for index in blocks.indices.reversed() {
        if let last = blocks[index].children.last { subtreeEnd[index] = subtreeEnd[last.rawValue] }
    }
    for (index, block) in blocks.enumerated() {
        if block.id.rawValue != index { fail("block \(index) has id \(block.id)") }
        let lines = block.source
        if !(1 <= lines.first && lines.first <= lines.last && lines.last <= lineLimit) { fail("\(block.id) lines \(lines)") }
        if index > 0 {
            guard let parent = block.parent, parent.rawValue < index else { fail("\(block.id) parent \(String(describing: block.parent))"); continue }
            let parentBlock = blocks[parent.rawValue]
            if !parentBlock.children.contains(block.id) { fail("\(parent) does not list child \(block.id)") }
            if block.depth != parentBlock.depth + 1 { fail("\(block.id) depth \(block.depth)") }
            if lines.first < parentBlock.source.first || lines.last > parentBlock.source.last {
                fail("\(block.id) lines \(lines) outside parent \(parent) \(parentBlock.source)")
            }
        }
        var expected = index + 1
        for child in block.children {
            if child.rawValue != expected { fail("\(block.id): child \(child) should be #\(expected)") }
            if blocks[child.rawValue].parent != block.id { fail("\(child) parent is not \(block.id)") }
            expected = subtreeEnd[child.rawValue] + 1
        }
        if block.kind.isLeaf && !block.children.isEmpty { fail("leaf \(block.id) has children") }
        switch block.kind {
        case .paragraph(let inlines), .heading(_, let inlines):
            checkInlines(inlines, fail)
        case .table(let table):
            for row in [table.header] + table.rows {
                if row.count != table.alignments.count { fail("\(block.id): ragged row") }
                for cell in row { checkInlines(cell, fail) }
            }
        case .item:
            if case .list = blocks[block.parent?.rawValue ?? 0].kind {} else { fail("\(block.id): item outside a list") }
        case .list:
            for child in block.children {
                if case .item = blocks[child.rawValue].kind {} else { fail("\(block.id): list child \(child) is no item") }
            }
        default:
            break
        }
    }
    for failure in failures { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
}

private func checkInlines(_ inlines: Inlines, _ fail: (String) -> Void) {
    let nodes = inlines.nodes
    var open: [Int] = [] // end index of each open container
    for (index, node) in nodes.enumerated() {
        while let end = open.last, end < index { open.removeLast() }
        let end = index + node.descendantCount
        if node.descendantCount < 0 || end >= nodes.count { fail("inline \(index) runs past the end"); return }
        if let outer = open.last, end > outer { fail("inline \(index) is not nested in its parent"); return }
        switch node.kind {
        case .text, .code, .html, .softBreak, .lineBreak:
            if node.descendantCount != 0 { fail("inline leaf \(index) has descendants") }
        default:
            open.append(end)
        }
    }
}
