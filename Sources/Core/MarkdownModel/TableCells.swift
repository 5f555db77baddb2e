/// Inline parsing of table cells, batched: one cmark run per table, not per cell.
///
/// The non-empty cells are joined into one document, one paragraph each, separated by blank
/// lines. A cell whose text would open a block (`# x`, `- x`, `1. x`, `> x`, a thematic break,
/// a code fence) gets that first character escaped, so every cell stays a paragraph of inline
/// text. If cmark still sees a different number of paragraphs (an HTML block, a link reference
/// definition), each cell is parsed alone; a cell that is still not a paragraph keeps its
/// text as written.
///
/// `definitions` (link reference definitions of the document, each followed by a blank line)
/// are parsed after the cells, so that reference links in cells resolve (they must be whole
/// definitions, which leave no block).
///
/// `groupSizes` splits the cells into groups (one per table): when the whole batch does not
/// come out as one paragraph per cell, each group is retried on its own, so one odd cell
/// does not make every table of the document fall back to per-cell parsing.
enum TableCells {
    static func parse(_ cells: [[UInt8]], groupSizes: [Int]? = nil, definitions: [UInt8] = []) -> [Inlines] {
        if let batch = parseBatch(cells[...], definitions: definitions) { return batch }
        var result: [Inlines] = []
        result.reserveCapacity(cells.count)
        var start = 0
        for size in groupSizes ?? [cells.count] {
            let group = cells[start..<(start + size)]
            if groupSizes != nil, let batch = parseBatch(group, definitions: definitions) {
                result.append(contentsOf: batch)
            } else {
                for cell in group { result.append(parseAlone(cell, definitions: definitions)) }
            }
            start += size
        }
        return result
    }

    /// One cmark run for all cells, or nil when cmark does not see one paragraph per cell.
    private static func parseBatch(_ cells: ArraySlice<[UInt8]>, definitions: [UInt8]) -> [Inlines]? {
        var result = Array(repeating: Inlines(), count: cells.count)
        var document: [UInt8] = []
        var filled: [Int] = []
        for (offset, cell) in cells.enumerated() where !cell.isEmpty {
            document.append(contentsOf: neutralizingBlockStart(cell))
            document.append(contentsOf: [0x0A, 0x0A])
            filled.append(offset)
        }
        guard !filled.isEmpty else { return result }
        document += definitions
        let paragraphs = CmarkBridge.parseTopLevelParagraphs(document)
        guard paragraphs.count == filled.count, paragraphs.allSatisfy({ $0 != nil }) else { return nil }
        for (slot, offset) in filled.enumerated() {
            let cell = cells[cells.startIndex + offset]
            let inlines = cell.contains(0x7E) ? EscapedTilde.mark(paragraphs[slot]!, source: [cell[...]]) : paragraphs[slot]!
            result[offset] = InlineExtensions.apply(inlines)
        }
        return result
    }

    /// A cell parsed alone; a cell that is still not one paragraph keeps its text as written.
    private static func parseAlone(_ cell: [UInt8], definitions: [UInt8]) -> Inlines {
        guard !cell.isEmpty else { return Inlines() }
        let alone = CmarkBridge.parseTopLevelParagraphs(neutralizingBlockStart(cell) + [0x0A, 0x0A] + definitions)
        if alone.count == 1, let inlines = alone[0] { return InlineExtensions.apply(inlines) }
        return Inlines([InlineNode(.text(String(decoding: cell, as: UTF8.self)))])
    }

    /// `cell` with a backslash placed so that it cannot start a block other than a paragraph.
    static func neutralizingBlockStart(_ cell: [UInt8]) -> [UInt8] {
        guard let first = cell.first else { return cell }
        let second = cell.count > 1 ? cell[1] : nil
        let spaceOrEnd = second == nil || second == UInt8(ascii: " ") || second == UInt8(ascii: "\t")
        switch first {
        case UInt8(ascii: "#"), UInt8(ascii: ">"), UInt8(ascii: "="):
            return escapingFirst(cell)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "_"):
            if (first != UInt8(ascii: "_") && spaceOrEnd) || isThematicBreak(cell) { return escapingFirst(cell) }
        case UInt8(ascii: "~"):
            if cell.starts(with: [first, first, first]) { return escapingFirst(cell) }
        case UInt8(ascii: "`"):
            let run = cell.prefix { $0 == first }.count
            if run >= 3, !cell.dropFirst(run).contains(first) { return escapingFirst(cell) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let digits = cell.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            guard digits <= 9, digits < cell.count else { break }
            let delimiter = cell[digits]
            let after = digits + 1 < cell.count ? cell[digits + 1] : nil
            if delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")"),
               after == nil || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") {
                var escaped = Array(cell[0..<digits])
                escaped.append(UInt8(ascii: "\\"))
                escaped.append(contentsOf: cell[digits...])
                return escaped
            }
        default:
            break
        }
        return cell
    }

    private static func escapingFirst(_ cell: [UInt8]) -> [UInt8] { [UInt8(ascii: "\\")] + cell }

    private static func isThematicBreak(_ cell: [UInt8]) -> Bool {
        guard let marker = cell.first else { return false }
        var count = 0
        for byte in cell {
            if byte == marker { count += 1 } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { return false }
        }
        return count >= 3
    }
}
