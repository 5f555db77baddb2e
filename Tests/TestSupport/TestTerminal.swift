import TerminalScreen

/// A tiny terminal emulator for replaying renderer output: CUP, CUF, SGR (tracked), OSC 8
/// (tracked), text, DECSTBM + SU/SD, ED, EL, and the mode switches folio sends (ignored).
/// Anything else, or text printed past the right edge, is recorded in `errors`: the renderer
/// must never rely on autowrap or on sequences the emulator does not know.
public struct TestTerminal {
    public var screen: Grid
    public var row = 0, column = 0
    public var style = CellStyle.plain
    public var region: Range<Int>
    public var errors: [String] = []

    public init(rows: Int, columns: Int, garbage: Bool = false) {
        screen = Grid(rows: rows, columns: columns)
        region = 0..<rows
        if garbage {
            for r in 0..<rows { screen.put(String(repeating: "#", count: columns), style: CellStyle(bold: true), row: r, column: 0) }
        }
    }

    public mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) { print(character) }
            text.removeAll()
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                flushText()
                guard i + 1 < bytes.count else { errors.append("trailing ESC"); return }
                if bytes[i + 1] == 0x5B {  // CSI
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    guard j < bytes.count else { errors.append("cut CSI"); return }
                    csi(String(decoding: bytes[(i + 2)..<j], as: UTF8.self), final: bytes[j])
                    i = j + 1
                } else if bytes[i + 1] == 0x5D {  // OSC … ESC \
                    var j = i + 2
                    while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += 1 }
                    guard j + 1 < bytes.count else { errors.append("cut OSC"); return }
                    osc(String(decoding: bytes[(i + 2)..<j], as: UTF8.self))
                    i = j + 2
                } else {
                    errors.append("unknown escape \(bytes[i + 1])"); i += 2
                }
            } else if b < 0x20 || b == 0x7F {
                flushText()
                errors.append("control byte \(b)")
                i += 1
            } else {
                text.append(b); i += 1
            }
        }
        flushText()
    }

    private mutating func print(_ character: Character) {
        let cell = Cell(character, style: style)
        guard column + cell.width <= screen.columns, row < screen.rows else {
            errors.append("print \(character) past the edge at \(row),\(column)")
            return
        }
        screen.set(cell, row: row, column: column)
        column += cell.width
    }

    private mutating func csi(_ params: String, final: UInt8) {
        let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func n(_ i: Int, _ fallback: Int) -> Int { i < numbers.count ? (numbers[i] ?? fallback) : fallback }
        let blank = CellStyle(background: style.background)
        switch (params.first == "?", Character(Unicode.Scalar(final))) {
        case (true, "h"), (true, "l"): break  // modes: sync output, cursor visibility
        case (false, "H"):
            row = n(0, 1) - 1; column = n(1, 1) - 1
            if row < 0 || row >= screen.rows || column < 0 || column >= screen.columns { errors.append("CUP out of range \(params)") }
        case (false, "C"): column = min(screen.columns - 1, column + n(0, 1))
        case (false, "m"): sgr(numbers.isEmpty ? [0] : numbers.map { $0 ?? 0 })
        case (false, "r"):
            let top = n(0, 1) - 1, bottom = n(1, screen.rows)
            region = top..<bottom
            if region.isEmpty || bottom > screen.rows { errors.append("bad DECSTBM \(params)") }
            row = 0; column = 0
        case (false, "S"): screen.scroll(region: region, by: n(0, 1), fill: blank)
        case (false, "T"): screen.scroll(region: region, by: -n(0, 1), fill: blank)
        case (false, "J"):
            if n(0, 0) == 2 { screen.fill(style: blank) } else { errors.append("ED \(params)") }
        case (false, "K"): screen.fill(rows: row..<(row + 1), columns: column..<screen.columns, style: blank)
        default: errors.append("unknown CSI \(params)\(Character(Unicode.Scalar(final)))")
        }
    }

    private mutating func sgr(_ p: [Int]) {
        var i = 0
        func color(_ base: Int) -> TerminalColor? {
            if p[i] == 5, i + 1 < p.count { i += 1; return .palette(UInt8(p[i])) }
            if p[i] == 2, i + 3 < p.count { i += 3; return .rgb(UInt8(p[i - 2]), UInt8(p[i - 1]), UInt8(p[i])) }
            errors.append("bad extended colour"); return nil
        }
        while i < p.count {
            switch p[i] {
            case 0: let link = style.hyperlink; style = .plain; style.hyperlink = link
            case 1: style.bold = true
            case 2: style.dim = true
            case 3: style.italic = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 9: style.strikethrough = true
            case 22: style.bold = false; style.dim = false
            case 23: style.italic = false
            case 24: style.underline = false
            case 27: style.reverse = false
            case 29: style.strikethrough = false
            case 30...37: style.foreground = .ansi(UInt8(p[i] - 30))
            case 90...97: style.foreground = .ansi(UInt8(p[i] - 90 + 8))
            case 40...47: style.background = .ansi(UInt8(p[i] - 40))
            case 100...107: style.background = .ansi(UInt8(p[i] - 100 + 8))
            case 39: style.foreground = .default
            case 49: style.background = .default
            case 38: i += 1; if let c = color(38) { style.foreground = c }
            case 48: i += 1; if let c = color(48) { style.background = c }
            default: errors.append("unknown SGR \(p[i])")
            }
            i += 1
        }
    }

    private mutating func osc(_ body: String) {
        guard body.hasPrefix("8;") else { errors.append("unknown OSC \(body)"); return }
        let url = body.split(separator: ";", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).first ?? ""
        style.hyperlink = url.isEmpty ? nil : String(url)
    }
}


