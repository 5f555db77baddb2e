import TextBasics
/// GitHub footnotes, recognised on the built document (plain cmark leaves them as text).
///
/// - A *definition* is a line `[^label]: text` that starts a top-level paragraph or follows
///   a soft break in one (consecutive definitions make one cmark paragraph); it runs to the
///   next definition or the paragraph's end. Labels match without regard to case; the first
///   definition of a label wins.
/// - A *reference* `[^label]` to a defined label, in text outside links, becomes a link to
///   `#user-content-fn-label` whose text is its number in brackets: `[1]`. Numbers go by
///   first reference, in document order (then references inside the definitions, in the order
///   the definitions are numbered).
/// - The definitions leave their place and are gathered at the end under a thematic break, as
///   a tight ordered list in number order; each ends with a `↩` link to
///   `#user-content-fnref-label` (its first reference). Definitions nothing refers to are
///   hidden. `Document.anchors` maps both fragments to their blocks.
///
/// Footnotes are global to the document, so `ChunkPlan` never cuts a source with a definition
/// line (see its `[^` rule); this pass runs on whole parses only.
/// Blocks indented by four spaces right after a definition (cmark's indented code) are its
/// further paragraphs: parsed as Markdown and gathered with it.
/// A definition that is also a valid link reference definition (`[^1]: Word.`) is consumed by
/// cmark: it is recovered from the links that refer to it (its text is the destination and
/// title), and its line looked up in the source. Known limit: such a definition cannot have
/// further paragraphs.
enum Footnotes {
    static let fragmentPrefix = "user-content-fn-"
    static let backFragmentPrefix = "user-content-fnref-"

    private struct Definition {
        var label: String
        var inlines: [InlineNode]
        var lines: SourceLines
        /// Recovered from a link cmark resolved (its lines are found in the source).
        var consumed = false
    }

    private static func isLabel(_ label: Substring) -> Bool {
        !label.isEmpty && !label.contains(where: { $0 == " " || $0 == "\t" || $0 == "[" || $0 == "]" })
    }

    private static func inlineParse(_ text: String) -> [InlineNode] {
        guard !text.isEmpty else { return [] }
        if let parsed = CmarkBridge.parseTopLevelParagraphs(Array(text.utf8)).first, let parsed {
            return InlineExtensions.apply(parsed).nodes
        }
        return [InlineNode(.text(text))]
    }

    /// Whether a paragraph, heading, summary or table of `kind` holds a link whose one child
    /// is text starting with `^` (what `[^x]` becomes when a `[^x]: …` line was a link
    /// reference definition).
    private static func hasCaretLink(_ kind: BlockKind) -> Bool {
        func has(_ inlines: Inlines) -> Bool {
            if inlines.packedLacks(UInt8(ascii: "^")) { return false }  // (without decoding them)
            let nodes = inlines.nodes
            return nodes.indices.contains { isCaretLink(nodes, $0) }
        }
        switch kind {
        case .paragraph(let inlines), .heading(_, let inlines), .summary(let inlines): return has(inlines)
        case .table(let table): return table.header.contains(where: has) || table.rows.contains { $0.contains(where: has) }
        default: return false
        }
    }

    /// Whether node `k` is a link whose one child is text starting with `^`.
    private static func isCaretLink(_ nodes: [InlineNode], _ k: Int) -> Bool {
        guard case .link(_, _, false) = nodes[k].kind, nodes[k].descendantCount == 1, k + 1 < nodes.count,
              case .text(let t) = nodes[k + 1].kind else { return false }
        return t.hasPrefix("^")
    }

    /// Whether `inlines` may hold a footnote reference: `[^` in a text, or a caret link.
    /// Packed inlines without a `^` are not decoded.
    private static func mayRefer(_ inlines: Inlines) -> Bool {
        if inlines.packedLacks(UInt8(ascii: "^")) { return false }
        let nodes = inlines.nodes
        return nodes.indices.contains { k in
            if case .text(let t) = nodes[k].kind { return containsCaretBracket(t) }
            return isCaretLink(nodes, k)
        }
    }

    /// Whether `text` has `[^` (a byte scan: `String.contains` compares Characters, and ran
    /// over every text of a large document it was most of this pass).
    private static func containsCaretBracket(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(containsCaretBracket)
    }

    fileprivate static func containsCaretBracket(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(containsCaretBracket)
    }

