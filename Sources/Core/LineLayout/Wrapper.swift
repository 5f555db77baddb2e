import CellWidth

/// One wrapped line: a UTF-8 range of the wrapped string and its width in columns.
struct WrappedLine {
    var start: Int
    var end: Int
    var width: Int
    /// A grapheme on this line is wider than the whole width (a wide character at width 1, a
    /// cluster such as `स्त्री` at width 3); the renderer shows it as U+FFFD so the line still
    /// fits. Such a grapheme is alone on its line (with any zero-width ones after it).
    var overwide = false
}

/// Steps through a UTF-8 string by grapheme cluster with an ASCII fast path: an ASCII byte
/// followed by an ASCII byte is a whole grapheme of width 1 (controls never get here: the
/// layout has escaped them). Only non-ASCII text pays for Unicode segmentation.
struct GraphemeCursor {
    let string: String
    let bytes: UnsafeBufferPointer<UInt8>
    /// Character-aligned index of the current position while in non-ASCII text.
    private var index: String.Index?

    init(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) {
        self.string = string; self.bytes = bytes
    }

    /// The grapheme at byte `i`: its length in bytes and width in columns.
    @inline(__always)
    mutating func next(at i: Int) -> (length: Int, width: Int) {
        let b = bytes[i]
        if b < 0x80 && (i + 1 == bytes.count || bytes[i + 1] < 0x80) {
            index = nil
            return (1, b < 0x20 ? 0 : 1)
        }
        return slow(at: i)
    }

    private mutating func slow(at i: Int) -> (length: Int, width: Int) {
        let u = string.utf8
        let idx: String.Index
        if let current = index, u.distance(from: u.startIndex, to: current) == i {
            idx = current
        } else {
            idx = u.index(u.startIndex, offsetBy: i)
        }
        let next = string.index(after: idx)
        index = next
        let length = u.distance(from: idx, to: next)
        return (length, CellWidth.of(string[idx]))
    }
}

/// Where a span may be cut: style, link and syntax edges fall where their runs end, and one
/// can fall inside a grapheme cluster (a combining mark or an emoji modifier after a character
/// of another style or link: `\x83` shown as `<83>`, then U+1F3FD). Its two parts, measured
/// apart, are wider than the cluster the wrapper measured, and the row wider than the width.
enum CharacterEdge {
    /// UTF-8 offset `i` of `string` (`bytes`, its UTF-8) when a Character starts there (or it
    /// is an end), else the start of the Character holding it, or its end when `up`. `i` is on
    /// a scalar boundary.
    static func snapped(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, up: Bool) -> Int {
        // Between two ASCII bytes there is always an edge (controls never reach a layout's text).
        guard i > 0, i < bytes.count, bytes[i] >= 0x80 || bytes[i - 1] >= 0x80 else { return i }
        let u = string.utf8
        // `index(after:)` rounds an index inside a Character down to its start first.
        let next = string.index(after: u.index(u.startIndex, offsetBy: i))
        let start = u.distance(from: u.startIndex, to: string.index(before: next))
        if start == i { return i }
        return up ? u.distance(from: u.startIndex, to: next) : start
    }

    /// `cuts` (ascending, inside `range`, whose ends are Character edges) moved up to Character
    /// edges, duplicates dropped.
    static func snappedUp(_ cuts: [Int], _ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(cuts.count)
        for c in cuts {
            let e = snapped(string, bytes, c, up: true)
            if out.last.map({ e > $0 }) ?? true { out.append(e) }
        }
        return out
    }
}

enum Wrapper {
    /// Greedy word wrap of `string` into lines of at most `width` columns.
    ///
    /// Breaks at spaces (the spaces at a break are shown on neither line), at LF (a hard
    /// break, not shown), and inside a word only when the word alone is wider than the line:
    /// then between graphemes. Always returns at least one line.
    static func wrap(_ string: String, width: Int) -> [WrappedLine] {
        var s = string
        s.makeContiguousUTF8()
        return s.utf8.withContiguousStorageIfAvailable { wrap(s, $0, width: width) } ?? []
    }

