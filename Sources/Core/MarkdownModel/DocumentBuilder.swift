/// Turns cmark's raw pre-order blocks into the final `Document`, applying the GitHub
/// extensions on the way.
///
/// The output is appended in pre-order, so `BlockID`s stay pre-order indices even when a raw
/// paragraph becomes a paragraph followed by a table.
struct DocumentBuilder {
    let source: SourceText
    /// cmark's blocks; a leaf's inlines and text are let go once it is converted (`build`),
    /// so the model does not hold the raw inlines beside the final ones. Pass it uniquely
    /// referenced (not kept by the caller), or letting go would copy it instead.
    private(set) var raw: [RawBlock]

    private var kinds: [BlockKind] = []
    private var parents: [Int] = []
    private var lines: [SourceLines] = []
    private var depths: [Int] = []
    private var children: [[BlockID]] = []
    /// Final index of each raw container block (only containers are looked up).
    private var finalIndex: [Int]
    /// Number of block-quote ancestors of each raw block (for stripping `>` from table lines).
    private var quoteDepth: [Int]
    /// Tables whose cells are parsed at the end, all in one cmark run: (block index, table).
    private var pendingTables: [(block: Int, found: PipeTable.Found)] = []
    /// The first paragraph of a task list item or an alert, with its marker removed.
    private var strippedParagraph: (raw: Int, inlines: Inlines)?
    /// Lines of blocks not shown (see `Document.hiddenLines`), before `lineOffset`.
    private var hidden: [SourceLines] = []
    /// Blocks that go on from the block before (pieces of a giant paragraph).
    private var continuing: Set<Int> = []
    /// Front matter cut from the source's start; `source` is what follows it.
    private let frontMatter: FrontMatter?

    /// Added to every source line of the result (a piece of a larger source; see `ChunkPlan`).
    let lineOffset: Int
    /// The result's `sourceLineCount`; nil: the source's own.
    private let reportedLineCount: Int?
    /// Whether finished blocks' inlines are packed (`Inlines.packed()`).
    private let packed: Bool

    /// With `frontMatter`, `source` is the text after it and `lineOffset` its line count.
    init(source: SourceText, raw: [RawBlock], lineOffset: Int = 0, sourceLineCount: Int? = nil,
         frontMatter: FrontMatter? = nil, packed: Bool = true) {
        self.packed = packed
        self.source = source
        self.raw = raw
        self.frontMatter = frontMatter
        self.lineOffset = lineOffset
        self.reportedLineCount = sourceLineCount
        finalIndex = Array(repeating: -1, count: raw.count)
        quoteDepth = Array(repeating: 0, count: raw.count)
        kinds.reserveCapacity(raw.count)
        parents.reserveCapacity(raw.count)
        lines.reserveCapacity(raw.count)
        depths.reserveCapacity(raw.count)
        children.reserveCapacity(raw.count)
    }

    mutating func build() -> Document {
        precondition(!raw.isEmpty, "cmark always returns a document node")
        for index in raw.indices {
            convert(index)
            // Nothing reads a converted leaf's raw kind again (look-aheads read the block
            // after a container, before it is converted).
            switch raw[index].kind {
            case .paragraph, .heading, .codeBlock, .htmlBlock: raw[index].kind = .thematicBreak
            default: break
            }
        }
        parsePendingTables()
        var blocks: [Block] = []
        blocks.reserveCapacity(kinds.count)
        var arena = PackedArena()
        defer { arena.finish() }
        let lineCount = reportedLineCount ?? source.lineCount
        for index in kinds.indices {
            var span = lines[index]
            if index == 0, frontMatter != nil {
                span = SourceLines(1, max(1, lineCount))
            } else if index == 1, let frontMatter {
                span = SourceLines(1, frontMatter.lineCount)
            } else {
                span.first += lineOffset; span.last += lineOffset
            }
            // Packed as it moves into the document, so the array-form inlines go at once; all
            // into one arena (see `PackedArena`).
            let kind = packed ? kinds[index].packed(into: &arena) : kinds[index]
            kinds[index] = .thematicBreak
            blocks.append(Block(id: BlockID(index), kind: kind, parent: parents[index] < 0 ? nil : BlockID(parents[index]),
                                children: children[index], depth: depths[index], source: span,
                                continuesPrevious: continuing.contains(index)))
        }
        let hiddenLines = hidden.map { SourceLines($0.first + lineOffset, $0.last + lineOffset) }
        return Document(blocks: blocks, sourceLineCount: lineCount, hiddenLines: hiddenLines)
    }

