import CellWidth

/// Byte encodings of the escape sequences folio writes. Pure.
public enum ANSI {
    public static let esc: UInt8 = 0x1B

    /// `ESC[` + text.
    static func csi(_ text: String) -> [UInt8] { [esc, 0x5B] + Array(text.utf8) }

    /// Cursor position, 0-based in, 1-based on the wire: `ESC[r;cH` (`ESC[H` for home).
    public static func moveCursor(row: Int, column: Int) -> [UInt8] {
        if row == 0 && column == 0 { return csi("H") }
        if column == 0 { return csi("\(row + 1)H") }
        return csi("\(row + 1);\(column + 1)H")
    }

    /// Cursor forward by n columns: `ESC[C` / `ESC[nC`.
    static func cursorForward(_ n: Int) -> [UInt8] { n == 1 ? csi("C") : csi("\(n)C") }

    public static let hideCursor = csi("?25l")
    public static let showCursor = csi("?25h")
    public static let beginSynchronizedUpdate = csi("?2026h")
    public static let endSynchronizedUpdate = csi("?2026l")
    public static let enterAlternateScreen = csi("?1049h")
    public static let leaveAlternateScreen = csi("?1049l")
    /// Alternate scroll mode (DECSET 1007): the wheel sends arrow keys on the alternate screen.
    public static let enableAlternateScroll = csi("?1007h")
    public static let disableAlternateScroll = csi("?1007l")
    /// Press/release (1000), drag (1002), SGR coordinates (1006).
    public static let enableMouse = csi("?1000h") + csi("?1002h") + csi("?1006h")
    public static let disableMouse = csi("?1006l") + csi("?1002l") + csi("?1000l")
    public static let enableBracketedPaste = csi("?2004h")
    public static let disableBracketedPaste = csi("?2004l")
    /// Asks for the default foreground (OSC 10) and background (OSC 11) colours, then the
    /// primary device attributes (DA1): every terminal answers DA1, and answers in order, so
    /// its reply says that no colour reply is coming any more. Replies: `TerminalReply`.
    public static let queryColors: [UInt8] =
        [esc] + Array("]10;?".utf8) + [esc, 0x5C] + [esc] + Array("]11;?".utf8) + [esc, 0x5C] + csi("c")
    /// Asks whether kitty's graphics protocol is there (a 1 x 1 image queried, never shown:
    /// `a=q`); a terminal without it ignores the string. Sent before DA1, whose reply ends the
    /// wait (a silent terminal costs nothing).
    public static let queryKittyGraphics: [UInt8] = [esc] + Array("_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA".utf8) + [esc, 0x5C]
    /// The questions about pictures, sent before DA1: kitty's graphics (`queryKittyGraphics`),
    /// the cell's size in pixels (`CSI 16 t`, for terminals that leave `TIOCGWINSZ`'s pixel
    /// fields empty) and the terminal's name and version (XTVERSION, `CSI > 0 q`: iTerm2 says
    /// who it is there, also over ssh). A terminal that does not know one ignores it.
    public static let queryGraphics: [UInt8] = queryKittyGraphics + csi("16t") + csi(">0q")
    public static let deviceAttributes: [UInt8] = csi("c")
    /// Deletes every kitty image (placements and data) this program made.
    public static let deleteKittyImages: [UInt8] = [esc] + Array("_Ga=d,d=A,q=2".utf8) + [esc, 0x5C]
    /// Mode 2031: the terminal reports light/dark changes (`CSI ? 997 ; 1|2 n`).
    public static let enableColorSchemeReports = csi("?2031h")
    public static let disableColorSchemeReports = csi("?2031l")
    public static let resetStyle = csi("0m")
    /// To the start of the bottom row, whatever the height (terminals clamp the row).
    public static let bottomRow = csi("9999H")
    /// Erases the cursor's row.
    public static let eraseLine = csi("2K")
    /// Without the alternate screen (less's -X): the screen's contents scrolled up into the
    /// terminal's history by `rows` line feeds from the bottom row, so that the output above
    /// folio is kept as less -X keeps it (its first page scrolls in) instead of being drawn over.
    public static func scrollScreenAway(rows: Int) -> [UInt8] { bottomRow + Array(repeating: 0x0A, count: max(0, rows)) }
    public static let clearScreen = csi("2J")
    /// Resets the scroll region to the whole screen (DECSTBM without parameters); moves the
    /// cursor home.
    public static let resetScrollRegion = csi("r")

