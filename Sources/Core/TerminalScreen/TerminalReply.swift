/// An answer the terminal sent to a question folio asked (never a key): the colour queries
/// `OSC 10 ?` / `OSC 11 ?`, the primary device attributes request (DA1, the sentinel every
/// terminal answers, last), and the colour-scheme report of mode 2031.
public enum TerminalReply: Hashable, Sendable {
    /// `OSC 10 ; rgb:… ST`: the default foreground colour.
    case foreground(ReplyColor)
    /// `OSC 11 ; rgb:… ST`: the default background colour.
    case background(ReplyColor)
    /// `CSI ? … c`: the terminal's primary device attributes. It answers questions in order,
    /// so every reply to questions asked before DA1 has arrived by now.
    case deviceAttributes
    /// `CSI ? 997 ; 1 n` (dark) or `; 2 n` (light): the terminal's colour scheme, sent on
    /// request (`CSI ? 996 n`) and, with mode 2031 set, whenever it changes.
    case colorScheme(dark: Bool)
    /// `ESC _ G i=… ; OK ESC \\`: kitty's graphics protocol answered its query (`ok`: it can
    /// show images; an error message otherwise).
    case kittyGraphics(ok: Bool)
    /// DA1 listed attribute 4: the terminal draws sixel graphics.
    case sixelGraphics
    /// `CSI 6 ; height ; width t`: a cell's size in pixels (asked with `CSI 16 t`).
    case cellSize(width: Int, height: Int)
    /// `DCS > | name ST` (XTVERSION): the terminal's name and version, as it writes them
    /// (`iTerm2 3.5.0`, `kitty(0.35.2)`, `tmux 3.4`).
    case terminalName(String)
}

extension TerminalReply {
    /// The reply an APC string's body (after `ESC _`, up to its terminator) makes: kitty's
    /// graphics reply (`Gi=31;OK`), else nil.
    static func kittyGraphics(fromAPC body: [UInt8]) -> TerminalReply? {
        guard body.first == 0x47, let semicolon = body.firstIndex(of: 0x3B) else { return nil }
        return .kittyGraphics(ok: Array(body[(semicolon + 1)...]) == Array("OK".utf8))
    }

    /// The reply a DCS string's body (after `ESC P`, up to its terminator) makes: XTVERSION's
    /// `>|name`, the name kept to printable ASCII; else nil.
    static func terminalName(fromDCS body: [UInt8]) -> TerminalReply? {
        guard body.count > 2, body[0] == 0x3E, body[1] == 0x7C else { return nil }
        let name = body.dropFirst(2).filter { (0x20...0x7E).contains($0) }
        return name.isEmpty ? nil : .terminalName(String(decoding: name, as: UTF8.self))
    }
}

/// A colour from a terminal reply, with 16-bit channels (0…65535), however many hex digits
/// the terminal wrote.
public struct ReplyColor: Hashable, Sendable {
    public var red: UInt16, green: UInt16, blue: UInt16

    public init(red: UInt16, green: UInt16, blue: UInt16) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// Parses X11's `rgb:R/G/B` (each channel 1–4 hex digits, scaled: `f`, `ff`, `fff` and
    /// `ffff` are all full) and `rgba:R/G/B/A` (alpha ignored), as terminals answer OSC 10/11.
    /// Nil for anything else.
    public init?(x11 text: some StringProtocol) {
        let spec = Substring(text)
        let fields: [Substring]
        if spec.hasPrefix("rgb:") {
            fields = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
        } else if spec.hasPrefix("rgba:") {
            fields = spec.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
        } else {
            return nil
        }
        var channels: [UInt16] = []
        for field in fields.prefix(3) {
            guard (1...4).contains(field.count), let value = UInt32(field, radix: 16),
                  field.allSatisfy(\.isHexDigit) else { return nil }
            let maximum = (UInt32(1) << (4 * UInt32(field.count))) - 1
            channels.append(UInt16((value * 0xFFFF + maximum / 2) / maximum))
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// The body of an OSC reply (`11;rgb:0000/0000/0000`, without ESC ] and terminator) as a
    /// reply; nil for other OSC strings.
    static func reply(fromOSC body: [UInt8]) -> TerminalReply? {
        let text = String(decoding: body, as: UTF8.self)
        guard let semicolon = text.firstIndex(of: ";") else { return nil }
        let colour = text[text.index(after: semicolon)...]
        switch text[..<semicolon] {
        case "10": return ReplyColor(x11: colour).map { .foreground($0) }
        case "11": return ReplyColor(x11: colour).map { .background($0) }
        default: return nil
        }
    }
}