    static func wrap(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> [WrappedLine] {
        var lines: [WrappedLine] = []
        wrap(string, bytes, width: width) { lines.append($0) }
        return lines
    }

    /// `wrap`, handing each line to `body` as it is found (print mode streams a paragraph's
    /// rows: a 10 MB line at width 1 is 10 million of them, too many to keep).
    static func wrap(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>, width: Int,
                     _ body: (WrappedLine) -> Void) {
        var cursor = GraphemeCursor(string, bytes)
        let n = bytes.count
        // The current line holds a grapheme wider than `width` (counted as `width`).
        var overwide = false
        var lineStart = 0, col = 0
        // The current line began at a soft wrap (its leading spaces are not shown).
        var wrapped = false
        // Last break opportunity on the current line: the line would end at `breakEnd` (with
        // `breakCol` columns) and the next begin at `nextStart`, `nextCol` columns in.
        var breakEnd = -1, breakCol = 0, nextStart = 0, nextCol = 0
        var inSpaces = false
        var i = 0
        @inline(__always) func emit(_ end: Int, _ w: Int) {
            body(WrappedLine(start: lineStart, end: end, width: w, overwide: overwide))
            overwide = false
        }
        while i < n {
            let b = bytes[i]
            if b == 0x0A {  // hard break
                emit(inSpaces ? breakEnd : i, inSpaces ? breakCol : col)
                i += 1
                lineStart = i; col = 0; breakEnd = -1; inSpaces = false; wrapped = false
                continue
            }
            if b == 0x20 {
                if wrapped && i == lineStart {
                    i += 1; lineStart = i
                    continue
                }
                if !inSpaces { breakEnd = i; breakCol = col; inSpaces = true }
                col += 1; i += 1
                nextStart = i; nextCol = col
                if col > width {
                    emit(breakEnd, breakCol)
                    lineStart = i; col = 0; breakEnd = -1; inSpaces = false; wrapped = true
                }
                continue
            }
            inSpaces = false
            // Fast path: a run of printable ASCII that fits on the line, one column per byte
            // (its last byte must not be followed by a non-ASCII byte it could combine with).
            if b > 0x20 && b < 0x7F && col < width {
                let stop = min(n, i + (width - col))
                var j = i + 1
                while j < stop, bytes[j] > 0x20, bytes[j] < 0x7F { j += 1 }
                if j < n && bytes[j] >= 0x80 { j -= 1 }
                if j > i {
                    col += j - i
                    i = j
                    continue
                }
            }
            var (length, w) = cursor.next(at: i)
            let tooWide = w > width
            if tooWide { w = width }
            if col + w > width {
                if breakEnd > lineStart {
                    emit(breakEnd, breakCol)
                    lineStart = nextStart; col -= nextCol; wrapped = true
                    breakEnd = -1
                }
                if col + w > width && col > 0 {
                    emit(i, col)
                    lineStart = i; col = 0; breakEnd = -1; wrapped = true
                }
            }
            // Only a grapheme at the start of its line can be too wide (it fills the line), so
            // the lines emitted above never hold it.
            if tooWide { overwide = true }
            col += w
            i += length
        }
        if inSpaces && breakEnd >= lineStart { emit(breakEnd, breakCol) } else { emit(n, col) }
    }

    /// Hard wrap of one line of verbatim text (code, HTML) between graphemes: the first row gets
    /// `width` columns, later rows `continuationWidth`.
    static func hardWrap(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int,
                         width: Int, continuationWidth: Int) -> [WrappedLine] {
        var lines: [WrappedLine] = []
        hardWrap(string, bytes, from: from, to: to, width: width, continuationWidth: continuationWidth) { lines.append($0) }
        return lines
    }

    /// `hardWrap`, handing each line to `body` as it is found.
    static func hardWrap(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int,
                         width: Int, continuationWidth: Int, _ body: (WrappedLine) -> Void) {
        var cursor = GraphemeCursor(string, bytes)
        var lineStart = from, col = 0, limit = width
        var overwide = false  // the current line holds a grapheme wider than `limit`
        var i = from
        while i < to {
            let (length, natural) = cursor.next(at: i)
            var w = min(natural, limit)
            if col + w > limit && col > 0 {
                body(WrappedLine(start: lineStart, end: i, width: col, overwide: overwide))
                lineStart = i; col = 0; limit = continuationWidth; overwide = false
                w = min(natural, limit)
            }
            if natural > limit { overwide = true }
            col += w
            i += length
        }
        body(WrappedLine(start: lineStart, end: to, width: col, overwide: overwide))
    }
}
