import Threads

/// Every piece of a plan parsed, on all cores, and the pieces joined into one document.
extension ChunkPlan {
    /// The pieces of this plan parsed on all cores and joined into one document, or why
    /// they cannot be used (then parse whole). `bytes` is emptied once the pieces are parsed
    /// (the footnote pass keeps what it reads: `Footnotes.Source`), and is the same bytes
    /// again when this fails. `packed`, `giveBack` and `keeper` as `ParseOptions` says
    /// (`inPieces` is not read).
    func document(handingOver bytes: inout [UInt8], options: ParseOptions)
        -> Result<(document: Document, pieces: Int, healed: Int), PieceReport.Reason> {
        let keeper = options.keeper, giveBack = options.giveBack
        // What the footnote pass reads of the source is taken first: the bytes are let go.
        let footnotes = footnoteSource(bytes)
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
        switch parsePieces(of: bytes, packed: options.packed, executor: options.executor, giveBack: giveBack, settled: settled) {
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
        let document = finish(Self.join(&pieces, sourceLineCount: sourceLineCount, frontMatter: frontMatter,
                                        giveBack: giveBack),
                              footnotes: footnotes)
        return .success((document, count, healed))
    }

    /// `document(handingOver:options:)` of a copy of `source`, for work that made the plan
    /// itself (print mode, which renders the pieces on their own when it can, and parses them
    /// into one document when footnotes or front matter need it; the tests): the document, or
    /// nil when the pieces cannot be used (then parse whole). Not a way to parse a document
    /// (that is `MarkdownParser.parse`, which makes the plan).
    package func document(of source: [UInt8], packed: Bool = true, executor: Executor = .machine) -> Document? {
        var bytes = source
        return try? document(handingOver: &bytes, options: ParseOptions(packed: packed, executor: executor)).get().document
    }

    /// Each piece parsed (a function of its own, so that nothing holds `bytes` once it
    /// returns).
    /// `giveBack` is called as the pieces pass each eighth of the source (each piece's cmark
    /// tree is freed when its blocks are built, among the blocks kept).
    private func parsePieces(of bytes: [UInt8], packed: Bool, executor: Executor,
                             giveBack: (() -> Void)? = nil, settled: ((Range<Int>) -> Void)? = nil)
        -> Result<(values: [Document], healed: Int), PieceReport.Reason> {
        let eighth = max(1, bytes.count / 8)
        return runReporting(on: executor, { chunk in
            // After each piece that ends in a new eighth of the source.
            defer { if let giveBack, chunk.bytes.lowerBound / eighth != chunk.bytes.upperBound / eighth { giveBack() } }
            return parse(chunk, of: bytes, packed: packed)
        }, settled: settled)
    }

    /// The joined pieces as one parse gives them: with the footnote pass, which needs the
    /// whole document (it numbers and gathers the footnotes), when the source has any.
    func finish(_ joined: Document, source bytes: [UInt8]) -> Document {
        finish(joined, footnotes: footnoteSource(bytes))
    }

    private func finish(_ joined: Document, footnotes: Footnotes.Source?) -> Document {
        guard let footnotes else { return joined }
        return Footnotes.apply(joined, source: footnotes, lineOffset: frontMatter?.lineCount ?? 0)
    }

    /// What the footnote pass reads of `bytes` (nil: the plan saw no footnotes): as one parse
    /// runs it, over the text after the front matter, lines offset by it.
    private func footnoteSource(_ bytes: [UInt8]) -> Footnotes.Source? {
        guard hasFootnotes else { return nil }
        guard let frontMatter else { return Footnotes.Source(SourceText(bytes)) }
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

}
