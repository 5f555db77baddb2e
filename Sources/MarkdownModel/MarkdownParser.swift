import Threads

/// Parses Markdown (CommonMark via libcmark, plus GitHub's pipe tables, task list items,
/// strikethrough and bare autolinks) into a `Document`.
///
/// Total: every byte sequence parses. Invalid UTF-8 and NUL become U+FFFD. Parsing and every
/// pass over the result are iterative, so nesting depth is bounded by memory, not the stack.
public enum MarkdownParser {
    /// Sources of at least this size are parsed in pieces on all cores when `ChunkPlan` can
    /// cut them; the result is the same `Document` (tested), ids and lines included.
    public static let piecewiseBytes = 1 << 20
    /// Target size of one piece: small enough to spread over the cores, large enough that the
    /// per-piece cost (parser set-up, the link definitions parsed in front) stays negligible.
    public static let pieceBytes = 256 << 10

    /// `inPieces: false` parses in one piece whatever the size (for callers that already
    /// tried the pieces). `packed: false` leaves the inlines as arrays of nodes (`Inlines`):
    /// print mode lays each block out once and would only pay for packing and unpacking.
    public static func parse(_ bytes: [UInt8], inPieces: Bool = true, packed: Bool = true) -> Document {
        parseReporting(bytes, inPieces: inPieces, packed: packed).document
    }

    /// `parse`, with whether the pieces were used and, if not, why.
    public static func parseReporting(_ bytes: [UInt8], inPieces: Bool = true,
                                      packed: Bool = true) -> (document: Document, report: PieceReport) {
        var bytes = bytes  // (shared with the caller's: nothing writes to it without a keeper)
        return parseReporting(handingOver: &bytes, inPieces: inPieces, packed: packed)
    }

    /// The parse behind every other: in pieces when the source is large enough and can be
    /// cut, else whole, with the report of which and why. `bytes` is left empty; `giveBack`
    /// and `keeper` as `parse(handingOver:giveBack:keeper:)` says.
    public static func parseReporting(handingOver bytes: inout [UInt8], inPieces: Bool = true, packed: Bool = true,
                                      giveBack: (() -> Void)? = nil,
                                      keeper: SourceKeeper? = nil) -> (document: Document, report: PieceReport) {
        defer { bytes = [] }
        let reason: PieceReport.Reason
        if !inPieces {
            reason = .notAsked
        } else if bytes.count < piecewiseBytes {
            reason = .small
        } else {
            switch ChunkPlan.make(bytes, targetBytes: pieceBytes) {
            case .failure(let refusal):
                reason = refusal
            case .success(let plan):
                switch parseInPieces(&bytes, plan: plan, packed: packed, giveBack: giveBack, keeper: keeper) {
                case .success(let parsed):
                    return (parsed.document, PieceReport(pieces: parsed.pieces, healed: parsed.healed))
                case .failure(let refusal):
                    reason = refusal
                }
            }
        }
        return (parseWhole(bytes, packed: packed), PieceReport(whole: reason))
    }

    /// One parse of the whole source.
    private static func parseWhole(_ bytes: [UInt8], packed: Bool) -> Document {
        var builder: DocumentBuilder
        if let frontMatter = FrontMatter.detect(bytes) {
            let source = SourceText(Array(bytes[frontMatter.byteCount...]))
            let lineCount = frontMatter.lineCount + source.lineCount
            builder = DocumentBuilder(source: source, raw: CmarkBridge.parseBlocks(source.bytes), lineOffset: frontMatter.lineCount,
                                      sourceLineCount: lineCount, frontMatter: frontMatter, packed: packed)
        } else {
            let source = SourceText(bytes)
            builder = DocumentBuilder(source: source, raw: CmarkBridge.parseBlocks(source.bytes), packed: packed)
        }
        return Footnotes.apply(builder.build(), source: builder.source, lineOffset: builder.lineOffset)
    }

    public static func parse(_ text: String) -> Document { parse(Array(text.utf8)) }

