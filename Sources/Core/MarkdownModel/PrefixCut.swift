/// Where the beginning of a Markdown source is cut for a parse of only that beginning (the
/// preview of a large file, each parse of a growing stream): just after a blank line
/// (`\n\n`). Paragraphs, lists and quotes before such a cut are closed; a fence or HTML block
/// open across it shows as it would at the end of input, and the next parse, of more of the
/// source, replaces it.
public enum PrefixCut {
    /// The first cut at or after byte `offset`, or nil.
    public static func first(in bytes: [UInt8], atOrAfter offset: Int) -> Int? {
        var i = max(1, offset - 1)
        while i < bytes.count {
            if bytes[i] == 0x0A && bytes[i - 1] == 0x0A && i + 1 >= offset { return i + 1 }
            i += 1
        }
        return nil
    }

    /// How much of a growing source a parse takes: all of it once the input has ended;
    /// before that, up to the last cut (all of it while there is none yet, or while front
    /// matter opened on the first line is not closed: its blank lines are not cuts).
    ///
    /// Law (`GrowingDocumentTests`): every top-level block before the last one of a parse up
    /// to a cut is already the block of the whole document's parse — same id, kind, lines
    /// and children, and the same content unless reference definitions or footnotes arrive
    /// later.
    public static func parseable(_ bytes: [UInt8], ended: Bool) -> Int {
        if ended || FrontMatter.isOpen(bytes) { return bytes.count }
        return last(in: bytes) ?? bytes.count
    }

    /// The last cut, or nil.
    public static func last(in bytes: [UInt8]) -> Int? {
        var i = bytes.count - 1
        while i > 0 {
            if bytes[i] == 0x0A && bytes[i - 1] == 0x0A { return i + 1 }
            i -= 1
        }
        return nil
    }
}

extension PrefixCut {
    /// How many bytes of `source` lay out to about `rows` rows at `width` columns: the end of
    /// the line where a cheap estimate of the rows reaches `rows` (all of `source` when it
    /// does not). The preview of a large file is parsed from there (the first cut after it),
    /// so that its first screen costs what that screen shows, not a fixed share of the file.
    ///
    /// The estimate reads lines, not Markdown, and errs towards too many rows: a paragraph's
    /// lines are joined and wrapped at `width` (characters, not bytes), a fenced code line
    /// and a line that starts a block (a list item, heading, table row, quote, fence) take a
    /// row of their own, blank lines make one separator row, and what takes no row at all is
    /// skipped: HTML comments, link reference and footnote definitions, and link targets
    /// (`](…)`). It is not a bound (inline HTML, markup and front matter lay out shorter),
    /// hence the margin the caller asks for and its check that the preview fills the screen.
    public static func end(estimatingRows rows: Int, width: Int, in source: UnsafeBufferPointer<UInt8>) -> Int {
        let width = max(1, width)
        var estimate = 0
        var run = 0              // characters of the paragraph being joined
        var previousBlank = true
        var previousQuoted = false
        var fence: UInt8? = nil  // the fence character of an open code block
        var inComment = false
        var start = 0
        let n = source.count
        while start < n {
            var end = start
            while end < n && source[end] != 0x0A { end += 1 }
            let next = min(n, end + 1)
            defer { start = next }
            var p = start
            while p < end && source[p] == 0x20 { p += 1 }
            if inComment {
                if contains(source, start..<end, "-->") { inComment = false }
                continue
            }
            if let f = fence {
                if end - p >= 3 && source[p] == f && source[p + 1] == f && source[p + 2] == f {
                    fence = nil
                    estimate += 1
                } else {
                    estimate += max(1, (characters(source, start..<end) + width - 1) / width)
                }
            } else if p == end {
                estimate += run > 0 ? (run + width - 1) / width : 0
                run = 0
                if !previousBlank { estimate += 1 }
            } else if startsWith(source, p..<end, "<!--") {
                estimate += (run + width - 1) / width; run = 0
                if !contains(source, p..<end, "-->") { inComment = true }
            } else if end - p >= 3, source[p] == 0x60 || source[p] == 0x7E, source[p + 1] == source[p], source[p + 2] == source[p] {
                estimate += (run + width - 1) / width + 1; run = 0
                fence = source[p]
            } else if source[p] == 0x5B, isDefinition(source, p..<end) {
                estimate += (run + width - 1) / width; run = 0
            } else {
                let quoted = source[p] == 0x3E
                while p < end && (source[p] == 0x3E || source[p] == 0x20) { p += 1 }  // quote markers
                defer { previousQuoted = quoted }
                if previousBlank || quoted != previousQuoted || startsBlock(source, p..<end) {
                    estimate += (run + width - 1) / width; run = 0
                }
                run += shownCharacters(source, p..<end) + 1
            }
            if fence == nil { previousBlank = p == end }
            if estimate + (run + width - 1) / width >= rows { return next }
        }
        return n
    }