    private mutating func convert(_ index: Int) {
        let block = raw[index]
        let parent = block.parent < 0 ? -1 : finalIndex[block.parent]
        if block.parent >= 0 {
            if case .blockQuote = raw[block.parent].kind {
                quoteDepth[index] = quoteDepth[block.parent] + 1
            } else {
                quoteDepth[index] = quoteDepth[block.parent]
            }
        }
        var span = sourceLines(index)
        if parent >= 0 {
            // cmark can report a fenced code block that its container's end closed as ending
            // on the line that closed the container; a block never leaves its parent's lines.
            let outer = lines[parent]
            span.first = min(max(span.first, outer.first), outer.last)
            span.last = min(max(span.last, span.first), outer.last)
        }
        switch block.kind {
        case .document:
            finalIndex[index] = append(.document, parent: parent, lines: SourceLines(1, max(1, source.lineCount)))
            if let frontMatter {
                append(.frontMatter(literal: frontMatter.literal, toml: frontMatter.toml), parent: finalIndex[index],
                       lines: SourceLines(1, 1))  // lines set in `build`
            }
        case .blockQuote:
            if index + 1 < raw.count, raw[index + 1].parent == index,
               case .paragraph(let inlines) = raw[index + 1].kind,
               let (alert, rest) = Alerts.strippingMarker(from: inlines) {
                strippedParagraph = (index + 1, rest)
                finalIndex[index] = append(.alert(alert), parent: parent, lines: span)
            } else {
                finalIndex[index] = append(.blockQuote, parent: parent, lines: span)
            }
        case .list(var info):
            if !info.ordered { info.delimiter = bullet(block) }
            finalIndex[index] = append(.list(info), parent: parent, lines: span)
        case .item:
            var info = ItemInfo()
            if index + 1 < raw.count, raw[index + 1].parent == index,
               case .paragraph(let inlines) = raw[index + 1].kind,
               let (task, rest) = TaskList.strippingMarker(from: inlines) {
                info.task = task
                strippedParagraph = (index + 1, rest)
            }
            finalIndex[index] = append(.item(info), parent: parent, lines: span)
        case .paragraph(var inlines):
            if let stripped = strippedParagraph, stripped.raw == index {
                inlines = stripped.inlines
                strippedParagraph = nil
                // An alert of only its marker line: the alert shows its title alone.
                if inlines.isEmpty, parent >= 0, case .alert = kinds[parent] { return }
            }
            appendParagraph(inlines, raw: index, parent: parent, lines: span)
        case .heading(let level, let inlines):
            // A pipe table followed by `---` is a table and a thematic break (GFM: the table
            // takes the lines, so they are no setext heading); `===` is a row of the table.
            if level <= 2, span.last > span.first, InlineExtensions.scan(inlines).pipe {
                let rows = SourceLines(span.first, level == 2 ? span.last - 1 : span.last)
                if appendTable(inlines, raw: index, parent: parent, lines: rows) {
                    if level == 2 { append(.thematicBreak, parent: parent, lines: SourceLines(span.last, span.last)) }
                    break
                }
            }
            let marked = InlineExtensions.scan(inlines).strike ? markingEscapedTildes(inlines, lines: span) : inlines
            append(.heading(level: level, InlineExtensions.apply(marked)), parent: parent, lines: span)
        case .codeBlock(let info, let literal):
            append(.codeBlock(info: info, literal: literal, fenced: isFenced(block, info: info, literal: literal)),
                   parent: parent, lines: span)
        case .htmlBlock(let html):
            switch HTMLBlocks.convert(html) {
            case .hidden:
                hidden.append(span)
            case .raw(let shown):
                append(.htmlBlock(shown), parent: parent, lines: span)
            case .blocks(let pieces):
                hidden.append(span)  // its tag lines are not shown
                for piece in pieces {
                    let first = min(span.first + piece.firstLine, span.last)
                    append(piece.kind, parent: parent, lines: SourceLines(first, min(max(first, span.first + piece.lastLine), span.last)))
                }
            }
        case .thematicBreak:
            append(.thematicBreak, parent: parent, lines: span)
        }
    }

