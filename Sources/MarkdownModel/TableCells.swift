/// Inline parsing of table cells, batched: one cmark run per table, not per cell.
///
/// The non-empty cells are joined into one document, one paragraph each, separated by blank
/// lines. A cell whose text would open a block (`# x`, `- x`, `1. x`, `> x`, a thematic break,
/// a code fence) gets that first character escaped, so every cell stays a paragraph of inline
/// text. If cmark still sees a different number of paragraphs (an HTML block, a link reference
/// definition), each cell is parsed alone; a cell that is still not a paragraph keeps its
/// text as written.
enum TableCells {
    static func parse(_ cells: [[UInt8]]) -> [Inlines] {
        var result = Array(repeating: Inlines(), count: cells.count)
        var document: [UInt8] = []
        var filled: [Int] = []
        for (index, cell) in cells.enumerated() where !cell.isEmpty {
            document.append(contentsOf: neutralizingBlockStart(cell))
            document.append(contentsOf: [0x0A, 0x0A])
            filled.append(index)
        }
        guard !filled.isEmpty else { return result }
        let paragraphs = CmarkBridge.parseTopLevelParagraphs(document)
        if paragraphs.count == filled.count, paragraphs.allSatisfy({ $0 != nil }) {
            for (slot, index) in filled.enumerated() {
                result[index] = InlineExtensions.apply(paragraphs[slot]!)
            }
            return result
        }
        for index in filled {
            let alone = CmarkBridge.parseTopLevelParagraphs(neutralizingBlockStart(cells[index]))
            if alone.count == 1, let inlines = alone[0] {
                result[index] = InlineExtensions.apply(inlines)
            } else {
                result[index] = Inlines([InlineNode(.text(String(decoding: cells[index], as: UTF8.self)))])
            }
        }
        return result
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
