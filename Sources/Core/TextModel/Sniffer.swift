extension KindDetector {
    /// How many bytes of a file's start the caller should pass to `sniff`.
    public static let sniffLength = 64 * 1024

    /// The kind of a document that has no telling file name (standard input, `README`,
    /// `CHANGELOG`), from its first bytes. Only the first `sniffLength` (64 KB) bytes count: a
    /// caller may pass more (or fewer, for a short input) and gets the same answer.
    ///
    /// The rule, in order; the first that applies decides:
    /// 1. Nothing but whitespace → **text**.
    /// 2. A NUL byte, an SGR escape (`ESC [` digits, `;`, `:` then `m`) or a backspace overstrike
    ///    (a backspace between two printable characters) → **text** (program output: `git --color`,
    ///    `ls --color`, `man`).
    /// 3. The first line starts with `#!` → **text** (a script).
    /// 4. Outside fenced code blocks, a line that starts with `diff --git `, `diff -`, `@@ -N… +N… @@`,
    ///    `commit ` + 7 to 64 hex digits, `From ` + 40 hex digits, or a `--- ` line followed by a
    ///    `+++ ` line → **text** (git log, diffs, patches).
    /// 5. Otherwise the lines are read for Markdown. Skipped: YAML front matter (`---` on the first
    ///    line up to the next `---`), blank lines, the inside of fenced code blocks and of comment
    ///    blocks (a line starting `/*` or `<!--` up to the line holding `*/` or `-->`). A line
    ///    indented by 4 or more columns (a TAB counts 4) that is not a list item is *indented*;
    ///    every other line is *counted*. Signals, each of one *kind*:
    ///    - heading: `#` to `######`, a space, text (not a preprocessor word such as `define`), after
    ///      a blank line (or first in the input) and not next to another line starting with `#`;
    ///    - setext heading: a line of 3 or more `=` or `-` under a line of text;
    ///    - fenced code: a ```` ``` ```` or `~~~` fence (indent ≤ 3) and its closing fence;
    ///    - list item: `-`, `*`, `+`, `1.` or `1)` then a space and text (at any indentation);
    ///    - link: `[text](target)` where `[` does not follow a letter, digit, `_`, `]` or `)`
    ///      (so `a[i](x)` in code is no link) or is on an earlier line, a reference definition
    ///      `[label]: target`, or an autolink `<http://…>` / `<https://…>`;
    ///    - table: a line with `|` followed by a delimiter row (only `|`, `:`, `-` and spaces,
    ///      with at least one `|` and one `-`).
    ///    A counted line is *code-like* when it ends with `;`, `{` or `}`, is only closing brackets
    ///    and punctuation, is a C preprocessor line (`#include`, `#  define`), starts with `#` next
    ///    to another line starting with `#` (a comment block: never a heading), starts with
    ///    `import `, `from … import `, `def `/`class ` … `:`, `package `, `using `, `namespace `,
    ///    `if __name__`, is a `"key":` JSON member, a `<…>` tag line, a `key: value` /
    ///    `key = value` line or a `[section]` line.
    ///    **Markdown** when all of:
    ///    - at least one in fifty counted lines has a signal;
    ///    - the text is not code-heavy (a quarter or more of the counted lines code-like, or more
    ///      indented lines than twice the counted ones) — unless there are signals of three or more
    ///      kinds on at least one in ten counted lines (API docs full of HTML tables and examples);
    ///    - there is a table, a closed fenced code block, two headings (setext, or ATX followed by a
    ///      blank line), or signals of at least two kinds.
    ///    Otherwise **text**.
    ///
    /// So a Python comment (`# note`) alone is not a heading, `#include` never is, and shell
    /// output with `*` bullets (`git branch`) is one kind only: text.
    public static func sniff(_ prefix: some Collection<UInt8>) -> DocumentKind {
        let head = prefix.prefix(sniffLength)
        if let kind = head.withContiguousStorageIfAvailable({ Sniffer(bytes: $0).kind() }) { return kind }
        return Array(head).withUnsafeBufferPointer { Sniffer(bytes: $0).kind() }
    }
}

/// The sniffing rule's work (see `KindDetector.sniff`).
struct Sniffer {
    typealias Line = UnsafeBufferPointer<UInt8>
    let bytes: UnsafeBufferPointer<UInt8>

    func kind() -> DocumentKind {
        guard bytes.contains(where: { !isSpace($0) && $0 != 0x0A && $0 != 0x0D }) else { return .text }
        if hasTerminalFormatting() { return .text }
        let lines = splitLines()
        if let first = lines.first, starts(first, with: "#!") { return .text }
        return markdownScore(lines)
    }

