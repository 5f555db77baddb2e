import LineLayout
import TextSearch

/// less's bracket commands (`brac.c`): `{` finds the matching `}` of the N-th `{` on the top
/// line and puts it on the bottom row; `}` finds the `{` that matches the N-th `}` on the
/// bottom line and puts it on the top row; `(` `)` and `[` `]` (text documents: in Markdown
/// `[[` and `]]` go to headings) likewise, `Esc ^F` and `Esc ^B` with any two characters.
///
/// The text is what the document shows (a text document's lines as decoded, a Markdown
/// document's blocks as rendered: code as written, prose without its markup). The line is
/// a text document's line from the row's start on, as less reads a line; in Markdown, the
/// row as displayed (a block's text runs on for many rows). Nesting counts every bracket
/// between, quoted or not, as less's does. The scan looks at most `bracketScanTexts` lines
/// (blocks) past the bracket, so a key's work is bounded however long the document.
extension PagerState {
    /// Lines (Markdown: blocks) a bracket match looks through (as many as one step of a
    /// search: `searchSliceTexts`).
    static let bracketScanTexts = searchSliceTexts

    mutating func matchBracket(open: Character, close: Character, forward: Bool, count: Int) {
        let doc = active
        let rowCount = doc.layout.rowCount
        guard rowCount > 0, contentRows > 0 else {
            message = forward ? "Nothing in top line" : "Nothing in bottom line"
            return
        }
        let row = forward ? doc.top : min(doc.layout.endRow, doc.top + contentRows) - 1
        let unit = doc.layout.locate(row).unit
        let line = doc.layout.line(at: row)
        let texts = SearchTexts(doc)
        let start = texts.textIndex(ofUnit: unit)
        let own = Array(String(forward ? open : close).utf8), other = Array(String(forward ? close : open).utf8)
        // The N-th bracket of the line, counted from its start as less does.
        let found: Int? = texts[start.index].withUTF8Bytes { bytes in
            let end = doc.isText ? bytes.count : min(bytes.count, line.range.upperBound)
            var seen = 0
            var i = min(line.range.lowerBound, end)
            while i < end {
                if Self.has(own, in: bytes, at: i) {
                    seen += 1
                    if seen == max(1, count) { return i }
                    i += own.count
                } else {
                    i += 1
                }
            }
            return nil
        }
        guard let at = found else {
            message = forward ? "No bracket in top line" : "No bracket in bottom line"
            return
        }
        guard let (text, offset) = Self.scan(texts, from: start, offset: at, own: own, other: other, forward: forward) else {
            let limited = forward ? start + Self.bracketScanTexts < texts.endText : start - Self.bracketScanTexts > 0
            message = limited ? "No matching bracket in the next \(Self.bracketScanTexts) \(doc.isText ? "lines" : "blocks")"
                              : "No matching bracket"
            return
        }
        let target = texts.unit(ofText: text)
        active.prepare(aroundUnit: target)
        let rows = active.layout.rows(showing: offset..<(offset + other.count), inUnit: target)
        guard !rows.isEmpty else { return }
        // Forward, the match goes on the bottom row; backward, on the top row.
        active.jump(toRow: forward ? max(0, rows.lowerBound - contentRows + 1) : rows.lowerBound)
    }

    /// Where the bracket matching the one at `offset` of text `start` is: forward, the first
    /// `other` after it not matched by an `own` between; backward, before it.
    static func scan(_ texts: SearchTexts, from startText: TextIndex, offset: Int, own: [UInt8], other: [UInt8],
                     forward: Bool) -> (text: TextIndex, offset: Int)? {
        var nest = 0
        let start = startText.index
        var index = start
        var looked = 0
        while index >= 0 && index < texts.count && looked <= bracketScanTexts {
            let hit: Int? = texts[index].withUTF8Bytes { bytes in
                if forward {
                    var i = index == start ? offset + own.count : 0
                    while i < bytes.count {
                        if has(own, in: bytes, at: i) { nest += 1; i += own.count; continue }
                        if has(other, in: bytes, at: i) {
                            if nest == 0 { return i }
                            nest -= 1
                            i += other.count
                            continue
                        }
                        i += 1
                    }
                } else {
                    var i = (index == start ? offset : bytes.count) - 1
                    while i >= 0 {
                        if has(own, in: bytes, at: i) { nest += 1 } else if has(other, in: bytes, at: i) {
                            if nest == 0 { return i }
                            nest -= 1
                        }
                        i -= 1
                    }
                }
                return nil
            }
            if let hit { return (TextIndex(index), hit) }
            index += forward ? 1 : -1
            looked += 1
        }
        return nil
    }

    /// `needle` (a character's UTF-8) starts at `i` of `bytes`.
    static func has(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i >= 0, i + needle.count <= bytes.count else { return false }
        for k in needle.indices where bytes[i + k] != needle[k] { return false }
        return true
    }
}
