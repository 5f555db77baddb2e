import CellWidth
import Styling

/// Carries a code block's syntax runs from its literal (what the highlighter read: real TABs
/// and control characters) to its content text (TABs expanded, controls in caret form), line
/// by line, then cuts a row's code into spans at run boundaries.
struct SyntaxRunMapper {
    private let runs: [SyntaxRun]
    private var next = 0
    /// Literal offset of the next line's first byte.
    private var literalOffset = 0
    /// Runs in content-text offsets, sorted; nil when there is nothing to highlight.
    private(set) var result: [SyntaxRun]?

    init(_ runs: [SyntaxRun]?) {
        if let runs, !runs.isEmpty { self.runs = runs; result = [] } else { self.runs = []; result = nil }
    }

    /// The next literal line (no LF) became content bytes `contentStart..<contentEnd`.
    mutating func addLine(_ line: Substring, contentStart: Int, contentEnd: Int) {
        guard result != nil else { return }
        let lStart = literalOffset
        let lEnd = lStart + line.utf8.count
        literalOffset = lEnd + 1
        while next < runs.count && runs[next].range.upperBound <= lStart { next += 1 }
        // Controls only grow (1 byte → 2–4) and TABs never shrink, so the same length means
        // every character kept its length: offsets shift by a constant.
        let sameLength = contentEnd - contentStart == lEnd - lStart
        let map = sameLength ? [] : Self.characterMap(line, literalStart: lStart, contentStart: contentStart)
        func mapped(_ x: Int) -> Int {
            if sameLength { return contentStart + (x - lStart) }
            var lo = 0, hi = map.count - 1
            while lo < hi {  // the first character starting at or after x
                let mid = (lo + hi) / 2
                if map[mid].literal < x { lo = mid + 1 } else { hi = mid }
            }
            return map[lo].content
        }
        var i = next
        while i < runs.count && runs[i].range.lowerBound < lEnd {
            let r = runs[i].range
            let a = mapped(max(r.lowerBound, lStart)), b = mapped(min(r.upperBound, lEnd))
            if a < b { result!.append(SyntaxRun(range: a..<b, role: runs[i].role)) }
            i += 1
        }
    }

    /// Literal → content offset of each character's start (and of the line's end), as
    /// `ControlCharacters.appendCodeLine` writes them.
    static func characterMap(_ line: Substring, literalStart: Int, contentStart: Int) -> [(literal: Int, content: Int)] {
        var map: [(literal: Int, content: Int)] = []
        var lit = literalStart, con = contentStart, column = 0
        for c in line {
            map.append((lit, con))
            let n = c.utf8.count
            if c == "\t" {
                let step = ControlCharacters.codeTabWidth - column % ControlCharacters.codeTabWidth
                con += step; column += step
            } else if let first = c.unicodeScalars.first, let caret = ControlCharacters.caret(first.value) {
                con += caret.utf8.count + (n - first.utf8.count)
                column += caret.utf8.count
            } else {
                con += n; column += CellWidth.of(c)
            }
            lit += n
        }
        map.append((lit, con))
        return map
    }

    /// The code of one row, `range` of the content text, as spans cut at run boundaries, or
    /// nil when a boundary would split a character (the row then keeps one plain span).
    /// `cursor` walks `runs` forward across a block's rows.
    static func spans(_ buf: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, width: Int, runs: [SyntaxRun],
                      cursor: inout Int, style: SpanStyle) -> [Span]? {
        while cursor < runs.count && runs[cursor].range.upperBound <= range.lowerBound { cursor += 1 }
        var pieces: [Span] = []
        var total = 0
        var ok = true
        func emit(_ a: Int, _ b: Int, _ role: SyntaxRole?) {
            if buf[a] & 0xC0 == 0x80 { ok = false }
            let s = String(decoding: UnsafeBufferPointer(rebasing: buf[a..<b]), as: UTF8.self)
            let w = CellWidth.of(s)
            total += w
            var st = style
            st.syntax = role
            pieces.append(Span(text: s, style: st, width: w, contentOffset: a))
        }
        var pos = range.lowerBound
        var i = cursor
        while pos < range.upperBound {
            guard i < runs.count, runs[i].range.lowerBound < range.upperBound else {
                emit(pos, range.upperBound, nil)
                break
            }
            let r = runs[i].range
            if r.lowerBound > pos { emit(pos, r.lowerBound, nil); pos = r.lowerBound }
            let end = min(r.upperBound, range.upperBound)
            if end > pos { emit(pos, end, runs[i].role); pos = end }
            if r.upperBound <= range.upperBound { i += 1 }
        }
        guard ok, total == width else { return nil }
        return pieces
    }
}
