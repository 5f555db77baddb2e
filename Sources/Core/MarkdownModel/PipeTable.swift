/// GitHub pipe tables, recognised from a paragraph's source lines.
///
/// ```
/// | a | b |      header row (its cells must match the delimiter row in number)
/// |:--|--:|      delimiter row: `-`+ with optional colons → alignment
/// | 1 | 2 |      body rows until the paragraph ends (fewer cells padded, extra dropped)
/// ```
/// Leading and trailing pipes are optional; `\|` is a pipe inside a cell. The header and
/// delimiter rows may start after the paragraph's first line: the lines before stay a
/// paragraph. Cell text is parsed as inline Markdown.
///
/// Known limits: a table is only found inside one cmark paragraph, so a line that cmark
/// reads as a lazy continuation (e.g. `| x |` without the `>` of the quote holding the table)
/// becomes a row; a table with no unescaped pipe at all is not recognised; reference links
/// inside cells and before a table in the same paragraph are not resolved.
enum PipeTable {
    /// A recognised table whose cells are not parsed yet (cells of many tables are parsed
    /// together, see `TableCells`).
    struct Found {
        /// Index in the given lines of the header row.
        var headerLine: Int
        var alignments: [TableAlignment]
        /// Header cells, then each body row's cells (padded or cut to `alignments.count`).
        var cells: [[UInt8]]
        var rowCount: Int

        /// The table, given the parsed `cells` (same order and count).
        func table(cells inlines: ArraySlice<Inlines>) -> Table {
            precondition(inlines.count == cells.count, "one inline list per cell")
            let width = alignments.count
            let start = inlines.startIndex
            let header = Array(inlines[start..<(start + width)])
            var rows: [[Inlines]] = []
            rows.reserveCapacity(rowCount)
            for row in 1...max(1, rowCount) where row <= rowCount {
                let rowStart = start + width * row
                rows.append(Array(inlines[rowStart..<(rowStart + width)]))
            }
            return Table(alignments: alignments, header: header, rows: rows)
        }
    }

    /// A paragraph line without its container prefix.
    ///
    /// On the paragraph's first line cmark's start column (1-based UTF-8 byte column) says
    /// where the text starts. On the other lines, up to `quotes` block-quote markers (each
    /// `>` with the white space around it) and the list indentation are skipped; a lazy
    /// continuation line may lack them. A paragraph line never starts with `>` after its own
    /// prefix (that would open a block quote), so skipping `>` cannot eat content.
    static func stripContainerPrefix(_ line: ArraySlice<UInt8>, quotes: Int, startColumn: Int?) -> ArraySlice<UInt8> {
        if let startColumn {
            let offset = min(line.endIndex, line.startIndex + max(0, startColumn - 1))
            return line[offset...]
        }
        var index = line.startIndex
        var remaining = quotes
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
            } else if byte == UInt8(ascii: ">"), remaining > 0 {
                remaining -= 1
                index += 1
            } else {
                break
            }
        }
        return line[index...]
    }

    /// Finds the first header + delimiter row pair and builds the table from there to the end.
    static func recognize(lines: [ArraySlice<UInt8>]) -> Found? {
        guard lines.count >= 2 else { return nil }
        for delimiterLine in 1..<lines.count {
            guard let alignments = alignments(lines[delimiterLine]) else { continue }
            let headerCells = splitRow(lines[delimiterLine - 1])
            guard headerCells.count == alignments.count,
                  hasPipe(lines[delimiterLine]) || hasPipe(lines[delimiterLine - 1]) else { continue }
            var cells: [[UInt8]] = headerCells
            var rowCount = 0
            for line in lines[(delimiterLine + 1)...] {
                var row = splitRow(line)
                if row.count > alignments.count { row.removeLast(row.count - alignments.count) }
                while row.count < alignments.count { row.append([]) }
                cells.append(contentsOf: row)
                rowCount += 1
            }
            return Found(headerLine: delimiterLine - 1, alignments: alignments, cells: cells, rowCount: rowCount)
        }
        return nil
    }

    /// The alignments of a delimiter row (`| :-- | :-: | --: | --- |`), or nil if `line` is not one.
    static func alignments(_ line: ArraySlice<UInt8>) -> [TableAlignment]? {
        // Fast reject: only `|`, `:`, `-` and white space may occur.
        for byte in line {
            switch byte {
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            default: return nil
            }
        }
        let cells = splitRow(line)
        guard !cells.isEmpty else { return nil }
        var result: [TableAlignment] = []
        result.reserveCapacity(cells.count)
        for cell in cells {
            guard !cell.isEmpty else { return nil }
            let left = cell.first == UInt8(ascii: ":")
            let right = cell.count > 1 && cell.last == UInt8(ascii: ":")
            let dashes = cell.dropFirst(left ? 1 : 0).dropLast(right ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
            result.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return result
    }

    /// The cells of a row: trimmed, with `\|` turned into `|`. A leading and a trailing
    /// unescaped pipe are optional and do not make cells of their own.
    static func splitRow(_ line: ArraySlice<UInt8>) -> [[UInt8]] {
        var cells: [[UInt8]] = []
        var index = line.startIndex
        let end = line.endIndex
        while index < end, isSpace(line[index]) { index += 1 }
        if index < end, line[index] == UInt8(ascii: "|") { index += 1 }
        var cell: [UInt8] = []
        var sawContentAfterLastPipe = false
        while index < end {
            let byte = line[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end {
                let next = line[index + 1]
                if next != UInt8(ascii: "|") { cell.append(byte) }
                cell.append(next)
                index += 2
                sawContentAfterLastPipe = true
                continue
            }
            if byte == UInt8(ascii: "|") {
                cells.append(trimmed(cell))
                cell.removeAll(keepingCapacity: true)
                sawContentAfterLastPipe = false
            } else {
                cell.append(byte)
                if !isSpace(byte) { sawContentAfterLastPipe = true }
            }
            index += 1
        }
        if sawContentAfterLastPipe || cells.isEmpty { cells.append(trimmed(cell)) }
        return cells
    }

    private static func hasPipe(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == UInt8(ascii: "\\") { index += 2; continue }
            if line[index] == UInt8(ascii: "|") { return true }
            index += 1
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return start == 0 && end == bytes.count ? bytes : Array(bytes[start..<end])
    }
}