    /// UTF-8 characters (not continuation bytes) in `range`.
    private static func characters(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0
        for i in range where s[i] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// `characters`, less link targets: `](` up to the next `)`.
    private static func shownCharacters(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0
        var i = range.lowerBound
        while i < range.upperBound {
            if s[i] == 0x5D, i + 1 < range.upperBound, s[i + 1] == 0x28 {
                var j = i + 2
                while j < range.upperBound && s[j] != 0x29 { j += 1 }
                count += 1
                i = j + 1
                continue
            }
            if s[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }

    /// A list item (`-`, `*`, `+`, `1.`, `1)` and a space), a heading (`#`) or a table row (`|`).
    private static func startsBlock(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let first = range.first.map({ s[$0] }) else { return false }
        if first == 0x23 || first == 0x7C { return true }
        var i = range.lowerBound
        if first == 0x2D || first == 0x2A || first == 0x2B {
            i += 1
        } else {
            while i < range.upperBound && (0x30...0x39).contains(s[i]) { i += 1 }
            guard i > range.lowerBound, i < range.upperBound, s[i] == 0x2E || s[i] == 0x29 else { return false }
            i += 1
        }
        return i == range.upperBound || s[i] == 0x20
    }

    /// `[label]:` at the start of `range` (a link reference or footnote definition).
    private static func isDefinition(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound + 1
        while i < range.upperBound && s[i] != 0x5D { i += 1 }
        return i > range.lowerBound + 1 && i + 1 < range.upperBound && s[i + 1] == 0x3A
    }

    private static func startsWith(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard range.count >= count else { return false }
        let t = text.utf8Start
        for k in 0..<count where s[range.lowerBound + k] != t[k] { return false }
        return true
    }

    private static func contains(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard range.count >= count else { return false }
        for i in range.lowerBound...(range.upperBound - count) where startsWith(s, i..<range.upperBound, text) { return true }
        return false
    }
}

extension PrefixCut {
    /// The link reference definitions in `source`, the end of a document: each block of lines
    /// that starts with `[label]:` (after up to three spaces) outside fenced code, with the
    /// title lines after it (`"…"`, `'…'`, `(…)`), joined with their line ends, each block
    /// ending in a blank line. The
    /// first line of `source` is skipped (it may be the end of one), and so is a last line
    /// without its end. Documents often define their links at their end (changelogs'
    /// `[1.2.0]: …compare…`, API docs): a preview of the beginning parsed with these after it
    /// shows those links as the full parse will, not their brackets until it comes in.
    /// Footnote definitions (`[^label]:`) are left out: they make a section of notes, which
    /// would show at the preview's end. A fence open across the start of `source` is not seen:
    /// its lines are read as text.
    public static func definitions(in source: [UInt8]) -> [UInt8] {
        source.withUnsafeBufferPointer { s in
            var out: [UInt8] = []
            var fence: UInt8? = nil
            var inDefinition = false
            guard var start = s.firstIndex(of: 0x0A, from: 0).map({ $0 + 1 }) else { return [] }
            // (Lines found with memchr: the scan reads the end of every large document.)
            while let end = s.firstIndex(of: 0x0A, from: start) {
                defer { start = end + 1 }
                var p = start
                while p < end && p - start < 4 && s[p] == 0x20 { p += 1 }
                let indent = p - start
                let opensFence = indent < 4 && end - p >= 3 && (s[p] == 0x60 || s[p] == 0x7E) && s[p + 1] == s[p] && s[p + 2] == s[p]
                if let f = fence {
                    if opensFence && s[p] == f { fence = nil }
                    continue
                }
                let blank = p == end || (p + 1 == end && s[p] == 0x0D)
                if indent < 4, !blank, s[p] == 0x5B, isDefinitionStart(s, p..<end) {
                    inDefinition = true
                    out.append(contentsOf: s[start...end])
                } else if inDefinition, !blank, s[p] == 0x22 || s[p] == 0x27 || s[p] == 0x28 {
                    out.append(contentsOf: s[start...end])  // a title on the next line
                } else {
                    if inDefinition { out.append(0x0A) }
                    inDefinition = false
                    if opensFence { fence = s[p] }
                }
            }
            if inDefinition { out.append(0x0A) }
            return out
        }
    }

    /// Whether `source` ends inside fenced code (a fence opened and not closed).
    public static func endsInFence(_ source: [UInt8]) -> Bool {
        source.withUnsafeBufferPointer { s in
            var fence: UInt8? = nil
            var start = 0
            while start < s.count {
                let end = s.firstIndex(of: 0x0A, from: start) ?? s.count
                var p = start
                while p < end && p - start < 4 && s[p] == 0x20 { p += 1 }
                if p - start < 4, end - p >= 3, s[p] == 0x60 || s[p] == 0x7E, s[p + 1] == s[p], s[p + 2] == s[p] {
                    if fence == nil { fence = s[p] } else if fence == s[p] { fence = nil }
                }
                start = end + 1
            }
            return fence != nil
        }
    }

    /// `[label]:` and something after it, at the start of `range` (not `[^label]:`).
    private static func isDefinitionStart(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count > 1, s[range.lowerBound + 1] != 0x5E else { return false }
        var i = range.lowerBound + 1
        while i < range.upperBound && s[i] != 0x5D && s[i] != 0x5B { i += 1 }
        guard i > range.lowerBound + 1, i + 1 < range.upperBound, s[i] == 0x5D, s[i + 1] == 0x3A else { return false }
        return s[(i + 2)..<range.upperBound].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
    }
}