    /// A paragraph, or — when its source lines hold a pipe table — the lines before the
    /// table as a paragraph (if any) followed by the table.
    private mutating func appendParagraph(_ inlines: Inlines, raw index: Int, parent: Int, lines span: SourceLines) {
        // A table needs an unescaped `|`, which cmark leaves in a text node.
        var triggers = InlineExtensions.scan(inlines)
        var inlines = inlines
        if triggers.strike {
            inlines = markingEscapedTildes(inlines, lines: span)
            triggers = InlineExtensions.scan(inlines)
        }
        if span.last > span.first, triggers.pipe, appendTable(inlines, raw: index, parent: parent, lines: span) { return }
        var result = InlineExtensions.apply(inlines, triggers: triggers)
        if triggers.link, result.nodes.contains(where: { $0.kind == .emphasis || $0.kind == .strong }) {
            result = AutolinkMarkup.mend(result, source: (span.first...span.last).map { source.line($0) })
        }
        // A paragraph of only an anchor (`<a id="x"></a>`, before each heading of Rust's
        // release notes) is hidden, not an empty paragraph with its blank rows.
        if result.showsNothing, inlines.nodes.contains(where: { if case .html = $0.kind { true } else { false } }) {
            hidden.append(span)
            return
        }
        let pieces = Self.splitGiant(result)
        for (k, piece) in pieces.enumerated() {
            let index = append(.paragraph(piece), parent: parent, lines: span)
            if k > 0 { continuing.insert(index) }
        }
    }

    /// Paragraphs longer than this (bytes of text) are cut into pieces of about
    /// `giantPieceBytes`, each its own block that `continuesPrevious`: the pager lays out a
    /// block at a time, and one block of 10 MB at width 1 is 10 million rows held at once.
    /// Pieces are cut between top-level inlines, or inside a long text at a space (else at a
    /// character): a search match across a cut is not found. No real paragraph comes near.
    /// Only what the paragraph shows counts (text, code, HTML): a link's destination or an
    /// image's source is no row of it. Counted, a 64 KB URL (a `data:` image) cut the
    /// paragraph around its link, and each piece starts a row: `para` / `link` / ` and …`.
    /// (With `--plain` the URL is shown after the link, but a link is never cut either way.)
    static let giantParagraphBytes = 64 * 1024
    static let giantPieceBytes = 16 * 1024

    /// `inlines` as one piece, or cut as `giantParagraphBytes` says.
    static func splitGiant(_ inlines: Inlines) -> [Inlines] {
        func bytes(_ kind: InlineKind) -> Int {
            switch kind {
            case .text(let s), .code(let s), .html(let s): return s.utf8.count
            default: return 1
            }
        }
        let nodes = inlines.nodes
        guard nodes.reduce(0, { $0 + bytes($1.kind) }) > giantParagraphBytes else { return [inlines] }
        var pieces: [Inlines] = []
        var current: [InlineNode] = []
        var size = 0
        func flush() {
            if !current.isEmpty { pieces.append(Inlines(current)); current = []; size = 0 }
        }
        var i = 0
        while i < nodes.count {
            let node = nodes[i]
            let subtree = nodes[i...(i + node.descendantCount)]
            i += node.descendantCount + 1
            if case .text(let text) = node.kind, node.descendantCount == 0, text.utf8.count > giantPieceBytes {
                // A long text: cut it at spaces near each piece's end.
                var rest = Substring(text)
                while !rest.isEmpty {
                    let room = max(1, giantPieceBytes - size)
                    if rest.utf8.count <= room {
                        current.append(InlineNode(.text(String(rest)))); size += rest.utf8.count
                        break
                    }
                    // The last Character boundary within `room` bytes (at least one Character),
                    // then back to just after the last space before it, if there is one.
                    var cut = rest.startIndex, taken = 0
                    for ch in rest {
                        let n = ch.utf8.count
                        if taken + n > room && cut > rest.startIndex { break }
                        taken += n
                        cut = rest.index(after: cut)
                    }
                    if cut < rest.endIndex, let space = rest[..<cut].lastIndex(of: " "), space > rest.startIndex {
                        cut = rest.index(after: space)
                    }
                    current.append(InlineNode(.text(String(rest[..<cut]))))
                    flush()
                    rest = rest[cut...]
                }
                continue
            }
            let add = subtree.reduce(0) { $0 + bytes($1.kind) }
            if size > 0 && size + add > giantPieceBytes { flush() }
            current.append(contentsOf: subtree)
            size += add
        }
        flush()
        return pieces.isEmpty ? [inlines] : pieces
    }

