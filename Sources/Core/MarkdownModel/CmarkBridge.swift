import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only place that talks to libcmark.
///
/// Each call parses, copies the whole tree into Swift values with cmark's iterator (no
/// recursion, so nesting depth is bounded only by memory), and frees the tree before
/// returning: no `cmark_node *` escapes. Options: `CMARK_OPT_VALIDATE_UTF8` (invalid bytes
/// become U+FFFD), no smart punctuation.
enum CmarkBridge {
    /// Parses a whole document into raw blocks in pre-order (`[0]` is the document).
    static func parseBlocks(_ bytes: [UInt8]) -> [RawBlock] {
        withParsedTree(bytes) { root in
            var converter = Converter()
            converter.run(root, freeing: true)
            return converter.blocks
        }
    }

    /// Parses `bytes` as a document and returns, for each top-level block in order, its
    /// inlines when it is a paragraph and nil otherwise. Used for table cells.
    static func parseTopLevelParagraphs(_ bytes: [UInt8]) -> [Inlines?] {
        let blocks = parseBlocks(bytes)
        var result: [Inlines?] = []
        for block in blocks where block.parent == 0 {
            if case .paragraph(let inlines) = block.kind { result.append(inlines) } else { result.append(nil) }
        }
        return result
    }

    /// Parses with cmark's allocator pointed at a fresh `ParseArena`, runs `body` on the
    /// tree, frees the tree (cheap: free lists) and then the arena.
    private static func withParsedTree<R>(_ bytes: [UInt8], _ body: (OpaquePointer) -> R) -> R {
        CurrentArena.withNewArena {
            var memory = cmark_mem(
                calloc: { count, size in
                    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
                    return overflow || bytes > Int.max / 2 ? nil : CurrentArena.arena.pointee.allocate(Int(bytes), zeroed: true)
                },
                realloc: { pointer, size in
                    size > Int.max / 2 ? nil : CurrentArena.arena.pointee.reallocate(pointer, Int(size))
                },
                free: { pointer in CurrentArena.arena.pointee.release(pointer) })
            return withUnsafeMutablePointer(to: &memory) { memory in
                guard let parser = cmark_parser_new_with_mem(CMARK_OPT_VALIDATE_UTF8, memory) else {
                    preconditionFailure("cmark_parser_new_with_mem failed (out of memory)")
                }
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
                    }
                }
                let root = cmark_parser_finish(parser)
                cmark_parser_free(parser)
                CurrentArena.arena.pointee.startReleasing()
                guard let root else { preconditionFailure("cmark_parser_finish failed (out of memory)") }
                defer { cmark_node_free(root) }
                return body(root)
            }
        }
    }
}

/// Walks a cmark tree once with `cmark_iter`, building raw blocks and flat inlines.
private struct Converter {
    var blocks: [RawBlock] = []
    /// Raw indices of the open container blocks.
    private var blockStack: [Int] = []
    /// Inlines of the paragraph or heading being converted.
    private var inlines: [InlineNode] = []
    /// Indices in `inlines` of the open inline containers.
    private var inlineStack: [Int] = []
    /// Adjacent cmark text nodes are merged: their bytes collect here until another node comes.
    private var pendingText: [UInt8] = []

