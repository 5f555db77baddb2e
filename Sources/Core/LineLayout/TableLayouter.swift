import CellWidth
import MarkdownModel

/// Tables: a grid of box-drawing characters, or a stacked list when even the borders don't fit.
///
/// ```
/// ┌──────┬───────┐   natural column width = widest cell (at least 1);
/// │ Name │ Count │   a column is its width plus one blank each side, plus a border:
/// ├──────┼───────┤   table width = Σ widths + 3·columns + 1
/// │ a    │     1 │
/// └──────┴───────┘
/// ```
///
/// When the natural grid is wider than the column, cell widths shrink so that words break as
/// few times as possible (`shrink`); cells wrap inside their columns. When that grid would
/// still break words that fit the width whole — or not even one column per cell fits
/// (`avail < 4·columns + 1`) — each body row becomes a record of `header: cell` lines,
/// records separated by a `─` rule (GitHub's mobile view, mdcat's fallback). Columns that
/// fit keep the grid.
///
/// Content text: cells joined by TAB, rows by LF (header first). In the grid, every visual line
/// of a table row has that row's whole content range (a line shows pieces of several cells, so
/// no narrower range is honest), and the anchor ordinal tells the lines apart; border rows are
/// empty ranges at the next row's content (top: 0, bottom: end of text). In the stacked form,
/// rows have the ranges of the cell text they show.
enum TableLayouter {
    struct Cell {
        var flow: Flow
        var base: Int
        var natural: Int
    }

    static func layout(_ table: Table, block: Block, avail: Int, options: LayoutOptions,
                       into sink: inout RowSink) -> (String, [LinkTarget]) {
        let columns = table.alignments.count
        var text = ""
        var links: [LinkTarget] = []
        var rows: [[Cell]] = []
        for (r, cells) in ([table.header] + table.rows).enumerated() {
            if r > 0 { text.append("\n") }
            var row: [Cell] = []
            for c in 0..<columns {
                if c > 0 { text.append("\t") }
                let inlines = c < cells.count ? cells[c] : Inlines()
                let style = SpanStyle(role: r == 0 ? .tableHeader : .body)
                let flow = Flow(inlines, base: style, inlineLinkURLs: options.inlineLinkURLs,
                            markInlineCode: options.markInlineCode)
                let base = text.utf8.count
                text.append(flow.text)
                for l in flow.links {
                    links.append(LinkTarget(destination: l.destination, range: (l.range.lowerBound + base)..<(l.range.upperBound + base)))
                }
                row.append(Cell(flow: flow, base: base, natural: max(1, naturalWidth(flow))))
            }
            rows.append(row)
        }
        guard columns > 0 else { return (text, links) }
        var widths = (0..<columns).map { c in rows.map { $0[c].natural }.max() ?? 1 }
        let chrome = 3 * columns + 1
        if options.chopLongLines && widths.reduce(0, +) + chrome > avail {
            // -S: the grid at its natural widths, each row cut to the screen at the shift.
            var whole = RowSink(block: block.id, prefix: Prefix())
            grid(rows, widths: widths, alignments: table.alignments, block: block, textEnd: text.utf8.count, into: &whole)
            for line in whole.lines {
                let (spans, width) = chop(line.spans, from: options.horizontalShift, width: avail)
                sink.add(spans, width: width, range: line.range, sourceLine: line.sourceLine)
            }
            return (text, links)
        }
        if widths.reduce(0, +) + chrome > avail {
            let target = avail - chrome
            if target < columns {
                stacked(rows, block: block, avail: avail, textEnd: text.utf8.count, into: &sink)
                return (text, links)
            }
            let words = (0..<columns).map { c in rows.flatMap { wordWidths($0[c].flow) } }
            widths = shrink(widths, to: target, words: words.map { $0.max() ?? 1 }, allWords: words)
            // A grid that must break words the records form would keep whole gives way to
            // records: a table is read by its words, not its lines.
            let gridBreaks = zip(words, widths).reduce(0) { $0 + breaks($1.0, width: $1.1) }
            if gridBreaks > 0 && breaks(words.flatMap { $0 }, width: avail) < gridBreaks {
                stacked(rows, block: block, avail: avail, textEnd: text.utf8.count, into: &sink)
                return (text, links)
            }
        }
        grid(rows, widths: widths, alignments: table.alignments, block: block, textEnd: text.utf8.count, into: &sink)
        return (text, links)
    }