    private static func containsCaretBracket(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 1
        while let at = buffer.firstIndex(of: UInt8(ascii: "^"), from: from) {
            if buffer[at - 1] == UInt8(ascii: "[") { return true }
            from = at + 1
        }
        return false
    }

    /// The source line of each definition: the first line at or after `from` that starts
    /// (after up to 3 spaces) with `[^label]:`; nil when none does.
    private static func definitionLines(_ source: Source, labels: Set<String>, lineOffset: Int) -> [String: Int] {
        var result: [String: Int] = [:]
        for (n, line) in source.candidateLines {
            guard let (label, _) = marker(String(decoding: line, as: UTF8.self)) else { continue }
            let key = label.lowercased()
            if labels.contains(key), result[key] == nil { result[key] = n + lineOffset }
        }
        return result
    }

    static func apply(_ document: Document, source: SourceText, lineOffset: Int = 0) -> Document {
        apply(document, source: Source(source), lineOffset: lineOffset)
    }

    /// What the pass reads of the source: whether it has `[^` at all, and the lines that may
    /// start a definition (after up to 3 spaces, `[^`). Taken before a large source's bytes
    /// are let go (`MarkdownParser`), so the pass does not need them whole.
    struct Source: Sendable {
        let hasCaretBracket: Bool
        /// 1-based line numbers and bytes of the lines that start with `[^`.
        let candidateLines: [(number: Int, bytes: [UInt8])]

        init(_ source: SourceText) {
            hasCaretBracket = Footnotes.containsCaretBracket(source.bytes)
            var lines: [(number: Int, bytes: [UInt8])] = []
            if hasCaretBracket, source.lineCount > 0 {
                for n in 1...source.lineCount {
                    let line = source.line(n)
                    var p = line.startIndex, indent = 0
                    while p < line.endIndex, line[p] == 0x20, indent < 3 { p += 1; indent += 1 }
                    guard line.endIndex - p >= 5, line[p] == UInt8(ascii: "["), line[p + 1] == UInt8(ascii: "^") else { continue }
                    lines.append((n, Array(line[p...])))
                }
            }
            candidateLines = lines
        }
    }

