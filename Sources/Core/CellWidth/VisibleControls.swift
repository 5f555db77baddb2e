/// Control characters made visible, for every message folio writes: standard error, the status
/// line, prompts and help. A file name, URL or heading may hold any byte; written as is, an ESC
/// or a C1 CSI in it would reach the terminal as a control sequence (a changed window title,
/// a cleared screen, a fake prompt).
///
/// The forms are `cat -v`'s: C0 controls in caret notation (`^[` for ESC, `^@` for NUL,
/// `^I` for TAB), DEL as `^?`, C1 controls (U+0080...U+009F) as `M-^[` and the like. The layout
/// shows document text the same way (LineLayout's `ControlCharacters`), so a name reads the same
/// on the status line and in the page.
public enum VisibleControls {
    /// Whether `v` is a C0 control, DEL or a C1 control.
    @inline(__always)
    public static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v < 0xA0)
    }

    /// The visible form of a control scalar, nil if `v` is not a control.
    @inline(__always)
    public static func caret(_ v: UInt32) -> String? {
        if v < 0x20 { return "^" + String(Unicode.Scalar(UInt8(v + 0x40))) }
        if v == 0x7F { return "^?" }
        if v >= 0x80 && v < 0xA0 { return "M-^" + String(Unicode.Scalar(UInt8(v - 0x80 + 0x40))) }
        return nil
    }

    /// `text` with every control character in its visible form. With `keepingNewlines` a LF
    /// stays a line break (multi-line messages such as usage text); the parts that come from
    /// outside (file names, arguments) should be escaped on their own, without it.
    public static func escape(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if keepingNewlines && u.value == 0x0A {
                out.append(u)
            } else if let form = caret(u.value) {
                out.append(contentsOf: form.unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