    /// Width of the widest hard-broken line of a cell.
    /// (Split on UTF-8 bytes: splitting a String by Character costs grapheme segmentation of
    /// every cell, which was a tenth of print mode's layout time.)
    static func naturalWidth(_ flow: Flow) -> Int {
        let display = flow.display
        if !display.utf8.contains(0x0A) { return CellWidth.of(display) }  // one line: most cells
        var widest = 0
        for part in display.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            widest = max(widest, CellWidth.of(Substring(part)))
        }
        return widest
    }

    /// Widths of every word of a cell (words end at a space or a hard break).
    static func wordWidths(_ flow: Flow) -> [Int] {
        flow.display.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A }).map { CellWidth.of(Substring($0)) }
    }

    /// Column widths summing to at most `target` (≥ columns).
    ///
    /// Words break as little as possible: each column first asks for its longest word (or its
    /// natural width, if smaller). When those do not all fit, the widths are chosen to break
    /// words the fewest times in the whole table (`allWords`: every word's width, per column;
    /// a word of width L in a column of width w breaks ⌈L / w⌉ − 1 times), ties going to the
    /// most even cut (least Σ shortfall²): a column of many `Experimental` cells keeps its
    /// width, and a one-off long header breaks instead. A small dynamic programme
    /// over (column, width used): O(columns · target · longest word). What is left is shared
    /// in proportion to what each column still lacks of its natural width.
    /// (Without `words`, every column wants its natural width up to a fair share.)
    static func shrink(_ natural: [Int], to target: Int, words: [Int]? = nil, allWords: [[Int]]? = nil) -> [Int] {
        let n = natural.count
        let want: [Int]
        if let words {
            want = (0..<n).map { max(1, min(natural[$0], words[$0])) }
        } else {
            let fair = max(1, target / n)
            want = natural.map { max(1, min($0, fair)) }
        }
        var widths = want
        if want.reduce(0, +) > target {
            widths = fewestBrokenWords(want: want, target: target, words: allWords ?? want.map { [$0] })
        }
        var left = target - widths.reduce(0, +)
        let needs = (0..<n).map { natural[$0] - widths[$0] }
        let totalNeed = needs.reduce(0, +)
        if left > 0 && totalNeed > 0 {
            let share = left
            for i in 0..<n {
                let extra = min(needs[i], share * needs[i] / totalNeed)
                widths[i] += extra
                left -= extra
            }
            while left > 0 {
                var best = -1
                for i in 0..<n where natural[i] > widths[i] && (best < 0 || natural[i] - widths[i] > natural[best] - widths[best]) { best = i }
                if best < 0 { break }
                widths[best] += 1
                left -= 1
            }
        }
        return widths
    }

    /// The columns `from ..< from + width` of a row: whole characters only (a wide one cut by
    /// an edge shows as blanks, a decoration span), each span keeping its style and, for
    /// content, the offset of its first character shown.
    static func chop(_ spans: [Span], from shift: Int, width: Int) -> ([Span], Int) {
        var out: [Span] = []
        var column = 0
        let end = shift + width
        func blanks(_ n: Int, _ style: SpanStyle) {
            out.append(Span(text: String(repeating: " ", count: n), style: style, width: n))
        }
        for span in spans {
            if column >= end { break }
            if column + span.width <= shift { column += span.width; continue }
            if column >= shift && column + span.width <= end {
                out.append(span); column += span.width; continue
            }
            var text = "", w = 0
            var offset = span.contentOffset
            for ch in span.text {
                if column >= end { break }
                let cw = CellWidth.of(String(ch))
                defer { column += cw }
                if column + cw <= shift {
                    offset = offset.map { $0 + ch.utf8.count }
                } else if column < shift {
                    blanks(column + cw - shift, span.style)  // cut by the left edge
                    offset = offset.map { $0 + ch.utf8.count }
                } else if column + cw > end {
                    if w > 0 { out.append(Span(text: text, style: span.style, width: w, contentOffset: offset)); text = ""; w = 0 }
                    blanks(end - column, span.style)  // cut by the right edge
                } else {
                    text += String(ch); w += cw
                }
            }
            if w > 0 { out.append(Span(text: text, style: span.style, width: w, contentOffset: offset)) }
        }
        return (out, out.reduce(0) { $0 + $1.width })
    }

    /// How many times words of these widths break in a column `width` wide.
    static func breaks(_ words: [Int], width: Int) -> Int {
        let w = max(1, width)
        return words.reduce(0) { $0 + ($1 > w ? ($1 + w - 1) / w - 1 : 0) }
    }

    /// Widths `1...want[i]` summing to at most `target` that break `words` the fewest times,
    /// then cut most evenly.
    static func fewestBrokenWords(want: [Int], target: Int, words: [[Int]]) -> [Int] {
        let n = want.count
        let broken = 1 << 32  // one break outweighs any evenness
        // cost[i][w]: column i at width w: each word of width L breaks ⌈L / w⌉ − 1 times.
        let costs: [[Int]] = (0..<n).map { i in
            var counts: [Int: Int] = [:]  // word width → words
            for word in words[i] where word > 1 { counts[word, default: 0] += 1 }
            return (0...want[i]).map { w in
                guard w > 0 else { return Int.max / 4 }
                var breaks = 0
                for (width, count) in counts where width > w { breaks += count * ((width + w - 1) / w - 1) }
                return breaks * broken + (want[i] - w) * (want[i] - w)
            }
        }
        // best[b]: least cost of the columns so far using exactly b columns of width.
        let infinity = Int.max / 2
        var best = [Int](repeating: infinity, count: target + 1)
        best[0] = 0
        var choice = [[Int]](repeating: [Int](repeating: 0, count: target + 1), count: n)
        for i in 0..<n {
            var next = [Int](repeating: infinity, count: target + 1)
            for b in 0...target where best[b] < infinity {
                for w in 1...want[i] where b + w <= target {
                    let cost = best[b] + costs[i][w]
                    if cost < next[b + w] { next[b + w] = cost; choice[i][b + w] = w }
                }
            }
            best = next
        }
        var used = (0...target).min { best[$0] < best[$1] || (best[$0] == best[$1] && $0 > $1) } ?? target
        guard best[used] < infinity else { return want.map { _ in max(1, target / max(1, n)) } }
        var widths = [Int](repeating: 1, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            widths[i] = choice[i][used]
            used -= widths[i]
        }
        return widths
    }

    private static func border(_ left: String, _ mid: String, _ right: String, _ widths: [Int]) -> Span {
        var s = left
        for (i, w) in widths.enumerated() {
            if i > 0 { s += mid }
            s += repeated("─", count: w + 2)
        }
        s += right
        return Span(text: s, style: SpanStyle(role: .tableBorder), width: widths.reduce(0, +) + 3 * widths.count + 1)
    }

    static func grid(_ rows: [[Cell]], widths: [Int], alignments: [TableAlignment], block: Block, textEnd: Int,
                     into sink: inout RowSink) {
        let first = block.source.first
        let total = widths.reduce(0, +) + 3 * widths.count + 1
        let borderStyle = SpanStyle(role: .tableBorder)
        let middle = border("├", "┼", "┤", widths)
        sink.add([border("┌", "┬", "┐", widths)], width: total, range: 0..<0, sourceLine: first)
        var lastLower = 0
        for (r, row) in rows.enumerated() {
            let sourceLine = r == 0 ? first : first + 1 + r
            if r == 1 {
                let at = max(row.first?.base ?? textEnd, lastLower)
                lastLower = at
                sink.add([middle], width: total, range: at..<at, sourceLine: first + 1)
            }
            // Every visual line of a table row has the row's whole content range: the lines
            // of one table row are told apart by the anchor ordinal.
            let rowStart = max(row.first?.base ?? textEnd, lastLower)
            let rowEnd = row.last.map { $0.base + $0.flow.text.utf8.count } ?? rowStart
            let rowRange = rowStart..<max(rowStart, rowEnd)
            lastLower = rowStart
            let cellLines = row.enumerated().map { c, cell in cell.flow.lines(width: widths[c], base: cell.base) }
            var height = cellLines.isEmpty ? 1 : 0  // (a loop: a key path is made at run time, the first time in a process)
            for lines in cellLines { height = max(height, lines.count) }
            for k in 0..<height {
                var spans: [Span] = []
                spans.reserveCapacity(2 * widths.count + 1)
                // Border and padding between cells, accumulated into one span (its width is
                // counted, not measured: `│` is one column).
                var pending = "│ "
                var pendingWidth = 2
                for c in 0..<widths.count {
                    if c > 0 { pending += " │ "; pendingWidth += 3 }
                    var content: [Span] = []
                    var used = 0
                    if k < cellLines[c].count {
                        let l = cellLines[c][k]
                        content = l.spans; used = l.width
                    }
                    let room = max(0, widths[c] - used)
                    let (before, after): (Int, Int)
                    switch alignments[c] {
                    case .right: (before, after) = (room, 0)
                    case .center: (before, after) = (room / 2, room - room / 2)
                    case .left, .none: (before, after) = (0, room)
                    }
                    if before > 0 { pending += spaces(before); pendingWidth += before }
                    if !content.isEmpty {
                        spans.append(Span(text: pending, style: borderStyle, width: pendingWidth))
                        pending = ""; pendingWidth = 0
                        spans.append(contentsOf: content)
                    }
                    if after > 0 { pending += spaces(after); pendingWidth += after }
                }
                pending += " │"; pendingWidth += 2
                spans.append(Span(text: pending, style: borderStyle, width: pendingWidth))
                let range = rowRange
                sink.add(spans, width: total, range: range, sourceLine: sourceLine)
            }
        }
        sink.add([border("└", "┴", "┘", widths)], width: total, range: textEnd..<textEnd, sourceLine: block.source.last)
    }

    /// `n` spaces. (A `String`: `String += Substring` is the standard library's generic
    /// `append(contentsOf:)`, whose first call in a process looks its associated types up over
    /// every conformance in the binary, in the first screen of a document with a table.)
    static func spaces(_ n: Int) -> String {
        String(repeating: " ", count: n)
    }

    /// The form for columns too narrow for a grid: header cells one per line, then each body row
    /// as `header: cell` lines, rows separated by a `─` rule.
    static func stacked(_ rows: [[Cell]], block: Block, avail: Int, textEnd: Int, into sink: inout RowSink) {
        let first = block.source.first
        let rule = Span(text: repeated("─", count: avail), style: SpanStyle(role: .tableBorder), width: avail)
        for (r, row) in rows.enumerated() {
            let sourceLine = r == 0 ? first : first + 1 + r
            if r > 0 {
                let at = row.first?.base ?? textEnd
                sink.add([rule], width: avail, range: at..<at, sourceLine: sourceLine)
            }
            for (c, cell) in row.enumerated() {
                var flow = cell.flow
                if r > 0 {
                    let header = rows[0][c].flow.display.replacingNewlines()
                    flow = flow.prepending(header + ": ", SpanStyle(role: .tableHeader))
                }
                var lines = flow.lines(width: avail, base: cell.base)
                // A line showing only the decoration stands at the cell's content.
                for i in lines.indices where lines[i].range.isEmpty {
                    lines[i].range = max(lines[i].range.lowerBound, cell.base)..<max(lines[i].range.lowerBound, cell.base)
                }
                for l in lines {
                    sink.add(l.spans, width: l.width, range: l.range, sourceLine: sourceLine)
                }
            }
        }
    }
}

extension String {
    func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
