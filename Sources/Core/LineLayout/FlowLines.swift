import CellWidth

/// One wrapped line of a `Flow`, as spans (no container decoration yet).
struct FlowLine {
    var spans: [Span]
    /// Content range shown, already shifted by the caller's base offset.
    var range: Range<Int>
    var width: Int
    /// Source line of `range.lowerBound`, relative to the block's first line.
    var sourceLineOffset: Int
}

extension Flow {
    /// Wraps the flow at `width` columns and cuts it into styled spans.
    ///
    /// `base` is added to every content offset (table cells live inside a larger block text).
    /// A line that shows no content stands at the end of the content shown before it.
    ///
    /// `leadFirst`/`leadOther` start the first/other lines' span arrays (a container prefix, a
    /// heading marker): passing them here saves copying every line's spans once more.
    func lines(width: Int, base: Int = 0, leadFirst: [Span] = [], leadOther: [Span] = []) -> [FlowLine] {
        var out: [FlowLine] = []
        forEachLine(width: width, base: base, leadFirst: leadFirst, leadOther: leadOther) { out.append($0) }
        return out
    }

    /// `lines`, handing each line to `body` as it is made instead of keeping them all.
    func forEachLine(width: Int, base: Int = 0, leadFirst: [Span] = [], leadOther: [Span] = [],
                     _ body: (FlowLine) -> Void) {
        var d = display
        d.makeContiguousUTF8()
        d.utf8.withContiguousStorageIfAvailable { buf in
            var r = 0
            var lastContentEnd = 0
            var breakIndex = 0
            var isFirst = true
            var pieces: [(a: Int, b: Int, run: Int)] = []
            Wrapper.wrap(d, buf, width: width) { wl in
                while r < runs.count && runs[r].end <= wl.start { r += 1 }
                var spans = isFirst ? leadFirst : leadOther
                isFirst = false
                spans.reserveCapacity(spans.count + 2)
                var lo = -1, hi = -1
                var shown = 0  // columns of the spans made here
                // The runs' pieces on this line, cut at Character edges (`CharacterEdge`): a
                // cluster across two runs goes to the first, or to a decoration after content
                // (whose text has no content offsets to keep right).
                pieces.removeAll(keepingCapacity: true)
                var k = r
                while k < runs.count && runs[k].start < wl.end {
                    let a = max(wl.start, runs[k].start), b = min(wl.end, runs[k].end)
                    if a < b { pieces.append((a, b, k)) }
                    k += 1
                }
                var edge = wl.start
                for j in pieces.indices.dropFirst() {
                    let decorationAfterContent = runs[pieces[j - 1].run].content >= 0 && runs[pieces[j].run].content < 0
                    edge = max(edge, CharacterEdge.snapped(d, buf, pieces[j].a, up: !decorationAfterContent))
                    pieces[j - 1].b = edge
                    pieces[j].a = edge
                }
                for (a, b, k) in pieces {
                    let run = runs[k]
                    if a < b {
                        // Slicing the (valid) string copies without re-validating UTF-8.
                        let u = d.utf8
                        let ia = u.index(u.startIndex, offsetBy: a), ib = u.index(ia, offsetBy: b - a)
                        var t = String(d[ia..<ib])
                        if wl.overwide { t = narrowed(t, to: width) }
                        // Measured, not taken from the wrapper: the screen grid places cells by
                        // `CellWidth` of the text, and the two can differ on odd clusters (a
                        // combining mark after a space).
                        let w = CellWidth.of(t)
                        var offset: Int? = nil
                        if run.content >= 0 {
                            let co = run.content + (a - run.start)
                            if lo < 0 { lo = co }
                            hi = co + (b - a)
                            offset = co + base
                        }
                        spans.append(Span(text: t, style: run.style, width: w, contentOffset: offset))
                        shown += w
                    }
                }
                let range = lo >= 0 ? lo..<hi : lastContentEnd..<lastContentEnd
                if lo >= 0 { lastContentEnd = hi }
                while breakIndex < lineBreaks.count && lineBreaks[breakIndex].offset <= range.lowerBound {
                    breakIndex += 1
                }
                let sourceOffset = breakIndex > 0 ? lineBreaks[breakIndex - 1].line : 0
                body(FlowLine(spans: spans, range: (range.lowerBound + base)..<(range.upperBound + base),
                              width: wl.overwide ? shown : wl.width, sourceLineOffset: sourceOffset))
            }
        }
    }
}

/// `text` with every grapheme wider than `width` columns replaced by U+FFFD (one column): what
/// a wide character becomes when the layout is one column wide, or a cluster such as `स्त्री`
/// (4 columns) at 3.
func narrowed(_ text: String, to width: Int) -> String {
    var out = ""
    for c in text {
        if CellWidth.of(c) > width { out.append("\u{FFFD}") } else { out.append(c) }
    }
    return out
}

/// Truncates decoration text to at most `width` columns.
func truncated(_ text: String, to width: Int) -> String {
    if CellWidth.of(text) <= width { return text }
    var out = "", w = 0
    for c in text {
        let cw = CellWidth.of(c)
        if w + cw > width { break }
        out.append(c); w += cw
    }
    return out
}

/// `unit` (one character, such as `─`) `count` times, written as bytes: `String(repeating:count:)`
/// appends one Character at a time, which showed in print mode's profile for rules and borders.
func repeated(_ unit: StaticString, count: Int) -> String {
    let n = max(0, count), size = unit.utf8CodeUnitCount
    return String(unsafeUninitializedCapacity: n * size) { buffer in
        let source = unit.utf8Start
        for i in 0..<n {
            for j in 0..<size { buffer[i * size + j] = source[j] }
        }
        return n * size
    }
}
