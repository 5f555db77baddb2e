/// One piece of a plan parsed on its own.
extension ChunkPlan {
    /// Parses one piece of this plan on its own, the plan's link definitions in front and the
    /// line after the piece behind it (see `ChunkPlan`): the piece (block source lines as in
    /// the whole source, block ids from 0), or why it cannot be used as it is. The result is
    /// what the whole source gives for these lines when the piece starts at the source's
    /// start or at a cut that the piece before it accepted.
    ///
    /// Not a way to parse a document (that is `MarkdownParser.parse`): work on the pieces
    /// themselves, print mode's (each piece laid out and rendered on its own) and the tests'.
    /// `packed` as `ParseOptions.packed`.
    package func parse(_ chunk: Chunk, of source: [UInt8], packed: Bool = true) -> PieceOutcome<Document> {
        let (definitions, definitionLines, labels) = self.definitions(for: chunk, in: source)
        // What the piece's text holds before any padding: a byte order mark, the definitions,
        // the chunk, the next line and the probes with their separators.
        let unpadded = 3 + definitions.count + chunk.bytes.count + (chunk.nextLine?.count ?? 0)
            + chunk.probes.reduce(0) { $0 + $1.count + 4 }
        var text: [UInt8] = []
        text.reserveCapacity(unpadded + self.definitions.count - definitions.count)  // (with the most padding)
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
        let bound = ((labels ?? 0) + 1) * longestDefinition
        var padding = bound <= max(unpadded, 100_000) ? 0 : min(self.definitions.count - definitions.count, bound - unpadded)
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
        let expanded = Self.linkBytes(raw)
        guard withinReferenceBudget(chunk, parsedBytes: sourceText.bytes.count, expanded: expanded) else {
            return .overReferenceBudget
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
        guard Self.definitionsAgree(chunk, document, source: sourceText, firstLocal: firstLocal) else {
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
    private static func definitionsAgree(_ chunk: Chunk, _ document: Document, source: SourceText,
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