    static func apply(_ document: Document, source: Source, lineOffset: Int = 0) -> Document {
        // Fast exit: no `[^` anywhere.
        guard source.hasCaretBracket else { return document }
        // 1. Definitions: top-level paragraphs that start with one. (A definition that is also
        // a valid link reference definition, `[^a]: Word.`, was consumed by cmark: it is
        // recovered from the links that refer to it, below.)
        var definitions: [String: Definition] = [:]
        var order: [String] = []  // labels in source order (first definition of each)
        var removed = Set<Int>()
        var hidden = document.hiddenLines
        // Indented code right after a definition is its next paragraphs (GitHub's footnotes
        // take blocks indented by four spaces).
        var continuations: [String: [(literal: String, lines: SourceLines)]] = [:]
        var continuing: String? = nil  // the definition the previous top-level block belongs to
        for id in document[document.root].children {
            let block = document[id]
            if let key = continuing, case .codeBlock(_, let literal, false) = block.kind {
                removed.insert(id.rawValue)
                continuations[key, default: []].append((literal, block.source))
                continue
            }
            continuing = nil
            guard case .paragraph(let inlines) = block.kind, let first = inlines.firstNode,
                  case .text(let text) = first.kind, text.hasPrefix("[^"), let parts = split(inlines, lines: block.source)
            else { continue }
            removed.insert(id.rawValue)
            for part in parts {
                let key = part.label.lowercased()
                if definitions[key] == nil { definitions[key] = part; order.append(key) } else { hidden.append(part.lines) }
            }
            if let last = parts.last, definitions[last.label.lowercased()]?.lines == last.lines { continuing = last.label.lowercased() }
        }

        // Nothing to number: no definition, and no `[^x]` link that cmark resolved against a
        // definition that is also a link reference definition. The document stays as it is
        // (changelogs and regex docs write `[^…]` in text and code: rebuilding the block array
        // for nothing cost a second copy of it at the parse's peak).
        if definitions.isEmpty, !document.blocks.contains(where: { hasCaretLink($0.kind) }) { return document }

        // 2. References, numbered by first use.
        var numbers: [String: Int] = [:]
        var numbered: [String] = []
        var firstReference: [String: Int] = [:]  // label → old block id
        var kinds = document.blocks.map(\.kind)
        func rewrite(_ inlines: Inlines, block: Int) -> Inlines {
            // Only `[^` in text and a link whose one child is text starting with `^` (see
            // `process`) change anything; otherwise the rewrite below would only join adjacent
            // top-level text nodes, so do just that (and keep the arrays when there are none:
            // a changelog's every paragraph has links, and copying them all doubled the model).
            // Rewritten inlines that were packed are packed again.
            func repacked(_ result: Inlines) -> Inlines { inlines.isPacked ? result.packed() : result }
            guard mayRefer(inlines) else { return inlines.hasAdjacentTopLevelText ? repacked(mergingText(inlines)) : inlines }
            var tree = InlineTree(inlines)
            func reference(_ key: String) -> Int {
                let number: Int
                if let n = numbers[key] { number = n } else {
                    number = numbered.count + 1
                    numbers[key] = number
                    numbered.append(key)
                    firstReference[key] = block
                }
                let mark = tree.add(.text("[\(number)]"))
                return tree.add(.link(destination: "#" + fragmentPrefix + key, title: "", autolink: false), children: [mark])
            }
            func process(_ children: [Int]) -> [Int] {
                var out: [Int] = []
                for child in children {
                    // `[^a]` that cmark resolved against `[^a]: Word.` (a link reference definition):
                    // the definition's text is the destination (and title).
                    if case .link(let destination, let title, false) = tree.nodes[child].kind, tree.nodes[child].children.count == 1,
                       case .text(let text) = tree.nodes[tree.nodes[child].children[0]].kind, text.hasPrefix("^"),
                       let label = Optional(String(text.dropFirst())), isLabel(Substring(label)) {
                        let key = label.lowercased()
                        if definitions[key] == nil {
                            definitions[key] = Definition(label: label, inlines: inlineParse(title.isEmpty ? destination : destination + " " + title),
                                                          lines: SourceLines(1, 1), consumed: true)
                            order.append(key)
                        }
                        out.append(reference(key))
                        continue
                    }
                    guard case .text(let text) = tree.nodes[child].kind, containsCaretBracket(text) else { out.append(child); continue }
                    var rest = Substring(text)
                    var pieces: [Int] = []
                    while let open = rest.firstOccurrence(of: "[^") {
                        let after = rest[open.upperBound...]
                        guard let close = after.firstIndex(of: "]") else { break }
                        let label = after[..<close]
                        let key = label.lowercased()
                        guard isLabel(label), definitions[key] != nil else {
                            pieces.append(tree.add(.text(String(rest[..<open.upperBound]))))
                            rest = after
                            continue
                        }
                        if open.lowerBound > rest.startIndex { pieces.append(tree.add(.text(String(rest[..<open.lowerBound])))) }
                        pieces.append(reference(key))
                        rest = after[after.index(after: close)...]
                    }
                    if !rest.isEmpty { pieces.append(tree.add(.text(String(rest)))) }
                    out += pieces
                }
                return out
            }
            tree.top = process(tree.top)
            var pending = tree.top
            while let index = pending.popLast() {
                switch tree.nodes[index].kind {
                case .link, .image: continue
                default:
                    guard !tree.nodes[index].children.isEmpty else { continue }
                    tree.nodes[index].children = process(tree.nodes[index].children)
                    pending += tree.nodes[index].children
                }
            }
            return repacked(mergingText(tree.flattened()))
        }
        var isRemoved = [Bool](repeating: false, count: document.blocks.count)
        for index in removed { isRemoved[index] = true }
        for (index, kind) in kinds.enumerated() where !isRemoved[index] {
            switch kind {
            case .paragraph(let inlines): kinds[index] = .paragraph(rewrite(inlines, block: index))
            case .heading(let level, let inlines): kinds[index] = .heading(level: level, rewrite(inlines, block: index))
            case .summary(let inlines): kinds[index] = .summary(rewrite(inlines, block: index))
            case .table(var table):
                table.header = table.header.map { rewrite($0, block: index) }
                table.rows = table.rows.map { $0.map { rewrite($0, block: index) } }
                kinds[index] = .table(table)
            default: break
            }
        }
        // References inside definitions: numbered as the definitions are reached.
        var rewritten: [String: Inlines] = [:]
        var k = 0
        while k < numbered.count {
            let key = numbered[k]
            rewritten[key] = rewrite(Inlines(definitions[key]!.inlines), block: -1)
            k += 1
        }
        for key in order where numbers[key] == nil && !definitions[key]!.consumed {
            hidden.append(definitions[key]!.lines)
            for continuation in continuations[key] ?? [] { hidden.append(continuation.lines) }
        }
        // cmark counts consumed definitions into the paragraph after them, so lines counted
        // from a paragraph's start may be late: each definition's first line is looked up.
        let found = numbered.isEmpty ? [:] : definitionLines(source, labels: Set(numbered), lineOffset: lineOffset)
        for key in numbered {
            let lines = definitions[key]!.lines
            let first = min(max(1, found[key] ?? lines.first), max(1, document.sourceLineCount))
            definitions[key]!.lines = SourceLines(first, min(max(first, first + lines.last - lines.first), max(1, document.sourceLineCount)))
        }

        // 3. The new block array: old blocks less the definitions (ids shift down), then the
        // gathered definitions.
        var newID = [Int](repeating: 0, count: document.blocks.count)
        var shift = 0
        for index in document.blocks.indices {
            if isRemoved[index] { shift += 1 }
            newID[index] = index - shift
        }
        var blocks: [Block] = []
        blocks.reserveCapacity(document.blocks.count + 2 + 2 * numbered.count)
        for block in document.blocks where !isRemoved[block.id.rawValue] {
            // Ids only shift after a removed block: children up to the first one stay as they are.
            let children = block.children.last.map { newID[$0.rawValue] == $0.rawValue } ?? true
                ? Array(block.children)
                : block.children.filter { !isRemoved[$0.rawValue] }.map { BlockID(newID[$0.rawValue]) }
            blocks.append(Block(id: BlockID(newID[block.id.rawValue]), kind: kinds[block.id.rawValue],
                                parent: block.parent.map { BlockID(newID[$0.rawValue]) },
                                children: children,
                                depth: block.depth, source: block.source, continuesPrevious: block.continuesPrevious))
        }
        var anchors = document.anchors
        var topLevel = Array(blocks[0].children)
        if !numbered.isEmpty {
            let lines = numbered.map { definitions[$0]!.lines }
            let span = SourceLines(lines.map(\.first).min()!, lines.map(\.last).max()!)
            let rule = blocks.count
            blocks.append(Block(id: BlockID(rule), kind: .thematicBreak, parent: BlockID(0), children: [], depth: 1,
                                source: SourceLines(span.first, span.first)))
            let list = blocks.count
            let lineLimit = max(1, document.sourceLineCount)
            var items: [BlockID] = []
            var itemBlocks: [Block] = []
            var listLines = span
            for key in numbered {
                let definition = definitions[key]!
                let item = list + 1 + itemBlocks.count
                items.append(BlockID(item))
                var nodes = rewritten[key]!.nodes
                nodes.append(InlineNode(.text(" ")))
                nodes.append(InlineNode(.link(destination: "#" + backFragmentPrefix + key, title: "", autolink: false), descendantCount: 1))
                nodes.append(InlineNode(.text("↩")))
                var itemLines = definition.lines
                var children = [BlockID(item + 1)]
                var more: [Block] = []
                // Continuation paragraphs: their literal parsed as Markdown, grafted under the item.
                for continuation in continuations[key] ?? [] {
                    let sub = MarkdownParser.parse(continuation.literal)
                    let shift = item + 2 + more.count - 1  // sub block i > 0 becomes i + shift
                    for block in sub.blocks.dropFirst() {
                        let parent = block.parent.map { $0.rawValue == 0 ? item : $0.rawValue + shift } ?? item
                        if parent == item { children.append(BlockID(block.id.rawValue + shift)) }
                        let first = min(lineLimit, continuation.lines.first + block.source.first - 1)
                        let last = min(lineLimit, max(first, continuation.lines.first + block.source.last - 1))
                        more.append(Block(id: BlockID(block.id.rawValue + shift), kind: block.kind, parent: BlockID(parent),
                                          children: block.children.map { BlockID($0.rawValue + shift) },
                                          depth: block.depth + 2, source: SourceLines(first, last),
                                          continuesPrevious: block.continuesPrevious))
                    }
                    itemLines.last = max(itemLines.last, min(lineLimit, continuation.lines.last))
                }
                // Grafted blocks' lines stay within the item's.
                more = more.map { b in
                    let first = min(max(b.source.first, itemLines.first), itemLines.last)
                    return Block(id: b.id, kind: b.kind, parent: b.parent, children: b.children, depth: b.depth,
                                 source: SourceLines(first, min(max(b.source.last, first), itemLines.last)),
                                 continuesPrevious: b.continuesPrevious)
                }
                listLines.first = min(listLines.first, itemLines.first)
                listLines.last = max(listLines.last, itemLines.last)
                itemBlocks.append(Block(id: BlockID(item), kind: .item(ItemInfo()), parent: BlockID(list), children: children,
                                        depth: 2, source: itemLines))
                itemBlocks.append(Block(id: BlockID(item + 1), kind: .paragraph(mergingText(Inlines(nodes))), parent: BlockID(item),
                                        children: [], depth: 3, source: definition.lines))
                itemBlocks += more
                anchors[fragmentPrefix + key] = BlockID(item + 1)
                if let reference = firstReference[key], reference >= 0 {
                    anchors[backFragmentPrefix + key] = BlockID(newID[reference])
                }
            }
            blocks.append(Block(id: BlockID(list), kind: .list(ListInfo(ordered: true, start: 1, tight: continuations.isEmpty,
                                                                        delimiter: ".")),
                                parent: BlockID(0), children: items, depth: 1, source: listLines))
            blocks += itemBlocks
            topLevel += [BlockID(rule), BlockID(list)]
        }
        let root = blocks[0]
        blocks[0] = Block(id: root.id, kind: root.kind, parent: nil, children: topLevel, depth: 0, source: root.source)
        return Document(blocks: blocks, sourceLineCount: document.sourceLineCount, anchors: anchors, hiddenLines: hidden)
    }