    // MARK: Bytes

    @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    @inline(__always) func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
    }
    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    @inline(__always) func isWordByte(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
    }
    @inline(__always) func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

    /// NUL, an SGR sequence, or a backspace between two printable bytes.
    func hasTerminalFormatting() -> Bool {
        let n = bytes.count
        var i = 0
        while i < n {
            let b = bytes[i]
            if b == 0 { return true }
            if b == 0x1B, i + 1 < n, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < n, isDigit(bytes[j]) || bytes[j] == 0x3B || bytes[j] == 0x3A { j += 1 }
                if j < n, bytes[j] == UInt8(ascii: "m") { return true }
            }
            if b == 0x08, i > 0, i + 1 < n {
                let before = bytes[i - 1], after = bytes[i + 1]
                if before >= 0x20 && before != 0x7F && after >= 0x20 && after != 0x7F { return true }
            }
            i += 1
        }
        return false
    }

    /// The lines (without LF and one trailing CR).
    func splitLines() -> [Line] {
        var lines: [Line] = []
        var start = 0
        let n = bytes.count
        while start < n {
            var end = start
            while end < n && bytes[end] != 0x0A { end += 1 }
            var contentEnd = end
            if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            lines.append(Line(rebasing: bytes[start..<contentEnd]))
            start = end + 1
        }
        return lines
    }

    func starts(_ line: Line, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where line[k] != p[k] { return false }
        return true
    }

    func contains(_ line: Line, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let p = needle.utf8Start
        outer: for start in 0...(line.count - count) {
            for k in 0..<count where line[start + k] != p[k] { continue outer }
            return true
        }
        return false
    }

    /// Columns of leading indentation (TAB = 4, enough to tell ≥ 4) and the index after it.
    func indentation(_ line: Line) -> (columns: Int, end: Int) {
        var columns = 0, i = 0
        while i < line.count && isSpace(line[i]) {
            columns += line[i] == 0x09 ? 4 : 1
            i += 1
        }
        return (columns, i)
    }

    func trimmedEnd(_ line: Line) -> Int {
        var end = line.count
        while end > 0 && isSpace(line[end - 1]) { end -= 1 }
        return end
    }

    // MARK: Text shapes (rule 4)

    func isGitOrDiffLine(_ line: Line, next: Line?) -> Bool {
        // Every shape starts with one of these bytes (most lines are ruled out here).
        guard let first = line.first, first == UInt8(ascii: "d") || first == UInt8(ascii: "@")
            || first == UInt8(ascii: "c") || first == UInt8(ascii: "F") || first == UInt8(ascii: "-") else { return false }
        if starts(line, with: "diff --git ") || starts(line, with: "diff -") { return true }
        if starts(line, with: "@@ -") { return isHunkHeader(line) }
        if starts(line, with: "commit ") { return hexRun(line, from: 7, min: 7, max: 64, thenSpaceOrEnd: true) }
        if starts(line, with: "From ") { return hexRun(line, from: 5, min: 40, max: 40, thenSpaceOrEnd: true) }
        if starts(line, with: "--- "), let next, starts(next, with: "+++ ") { return true }
        return false
    }

    func hexRun(_ line: Line, from start: Int, min: Int, max: Int, thenSpaceOrEnd: Bool) -> Bool {
        var i = start
        while i < line.count && isHex(line[i]) { i += 1 }
        let length = i - start
        guard length >= min && length <= max else { return false }
        return !thenSpaceOrEnd || i == line.count || line[i] == 0x20
    }

    /// `@@ -12,5 +12,7 @@` (the counts are optional).
    func isHunkHeader(_ line: Line) -> Bool {
        var i = 4
        func number() -> Bool {
            let start = i
            while i < line.count && isDigit(line[i]) { i += 1 }
            guard i > start else { return false }
            if i < line.count && line[i] == UInt8(ascii: ",") {
                i += 1
                let countStart = i
                while i < line.count && isDigit(line[i]) { i += 1 }
                return i > countStart
            }
            return true
        }
        guard number(), i + 2 < line.count, line[i] == 0x20, line[i + 1] == UInt8(ascii: "+") else { return false }
        i += 2
        guard number(), i + 2 < line.count, line[i] == 0x20 else { return false }
        return line[i + 1] == UInt8(ascii: "@") && line[i + 2] == UInt8(ascii: "@")
    }
}