    /// `parse`, for a caller that hands its bytes over (`bytes` is left empty): a large
    /// source's bytes are let go as soon as its pieces are parsed, before they are joined
    /// (the footnote pass keeps only the lines it reads), so the source, the pieces and the joined
    /// document are never held at once (20 MB of a 20 MB changelog's peak). The caller lets
    /// go of every other reference to them first, or nothing is saved.
    ///
    /// `giveBack`, when given, is called a few times while the pieces are joined: the joined
    /// document is a new array of blocks, and the pieces freed as they are copied stay in
    /// the heap until something gives their pages back (the pager passes `malloc_trim`;
    /// without it a 20 MB changelog's join held both, ~20 MB at the pager's peak).
    ///
    /// `keeper`, when given, lets the bytes of the pieces already parsed go while the others
    /// are (`ChunkPlan.run`'s `settled`: a 20 MB changelog held its 20 MB of source until its
    /// last piece was parsed, at the top of the pager's peak): each run of them is handed to
    /// the keeper, then its pages are given back; if the pieces cannot be used after all,
    /// the keeper gives the source back (`SourceKeeper.restore`) to be parsed whole.
    public static func parse(handingOver bytes: inout [UInt8], packed: Bool = true,
                             giveBack: (() -> Void)? = nil, keeper: SourceKeeper? = nil) -> Document {
        parseReporting(handingOver: &bytes, packed: packed, giveBack: giveBack, keeper: keeper).document
    }

    /// `parse(handingOver:giveBack:keeper:)` with `reread`, which reads the same bytes again
    /// (a file), for keeper.
    public static func parse(handingOver bytes: inout [UInt8], packed: Bool = true,
                             giveBack: (() -> Void)? = nil, reread: @escaping @Sendable () -> [UInt8]) -> Document {
        parse(handingOver: &bytes, packed: packed, giveBack: giveBack, keeper: RereadingKeeper(reread))
    }

    /// The pieces of `plan` parsed on all cores and joined into one document, or nil when the
    /// link definitions disagree (then parse whole).
    public static func parseInPieces(_ bytes: [UInt8], plan: ChunkPlan, packed: Bool = true) -> Document? {
        var bytes = bytes
        return try? parseInPieces(&bytes, plan: plan, packed: packed, giveBack: nil, keeper: nil).get().document
    }