    /// The definitions in a paragraph that starts with one, or nil when it does not.
    private static func split(_ inlines: Inlines, lines: SourceLines) -> [Definition]? {
        var result: [Definition] = []
        let nodes = inlines.nodes
        var line = lines.first
        var k = 0
        var afterBreak = true  // the previous top-level node was a break (or there was none)
        while k < nodes.count {
            let node = nodes[k]
            if afterBreak, case .text(let text) = node.kind, let (label, rest) = marker(text) {
                var first: [InlineNode] = []
                if !rest.isEmpty { first.append(InlineNode(.text(rest))) }
                result.append(Definition(label: label, inlines: first, lines: SourceLines(line, line)))
                afterBreak = false
                k += 1
                continue
            }
            guard !result.isEmpty else { return nil }
            afterBreak = node.kind == .softBreak || node.kind == .lineBreak
            if afterBreak { line = min(line + 1, lines.last) }
            let end = k + node.descendantCount + 1  // whole subtrees move together
            result[result.count - 1].inlines += nodes[k..<end]
            result[result.count - 1].lines.last = line
            k = end
        }
        // Trailing breaks of each definition go.
        for i in result.indices {
            while let last = result[i].inlines.last, last.kind == .softBreak || last.kind == .lineBreak { result[i].inlines.removeLast() }
        }
        return result.isEmpty ? nil : result
    }