    /// `inlines` with the `\~` of its source lines marked (see `EscapedTilde`).
    private func markingEscapedTildes(_ inlines: Inlines, lines span: SourceLines) -> Inlines {
        var lines: [ArraySlice<UInt8>] = []
        var any = false
        for n in span.first...span.last {
            let line = source.line(n)
            lines.append(line)
            if !any, let at = line.firstIndex(of: 0x5C), line[at...].contains(0x7E) { any = true }
        }
        return any ? EscapedTilde.mark(inlines, source: lines) : inlines
    }

    /// When the lines `span` of raw block `index` hold a pipe table: appends the lines before
    /// it as a paragraph (if any) and the table, and returns true.
    private mutating func appendTable(_ inlines: Inlines, raw index: Int, parent: Int, lines span: SourceLines) -> Bool {
        do {
            let block = raw[index]
            var rowLines: [ArraySlice<UInt8>] = []
            rowLines.reserveCapacity(span.last - span.first + 1)
            for number in span.first...span.last {
                let firstColumn = number == block.startLine ? block.startColumn : nil
                rowLines.append(PipeTable.stripContainerPrefix(source.line(number), quotes: quoteDepth[index], startColumn: firstColumn))
            }
            if let found = PipeTable.recognize(lines: rowLines) {
                if found.headerLine > 0 {
                    var before: [UInt8] = []
                    for line in rowLines[0..<found.headerLine] { before.append(contentsOf: line); before.append(0x0A) }
                    if let prefix = CmarkBridge.parseTopLevelParagraphs(before).first ?? nil {
                        append(.paragraph(InlineExtensions.apply(prefix)), parent: parent,
                               lines: SourceLines(span.first, span.first + found.headerLine - 1))
                    }
                }
                let table = append(.table(Table(alignments: found.alignments, header: [], rows: [])), parent: parent,
                                   lines: SourceLines(span.first + found.headerLine, span.last))
                pendingTables.append((table, found))
                return true
            }
        }
        return false
    }

    /// Parses the cells of every table in one cmark run (one run per table costs a parser's
    /// setup each) and fills the tables in.
    private mutating func parsePendingTables() {
        guard !pendingTables.isEmpty else { return }
        var cells: [[UInt8]] = []
        var tableSizes: [Int] = []
        for pending in pendingTables {
            cells.append(contentsOf: pending.found.cells)
            tableSizes.append(pending.found.cells.count)
        }
        // Reference links in cells resolve against the document's definitions.
        let definitions = cells.contains { $0.contains(UInt8(ascii: "]")) } ? linkDefinitionCandidates() : []
        let inlines = TableCells.parse(cells, groupSizes: tableSizes, definitions: definitions)
        var start = 0
        for pending in pendingTables {
            let count = pending.found.cells.count
            kinds[pending.block] = .table(pending.found.table(cells: inlines[start..<(start + count)]))
            start += count
        }
        pendingTables = []
    }