    /// `parseInPieces`, emptying `bytes` once the pieces are parsed (the footnote pass keeps
    /// what it reads: `Footnotes.Source`); the same bytes when it gives nil.
    private static func parseInPieces(_ bytes: inout [UInt8], plan: ChunkPlan, packed: Bool,
                                      giveBack: (() -> Void)?, keeper: SourceKeeper?)
        -> Result<(document: Document, pieces: Int, healed: Int), PieceReport.Reason> {
        // What the footnote pass reads of the source is taken first: the bytes are let go.
        let footnotes = footnoteSource(bytes, plan: plan)
        var settled: ((Range<Int>) -> Void)?
        var letGo = false
        if let keeper {
            // The pages of settled pieces are given back once the keeper has them (they read
            // as zeros from then on: nothing reads them again, and the keeper gives them back
            // if the pieces fail). Only from a buffer no other array shares: asking for it
            // mutably makes it ours (a copy when shared, which the parse worker's own array
            // never is).
            let base = bytes.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
            let page = UInt(Platform.pageSize)
            settled = { range in
                let from = (base + UInt(range.lowerBound) + page - 1) / page * page
                let to = (base + UInt(range.upperBound)) / page * page
                guard base != 0, to > from else { return }
                let pages = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: from), count: Int(to - from))
                guard keeper.keep(pages, at: Int(from - base)) else { return }
                Platform.releasePages(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: from), count: Int(to - from)))
                letGo = true
            }
        }
        var pieces: [Document], healed: Int
        switch parsePieces(of: bytes, plan: plan, packed: packed, giveBack: giveBack, settled: settled) {
        case .failure(let reason):
            if letGo, let keeper { keeper.restore(&bytes) }
            keeper?.discard()
            return .failure(reason)
        case .success(let parsed):
            (pieces, healed) = parsed
        }
        keeper?.discard()
        bytes = []
        let count = pieces.count
        let document = finish(join(&pieces, sourceLineCount: plan.sourceLineCount, frontMatter: plan.frontMatter,
                                   giveBack: giveBack),
                              footnotes: footnotes, plan: plan)
        return .success((document, count, healed))
    }

    /// Each piece of `plan` parsed (a function of its own, so that nothing holds `bytes`
    /// once it returns).
    /// `giveBack` is called as the pieces pass each eighth of the source (each piece's cmark
    /// tree is freed when its blocks are built, among the blocks kept).
    private static func parsePieces(of bytes: [UInt8], plan: ChunkPlan, packed: Bool,
                                    giveBack: (() -> Void)? = nil, settled: ((Range<Int>) -> Void)? = nil)
        -> Result<(values: [Document], healed: Int), PieceReport.Reason> {
        let eighth = max(1, bytes.count / 8)
        return plan.runReporting({ chunk in
            // After each piece that ends in a new eighth of the source.
            defer { if let giveBack, chunk.bytes.lowerBound / eighth != chunk.bytes.upperBound / eighth { giveBack() } }
            return parse(chunk, of: bytes, plan: plan, packed: packed)
        }, settled: settled)
    }

    /// The joined pieces as one parse gives them: with the footnote pass, which needs the
    /// whole document (it numbers and gathers the footnotes), when the source has any.
    static func finish(_ joined: Document, source bytes: [UInt8], plan: ChunkPlan) -> Document {
        finish(joined, footnotes: footnoteSource(bytes, plan: plan), plan: plan)
    }

    private static func finish(_ joined: Document, footnotes: Footnotes.Source?, plan: ChunkPlan) -> Document {
        guard let footnotes else { return joined }
        return Footnotes.apply(joined, source: footnotes, lineOffset: plan.frontMatter?.lineCount ?? 0)
    }

    /// What the footnote pass reads of `bytes` (nil: the plan saw no footnotes): as one parse
    /// runs it, over the text after the front matter, lines offset by it.
    private static func footnoteSource(_ bytes: [UInt8], plan: ChunkPlan) -> Footnotes.Source? {
        guard plan.hasFootnotes else { return nil }
        guard let frontMatter = plan.frontMatter else { return Footnotes.Source(SourceText(bytes)) }
        return Footnotes.Source(SourceText(Array(bytes[frontMatter.byteCount...])))
    }

    /// Documents of consecutive pieces as one: their top-level blocks become children of one
    /// root, ids renumbered in pre-order (each piece's blocks shift by the blocks before it).
    /// Each piece is let go (left empty in `pieces`) as soon as it is copied, so the blocks
    /// are not held twice.
    /// With `frontMatter`, its block comes first, as one parse places it.
    /// `giveBack` is called after each eighth of the pieces' blocks is let go.
    static func join(_ pieces: inout [Document], sourceLineCount: Int, frontMatter: FrontMatter? = nil,
                     giveBack: (() -> Void)? = nil) -> Document {
        var blocks: [Block] = []
        let total = pieces.reduce(2) { $0 + $1.blocks.count - 1 }
        blocks.reserveCapacity(total)
        var letGo = 0
        blocks.append(Block(id: BlockID(0), kind: .document, parent: nil, children: [], depth: 0,
                            source: SourceLines(1, max(1, sourceLineCount))))
        var topLevel: [BlockID] = []
        if let frontMatter {
            blocks.append(Block(id: BlockID(1), kind: .frontMatter(literal: frontMatter.literal, toml: frontMatter.toml),
                                parent: BlockID(0), children: [], depth: 1, source: SourceLines(1, frontMatter.lineCount)))
            topLevel.append(BlockID(1))
        }
        var anchors: [String: BlockID] = [:]
        var hidden: [SourceLines] = []
        let emptied = Document(blocks: [Block(id: BlockID(0), kind: .document, parent: nil, children: [], depth: 0,
                                              source: SourceLines(1, 1))], sourceLineCount: 0)
        for k in pieces.indices {
            let piece = pieces[k]
            pieces[k] = emptied
            hidden += piece.hiddenLines
            let offset = blocks.count - 1
            for (name, id) in piece.anchors where anchors[name] == nil {
                anchors[name] = BlockID(id.rawValue == 0 ? 0 : id.rawValue + offset)
            }
            let shift = blocks.count - 1  // a piece's block i > 0 becomes i + shift
            for block in piece.blocks.dropFirst() {
                let parent = block.parent.map { $0.rawValue == 0 ? 0 : $0.rawValue + shift } ?? 0
                let id = BlockID(block.id.rawValue + shift)
                if parent == 0 { topLevel.append(id) }
                blocks.append(Block(id: id, kind: block.kind.reallocated(), parent: BlockID(parent),
                                    children: block.children.isEmpty ? [] : block.children.map { BlockID($0.rawValue + shift) },
                                    depth: block.depth, source: block.source, continuesPrevious: block.continuesPrevious))
            }
            if let giveBack {
                letGo += piece.blocks.count
                if letGo >= total / 8 { _ = consume piece; giveBack(); letGo = 0 }
            }
        }
        blocks[0] = Block(id: BlockID(0), kind: .document, parent: nil, children: topLevel, depth: 0,
                          source: SourceLines(1, max(1, sourceLineCount)))
        return Document(blocks: blocks, sourceLineCount: sourceLineCount, anchors: anchors, hiddenLines: hidden)
    }

    /// What parsing one piece gave: the piece (block source lines as in the whole source,
    /// block ids from 0), or why it cannot be used as it is.
    public typealias PieceResult = PieceOutcome<Document>

    /// Parses one piece of `plan` on its own, the plan's link definitions in front and the
    /// line after the piece behind it (see `ChunkPlan`). The result is what the whole source
    /// gives for these lines when the piece starts at the source's start or at a cut that the
    /// piece before it accepted.
    public static func parse(_ chunk: ChunkPlan.Chunk, of source: [UInt8], plan: ChunkPlan,
                             packed: Bool = true) -> PieceResult {
        let (definitions, definitionLines, labels) = plan.definitions(for: chunk, in: source)
        var text: [UInt8] = []
        text.reserveCapacity(3 + plan.definitions.count + chunk.bytes.count + (chunk.nextLine?.count ?? 0)
                             + chunk.probes.reduce(0) { $0 + $1.count + 4 })
        // The source's byte order mark belongs at the very start, where cmark skips it (one
        // only): it goes in front of the definitions, which would otherwise hide it.
        var bytes = source[chunk.bytes]
        if chunk.bytes.lowerBound == 0, SourceText.hasByteOrderMark(bytes) {
            text += bytes.prefix(3)
            bytes = bytes.dropFirst(3)
        }
        // cmark stops resolving references once their expansions pass max(bytes parsed,
        // 100,000) (`withinReferenceBudget`). When the piece's labels could pass it (each
        // looks up at most one definition), blank lines in front raise it, up to what it is
        // with every definition in front, for little work (lines of spaces).
        let unpadded = 3 + definitions.count + chunk.bytes.count + (chunk.nextLine?.count ?? 0)
            + chunk.probes.reduce(0) { $0 + $1.count + 4 }
        let bound = ((labels ?? 0) + 1) * plan.longestDefinition
        var padding = bound <= max(unpadded, 100_000) ? 0 : min(plan.definitions.count - definitions.count, bound - unpadded)
        var paddingLines = 0
        while padding > 0 {
            let line = min(padding, 4096)
            text += repeatElement(0x20, count: line - 1)
            text.append(0x0A)
            padding -= line
            paddingLines += 1
        }
        text += definitions
        // Probes (see `ChunkPlan`): each label alone in a paragraph, between the definitions
        // and the piece, where (like the definitions) they leave nothing open.
        for label in chunk.probes {
            text.append(0x5B); text += label; text += [0x5D, 0x0A, 0x0A]
        }
        text += bytes
        if let next = chunk.nextLine { text += source[next] }
        let sourceText = SourceText(text)
        var raw = CmarkBridge.parseBlocks(sourceText.bytes)
        let expanded = linkBytes(raw)
        guard plan.withinReferenceBudget(chunk, parsedBytes: sourceText.bytes.count, expanded: expanded) else {
            return .definitionsDisagree
        }

        let probesFrom = paddingLines + definitionLines + 1
        let before = paddingLines + definitionLines + 2 * chunk.probes.count  // lines in front of the piece
        let firstLocal = before + 1, lastLocal = before + chunk.lineCount
        // The line after the piece must start a top-level heading or paragraph: then nothing
        // was open at the cut. That block is the next piece's; drop it here.
        if chunk.nextLine != nil {
            guard raw.count > 1, let last = raw.last, last.parent == 0, last.startLine == lastLocal + 1
            else { return .openAtEnd }
            switch last.kind {
            case .heading, .paragraph: raw.removeLast()
            default: return .openAtEnd
            }
        }
        // Each probe is a paragraph of plain text: its label was not defined, so its line in
        // the piece was not consumed as a definition.
        if !chunk.probes.isEmpty {
            let probes = raw.indices.dropFirst().filter { raw[$0].startLine >= probesFrom && raw[$0].startLine <= before }
            guard probes.count == chunk.probes.count else { return .definitionsDisagree }
            for k in probes {
                guard raw[k].parent == 0, case .paragraph(let inlines) = raw[k].kind,
                      !inlines.nodes.contains(where: { if case .link = $0.kind { true } else { false } })
                else { return .definitionsDisagree }
            }
        }
        // Drop what the definitions in front left (text after a definition that was not one).
        var firstKept = 1
        while firstKept < raw.count, raw[firstKept].startLine <= before { firstKept += 1 }
        if firstKept > 1 {
            raw.removeSubrange(1..<firstKept)
            for i in 1..<raw.count where raw[i].parent >= firstKept { raw[i].parent -= firstKept - 1 }
        }
        var builder = DocumentBuilder(source: sourceText, raw: consume raw, lineOffset: chunk.firstLine - firstLocal,
                                      sourceLineCount: chunk.firstLine - 1 + chunk.lineCount, packed: packed)
        let document = builder.build()
        guard definitionsAgree(chunk, document, source: sourceText, firstLocal: firstLocal) else {
            return .definitionsDisagree
        }
        return .done(document, expanded: expanded)
    }

    /// Bytes of the destinations and titles of every link and image in `raw`.
    private static func linkBytes(_ raw: [RawBlock]) -> Int {
        var total = 0
        for block in raw {
            let inlines: Inlines
            switch block.kind {
            case .paragraph(let x), .heading(_, let x): inlines = x
            default: continue
            }
            for node in inlines.nodes {
                switch node.kind {
                case .link(let destination, let title, _), .image(let destination, let title):
                    total += destination.utf8.count + title.utf8.count
                default: break
                }
            }
        }
        return total
    }

    /// Exactly the proposed definition lines of the piece belong to no block (cmark consumed
    /// them as definitions), and every `]:` line the scan placed in code is inside a top-level
    /// code or HTML block. Lines are the whole source's, as in `document`; `firstLocal` is the
    /// piece's first line in `source` (after the definitions in front).
    private static func definitionsAgree(_ chunk: ChunkPlan.Chunk, _ document: Document, source: SourceText,
                                         firstLocal: Int) -> Bool {
        let first = chunk.firstLine, last = chunk.firstLine + chunk.lineCount - 1
        guard last >= first else { return chunk.definitionLines.isEmpty && chunk.literalLines.isEmpty }
        var covered = [Bool](repeating: false, count: chunk.lineCount)
        var literal = [Bool](repeating: false, count: chunk.lineCount)
        // Hidden blocks (HTML comments) were blocks all the same.
        for lines in document.hiddenLines {
            let from = max(lines.first, first), to = min(lines.last, last)
            guard from <= to else { continue }
            for n in from...to { covered[n - first] = true }
        }
        for id in document[document.root].children {
            let block = document[id]
            let from = max(block.source.first, first), to = min(block.source.last, last)
            guard from <= to else { continue }
            var isLiteral = false
            switch block.kind {
            case .codeBlock, .htmlBlock: isLiteral = true
            default: break
            }
            for n in from...to {
                covered[n - first] = true
                if isLiteral { literal[n - first] = true }
            }
        }
        for line in chunk.literalLines where !literal[line - first] { return false }
        var definitions = chunk.definitionLines.makeIterator()
        var nextDefinition = definitions.next()
        for n in first...last {
            let isDefinition = nextDefinition == n
            if isDefinition { nextDefinition = definitions.next() }
            if covered[n - first] {
                if isDefinition { return false }
            } else if !isDefinition, !source.line(n - first + firstLocal).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                return false
            }
        }
        return true
    }
}