    /// DECSTBM for 0-based rows `region` (`ESC[top;bottomr`, 1-based inclusive); moves the
    /// cursor home.
    public static func setScrollRegion(_ region: Range<Int>) -> [UInt8] {
        csi("\(region.lowerBound + 1);\(region.upperBound)r")
    }

    /// SU (`ESC[nS`, content moves up) for positive `amount`, SD (`ESC[nT`) for negative.
    public static func scroll(by amount: Int) -> [UInt8] {
        let n = abs(amount)
        let count = n == 1 ? "" : "\(n)"
        return csi(count + (amount > 0 ? "S" : "T"))
    }

    /// OSC 8 hyperlink start (`ESC]8;;URL ESC\`), or its end when `url` is nil. Control
    /// characters in the URL are percent-encoded (`VisibleControls.percentEncodingControls`),
    /// so it cannot end the sequence early and the terminal opens what Enter on the link opens.
    public static func hyperlink(_ url: String?) -> [UInt8] {
        [esc, 0x5D] + Array("8;;".utf8) + Array(VisibleControls.percentEncodingControls(url ?? "").utf8) + [esc, 0x5C]
    }

    /// SGR parameters that select `color` as foreground or background.
    static func colorParameters(_ color: TerminalColor, background: Bool) -> [String] {
        switch color {
        case .default: return [background ? "49" : "39"]
        case .ansi(let n):
            let n = Int(n & 15)
            if n < 8 { return ["\((background ? 40 : 30) + n)"] }
            return ["\((background ? 100 : 90) + n - 8)"]
        case .palette(let n): return [background ? "48" : "38", "5", "\(n)"]
        case .rgb(let r, let g, let b): return [background ? "48" : "38", "2", "\(r)", "\(g)", "\(b)"]
        }
    }

    /// The shortest SGR sequence that turns `from` into `to` (hyperlinks ignored): either the
    /// individual changes, or a reset followed by everything `to` sets, whichever is shorter.
    /// Empty when nothing changes.
    public static func sgr(from: CellStyle, to: CellStyle) -> [UInt8] {
        var a = from; a.hyperlink = nil
        var b = to; b.hyperlink = nil
        if a == b { return [] }
        var full: [String] = ["0"]
        full += attributeParameters(of: b)
        if b.foreground != .default { full += colorParameters(b.foreground, background: false) }
        if b.background != .default { full += colorParameters(b.background, background: true) }

        var delta: [String] = []
        // Bold and dim share their reset (22): drop both, then set what remains.
        if (a.bold && !b.bold) || (a.dim && !b.dim) {
            delta.append("22")
            if b.bold { delta.append("1") }
            if b.dim { delta.append("2") }
        } else {
            if b.bold && !a.bold { delta.append("1") }
            if b.dim && !a.dim { delta.append("2") }
        }
        if a.italic != b.italic { delta.append(b.italic ? "3" : "23") }
        if a.underline != b.underline { delta.append(b.underline ? "4" : "24") }
        if a.reverse != b.reverse { delta.append(b.reverse ? "7" : "27") }
        if a.strikethrough != b.strikethrough { delta.append(b.strikethrough ? "9" : "29") }
        if a.foreground != b.foreground { delta += colorParameters(b.foreground, background: false) }
        if a.background != b.background { delta += colorParameters(b.background, background: true) }

        let chosen = joinedLength(delta) <= joinedLength(full) ? delta : full
        if chosen == ["0"] { return csi("m") }
        // A loop, not `joined(separator:)`: that one is generic in the standard library, and
        // its first call in a process looks its types up at run time (the first frame's).
        var text = ""
        for (i, parameter) in chosen.enumerated() {
            if i > 0 { text += ";" }
            text += parameter
        }
        return csi(text + "m")
    }

    /// The UTF-8 length of `parameters` joined by `;`.
    private static func joinedLength(_ parameters: [String]) -> Int {
        parameters.reduce(max(0, parameters.count - 1)) { $0 + $1.utf8.count }
    }

    private static func attributeParameters(of s: CellStyle) -> [String] {
        var p: [String] = []
        if s.bold { p.append("1") }
        if s.dim { p.append("2") }
        if s.italic { p.append("3") }
        if s.underline { p.append("4") }
        if s.reverse { p.append("7") }
        if s.strikethrough { p.append("9") }
        return p
    }
}