    /// `[^label]: rest` → (label, rest without leading blanks).
    private static func marker(_ text: String) -> (String, String)? {
        guard text.hasPrefix("[^"), let close = text.firstIndex(of: "]") else { return nil }
        let label = text[text.index(text.startIndex, offsetBy: 2)..<close]
        let after = text[text.index(after: close)...]
        guard isLabel(label), after.hasPrefix(":") else { return nil }
        return (String(label), String(after.dropFirst().drop { $0 == " " || $0 == "\t" }))
    }

    /// Whether two top-level text nodes follow each other (what `mergingText` joins).
    /// Adjacent top-level text nodes joined (the rewrite splits them).
    private static func mergingText(_ inlines: Inlines) -> Inlines {
        let nodes = inlines.nodes
        var out: [InlineNode] = []
        out.reserveCapacity(nodes.count)
        var lastIsText = false
        var k = 0
        while k < nodes.count {
            let end = k + nodes[k].descendantCount + 1
            if case .text(let t) = nodes[k].kind, lastIsText, case .text(let previous) = out[out.count - 1].kind {
                out[out.count - 1].kind = .text(previous + t)
            } else {
                out += nodes[k..<end]
                if case .text = nodes[k].kind { lastIsText = true } else { lastIsText = false }
            }
            k = end
        }
        return Inlines(out)
    }
}