    /// Every source line outside code and HTML blocks that is a whole one-line link reference
    /// definition (`[label]: destination "title"` after indentation and `>`; `ChunkPlan`'s
    /// test), each followed by a blank line: parsed after a table's cells, they leave no block.
    private func linkDefinitionCandidates() -> [UInt8] {
        guard source.lineCount > 0 else { return [] }
        var literal = [Bool](repeating: false, count: source.lineCount + 2)
        for block in raw {
            switch block.kind {
            case .codeBlock, .htmlBlock:
                // cmark reports an HTML block that interrupts a paragraph (`para\n<!-- c -->`)
                // with an end line before its start line: the block is at least its first line.
                let first = max(1, block.startLine), last = min(max(first, block.endLine), source.lineCount)
                if first <= last { for n in first...last { literal[n] = true } }
            default: break
            }
        }
        var out: [UInt8] = []
        for n in 1...source.lineCount where !literal[n] {
            let line = source.line(n)
            var p = line.startIndex
            while p < line.endIndex, line[p] == 0x20 || line[p] == 0x09 || line[p] == UInt8(ascii: ">") { p += 1 }
            guard p < line.endIndex, line[p] == UInt8(ascii: "[") else { continue }
            let rest = Array(line[p...])
            guard rest.withUnsafeBufferPointer({ LineScan.isWholeDefinition($0, 0, $0.count) }) else { continue }
            out += rest
            out += [0x0A, 0x0A]
        }
        return out
    }

    @discardableResult
    private mutating func append(_ kind: BlockKind, parent: Int, lines span: SourceLines) -> Int {
        let index = kinds.count
        kinds.append(kind)
        parents.append(parent)
        lines.append(span)
        depths.append(parent < 0 ? 0 : depths[parent] + 1)
        children.append([])
        if parent >= 0 { children[parent].append(BlockID(index)) }
        return index
    }

    /// cmark's line range, repaired so that `1 <= first <= last <= lineCount`.
    ///
    /// cmark reports a block that ends at a blank line (a list, an item, indented code) with
    /// end column 0 on the line after; that line is not part of the block. A list or item
    /// that ends at a blank line also counts the blank lines before its end: containers
    /// lose trailing lines that are blank inside their block quotes.
    private func sourceLines(_ index: Int) -> SourceLines {
        let block = raw[index]
        let lineCount = max(1, source.lineCount)
        let first = min(max(1, block.startLine), lineCount)
        var last = block.endLine
        if block.endColumn == 0, last > first { last -= 1 }
        if case .htmlBlock(let html) = block.kind {
            // cmark 0.30 reports an HTML block that its end marker closes (`-->`, `</pre>`…) as
            // ending a line early; its literal holds exactly its lines.
            last = first - 1 + Self.lineCount(of: html)
        }
        last = min(max(first, last), lineCount)
        switch block.kind {
        case .blockQuote, .list, .item:
            var quotes = quoteDepth[index]
            if case .blockQuote = block.kind { quotes += 1 }
            while last > first, PipeTable.stripContainerPrefix(source.line(last), quotes: quotes, startColumn: nil).isEmpty {
                last -= 1
            }
        default:
            break
        }
        return SourceLines(first, last)
    }

    /// Lines of a block's literal text (a last line without LF counts too).
    static func lineCount(of literal: String) -> Int {
        var count = 0, last: UInt8 = 0x0A
        for byte in literal.utf8 {
            if byte == 0x0A { count += 1 }
            last = byte
        }
        return max(1, count + (last == 0x0A ? 0 : 1))
    }

    /// The bullet character of a bullet list: cmark's start column points at the marker.
    private func bullet(_ block: RawBlock) -> Character {
        let line = source.line(block.startLine)
        let offset = line.startIndex + block.startColumn - 1
        if offset >= line.startIndex, offset < line.endIndex {
            switch line[offset] {
            case UInt8(ascii: "*"): return "*"
            case UInt8(ascii: "+"): return "+"
            default: return "-"
            }
        }
        return "-"
    }

    /// cmark 0.30 has no getter for "fenced". A fenced block's start column points at its
    /// fence (`` ` `` or `~`), and its start line is the fence line, not the first line of its
    /// literal. An indented block starts at its first literal line (cmark strips the indent).
    private func isFenced(_ block: RawBlock, info: String, literal: String) -> Bool {
        if !info.isEmpty { return true }
        let line = source.line(block.startLine)
        let offset = line.startIndex + block.startColumn - 1
        guard offset >= line.startIndex, offset < line.endIndex,
              line[offset] == UInt8(ascii: "`") || line[offset] == UInt8(ascii: "~") else { return false }
        let rest = line[offset...]
        let firstLiteralLine = literal.utf8.prefix { $0 != 0x0A && $0 != 0x0D }
        return !rest.elementsEqual(firstLiteralLine)
    }
}
