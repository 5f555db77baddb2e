import CellWidth

/// Visible forms of control characters, so no byte of a document reaches the terminal as a
/// control sequence.
///
/// C0 controls are shown in caret notation (`^[` for ESC, `^@` for NUL), DEL as `^?`, C1 controls
/// as `cat -v` does (`M-^[` for U+009B CSI). The content text holds these forms too, so search
/// matches what is shown. In prose a TAB or LF is whitespace (a space); in code a TAB expands to
/// the next multiple of `codeTabWidth` columns.
enum ControlCharacters {
    static let codeTabWidth = 4

    /// Whether UTF-8 `bytes` hold no C0/DEL/C1 control (the common case: append as is).
    @inline(__always)
    static func isClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        // Eight bytes at a time while they are ASCII without a byte below 0x20 or a DEL.
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
            let below20 = (word &- 0x20 &* ones) & ~word & high
            let del = ((word ^ (0x7F &* ones)) &- ones) & ~(word ^ (0x7F &* ones)) & high
            if (word & high) | below20 | del != 0 { break }
            i += 8
        }
        while i < n {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return false }
            if b == 0xC2 && i + 1 < n && bytes[i + 1] < 0xA0 { return false }  // U+0080...U+009F
            i += 1
        }
        return true
    }

    static func isClean(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isClean($0) }
    }

    /// The visible form of a control scalar, nil if `v` is not a control.
    @inline(__always)
    static func caret(_ v: UInt32) -> String? { VisibleControls.caret(v) }

    /// Appends prose text (text, inline code, inline HTML, URLs): TAB and LF become a space.
    static func appendProse(_ s: String, to out: inout String) {
        if isClean(s) { out.append(s); return }
        for u in s.unicodeScalars {
            if u.value == 0x09 || u.value == 0x0A { out.append(" ") }
            else if let c = caret(u.value) { out.append(c) }
            else { out.unicodeScalars.append(u) }
        }
    }

    /// Appends one line of code (no LF inside): TAB expands to the next tab stop, counted in
    /// display columns from the start of the line; other controls in caret notation.
    static func appendCodeLine(_ line: Substring, to out: inout String) {
        var clean = true
        var hasTab = false
        for b in line.utf8 where b < 0x20 || b == 0x7F || b == 0xC2 {
            if b == 0x09 { hasTab = true } else { clean = false }
        }
        if clean && !hasTab { out.append(contentsOf: line); return }
        var column = 0
        for c in line {
            if c == "\t" {
                let n = codeTabWidth - column % codeTabWidth
                out.append(String(repeating: " ", count: n))
                column += n
                continue
            }
            if let first = c.unicodeScalars.first, let caretForm = caret(first.value) {
                out.append(caretForm)
                column += caretForm.utf8.count
                // Anything combined onto a control (rare) is shown after its caret form.
                for u in c.unicodeScalars.dropFirst() { out.unicodeScalars.append(u) }
                continue
            }
            out.append(c)
            column += CellWidth.of(c)
        }
    }
}