    /// Converts the document `root`, one top-level block at a time; with `freeing`, each
    /// top-level block's nodes are freed as soon as it is converted (see `ParseArena`).
    mutating func run(_ root: OpaquePointer, freeing: Bool) {
        precondition(cmark_node_get_type(root) == CMARK_NODE_DOCUMENT, "cmark returns a document")
        enter(root)
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            walk(node)
            if freeing { cmark_node_free(node) }
        }
        exit(root)
        precondition(blockStack.isEmpty && inlineStack.isEmpty, "cmark iterator left nodes open")
    }

    /// Converts `subtree` in pre-order with cmark's iterator (no recursion).
    private mutating func walk(_ subtree: OpaquePointer) {
        guard let iterator = cmark_iter_new(subtree) else { preconditionFailure("cmark_iter_new failed") }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_ENTER { enter(node) } else { exit(node) }
        }
    }

    private mutating func enter(_ node: OpaquePointer) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT:
            openContainer(.document, node)
        case CMARK_NODE_BLOCK_QUOTE:
            openContainer(.blockQuote, node)
        case CMARK_NODE_LIST:
            openContainer(.list(listInfo(node)), node)
        case CMARK_NODE_ITEM:
            openContainer(.item, node)
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
            inlines = []
            pendingText.removeAll(keepingCapacity: true)
            appendBlock(.paragraph(Inlines()), node) // kind completed on exit
        case CMARK_NODE_CODE_BLOCK:
            appendBlock(.codeBlock(info: string(cmark_node_get_fence_info(node)),
                                   literal: string(cmark_node_get_literal(node))), node)
        case CMARK_NODE_HTML_BLOCK:
            appendBlock(.htmlBlock(string(cmark_node_get_literal(node))), node)
        case CMARK_NODE_THEMATIC_BREAK:
            appendBlock(.thematicBreak, node)
        case CMARK_NODE_TEXT:
            if let literal = cmark_node_get_literal(node) {
                let count = strlen(literal)
                literal.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pendingText.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        case CMARK_NODE_SOFTBREAK:
            appendLeaf(.softBreak)
        case CMARK_NODE_LINEBREAK:
            appendLeaf(.lineBreak)
        case CMARK_NODE_CODE:
            appendLeaf(.code(string(cmark_node_get_literal(node))))
        case CMARK_NODE_HTML_INLINE:
            appendLeaf(.html(string(cmark_node_get_literal(node))))
        case CMARK_NODE_EMPH:
            openInline(.emphasis)
        case CMARK_NODE_STRONG:
            openInline(.strong)
        case CMARK_NODE_LINK:
            openInline(.link(destination: string(cmark_node_get_url(node)),
                             title: string(cmark_node_get_title(node)), autolink: false))
        case CMARK_NODE_IMAGE:
            openInline(.image(source: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node))))
        default:
            break // custom nodes are never produced by the parser; their children pass through
        }
    }

    private mutating func exit(_ node: OpaquePointer) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM:
            blockStack.removeLast()
        case CMARK_NODE_PARAGRAPH:
            flushText()
            blocks[blocks.count - 1].kind = .paragraph(takeInlines())
        case CMARK_NODE_HEADING:
            flushText()
            blocks[blocks.count - 1].kind = .heading(level: Int(cmark_node_get_heading_level(node)), takeInlines())
        case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_IMAGE:
            flushText()
            let index = inlineStack.removeLast()
            inlines[index].descendantCount = inlines.count - index - 1
            markAutolink(at: index)
        default:
            break
        }
    }

    // MARK: blocks

    private mutating func openContainer(_ kind: RawBlock.Kind, _ node: OpaquePointer) {
        appendBlock(kind, node)
        blockStack.append(blocks.count - 1)
    }

    private mutating func appendBlock(_ kind: RawBlock.Kind, _ node: OpaquePointer) {
        blocks.append(RawBlock(
            kind: kind, parent: blockStack.last ?? -1,
            startLine: Int(cmark_node_get_start_line(node)), startColumn: Int(cmark_node_get_start_column(node)),
            endLine: Int(cmark_node_get_end_line(node)), endColumn: Int(cmark_node_get_end_column(node))))
    }

    private func listInfo(_ node: OpaquePointer) -> ListInfo {
        let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
        let delimiter: Character
        if ordered {
            delimiter = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM ? ")" : "."
        } else {
            delimiter = bulletCharacter(node)
        }
        return ListInfo(ordered: ordered, start: ordered ? Int(cmark_node_get_list_start(node)) : 1,
                        tight: cmark_node_get_list_tight(node) != 0, delimiter: delimiter)
    }

    /// cmark does not expose the bullet character; it is read back by `DocumentBuilder`
    /// from the source (start column of the list). Placeholder until then.
    private func bulletCharacter(_ node: OpaquePointer) -> Character { "-" }

    // MARK: inlines

    private mutating func appendLeaf(_ kind: InlineKind) {
        flushText()
        inlines.append(InlineNode(kind))
    }

    private mutating func openInline(_ kind: InlineKind) {
        flushText()
        inlines.append(InlineNode(kind))
        inlineStack.append(inlines.count - 1)
    }

    /// Moves the finished inlines out (no copy).
    private mutating func takeInlines() -> Inlines {
        var taken: [InlineNode] = []
        swap(&taken, &inlines)
        return Inlines(taken)
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        inlines.append(InlineNode(.text(String(decoding: pendingText, as: UTF8.self))))
        pendingText.removeAll(keepingCapacity: true)
    }

    /// `<https://…>` and `<a@b.c>`: a title-less link whose only child is its own destination.
    private mutating func markAutolink(at index: Int) {
        guard inlines[index].descendantCount == 1,
              case .link(let destination, let title, _) = inlines[index].kind, title.isEmpty,
              case .text(let text) = inlines[index + 1].kind,
              destination == text || destination == "mailto:" + text
        else { return }
        inlines[index].kind = .link(destination: destination, title: title, autolink: true)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}
