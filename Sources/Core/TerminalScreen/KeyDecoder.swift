/// Incremental decoder from terminal input bytes to keys, mouse reports and pastes.
///
/// Pure and honest about partial input (after helix-editor/termina's `parse.rs`): bytes that
/// may start a longer sequence — an ESC, `ESC [ 1 ;`, the first byte of a UTF-8 sequence —
/// stay pending until more bytes decide them, or until the I/O layer, having seen no byte for
/// ~25–50 ms, calls `flushTimeout()`. The decoder never reads the clock, so the same bytes
/// give the same events however they are split into reads:
///
/// ```
/// feed([0x1B])            → []            (hasPendingEscape)
/// feed([0x78])            → [.key(.alt(.char("x")))]
/// feed([0x1B]); flushTimeout() → [.key(.escape)]
/// ```
///
/// Terminal replies are decoded as `.reply`, never as keys: OSC strings (`ESC ] digits … BEL`
/// or `… ESC \\`; OSC 10/11 colours become events, others are dropped), DA1 (`CSI ? … c`) and
/// the colour-scheme report (`CSI ? 997 ; n n`). An OSC string in progress is never decided
/// by a timeout (a reply may arrive in pieces, late), so it does not count as pending; it
/// ends at its terminator, or is abandoned at any other control byte (an ESC starting a new
/// sequence, Enter, Ctrl-C…), which is then decoded as usual. The one ambiguity left:
/// typing Alt-] and then a digit starts what looks like an OSC string, which swallows the
/// text typed after it up to the next control key.
///
/// A lone Esc is also a prefix, as in less (`Esc u`, `Esc v`): typed by hand, Esc and the
/// next key are two keystrokes, far apart for a terminal's timeout. After a lone Esc the
/// decoder stays *armed* for `escapePrefixWindow` milliseconds: the next key decoded within
/// it comes as `.alt(key)`, as if both had come together (what an Alt/Meta key sends); a key
/// after it comes as itself. The window is measured on the caller's clock, passed in with
/// the bytes (`feed(_:at:)`, `flushTimeout(at:)`); the decoder still never reads a clock:
///
/// ```
/// feed([0x1B], at: 0); flushTimeout(at: 40) → [.key(.escape)]      (armed until 540)
/// feed([0x75], at: 300)                     → [.key(.alt(.char("u")))]
/// feed([0x1B], at: 0); flushTimeout(at: 40); feed([0x75], at: 900) → … [.key(.char("u"))]
/// ```
///
/// Only the next key takes the prefix; a mouse report or a paste disarms it, a terminal
/// reply does not (it is not the user's). Calls without a time (`feed(_:)`,
/// `flushTimeout()`) say nothing about when the bytes came, and are taken as late: a lone
/// Esc decided by them arms nothing, and bytes fed by them find the prefix lapsed.
///
/// Never traps on any input: invalid UTF-8 becomes U+FFFD, unknown or malformed escape
/// sequences are dropped.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// When the last lone Esc was decided (caller's milliseconds), while the next key may
    /// still take it as a prefix; nil when no prefix is armed.
    private var escapeArmedAt: Int?
    private var inPaste = false
    private var pasteBytes: [UInt8] = []
    /// Inside an OSC string (after `ESC ]` and a digit): its body so far.
    private var inOSC = false
    /// What the string being read is: an OSC (a colour), an APC (`ESC _ G …`: kitty's
    /// graphics reply) or a DCS (`ESC P > | …`: XTVERSION's reply).
    private var stringKind = StringKind.osc
    enum StringKind { case osc, apc, dcs }
    private var oscBody: [UInt8] = []
    /// The OSC string grew past `maximumOSCLength`: it is read to its end and dropped.
    private var oscOverflow = false

    /// Milliseconds after a lone Esc within which the next key is `Esc`-that-key (`Esc u`
    /// toggles the highlight, `Esc v` pages up), as less users type them: two keystrokes, the
    /// second one typist's interval between keys after the first (longer than usual: Esc is
    /// in the keyboard's corner), so about twice that interval. Later, the key is itself: an
    /// Esc pressed to clear a selection or close the help does not turn a `v` typed
    /// afterwards into `Esc v`. tmux's `escape-time` waits as long for the same question;
    /// vim's `timeoutlen` (a mapping typed by hand) twice as long. README, folio(1) KEYS.
    public static let escapePrefixWindow = 500

    /// Longest OSC body kept; longer ones (a clipboard reply) are skipped to their end.
    static let maximumOSCLength = 512

    /// Longest CSI parameter/intermediate run accepted before a sequence counts as garbage.
    static let maximumSequenceLength = 64
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    public init() {}

    /// True when the pending bytes begin with ESC: the I/O layer should wait briefly and then
    /// call `flushTimeout()` if nothing else arrives.
    public var hasPendingEscape: Bool { !inPaste && !inOSC && pending.first == 0x1B }

    /// True when any bytes are waiting for more input (escape sequence, UTF-8 tail, paste)
    /// that a timeout would decide. An OSC string in progress is not: only its terminator
    /// (or a control byte) ends it.
    public var hasPending: Bool { (!pending.isEmpty && !inOSC) || inPaste }

    /// True inside an OSC string (a terminal reply on its way; for tests).
    var isReadingReply: Bool { inOSC }

    /// Decodes as much of the input so far as is unambiguous. The bytes are taken as coming
    /// long after any lone Esc: it is not a prefix to them (see `feed(_:at:)`).
    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        escapeArmedAt = nil
        pending += bytes
        return armed(drain(final: false), at: nil)
    }

    /// `feed` of bytes read at `now` (milliseconds on the caller's monotonic clock): the
    /// first key in them is `.alt(key)` when a lone Esc was decided at most
    /// `escapePrefixWindow` milliseconds before.
    public mutating func feed(_ bytes: [UInt8], at now: Int) -> [InputEvent] {
        if let at = escapeArmedAt, now - at > Self.escapePrefixWindow { escapeArmedAt = nil }
        pending += bytes
        return armed(drain(final: false), at: now)
    }

    /// No more bytes arrived in time: decides everything pending. A lone ESC becomes
    /// `.escape`, `ESC [` and `ESC O` become Alt-[ and Alt-O, a cut UTF-8 sequence becomes
    /// U+FFFD, and an unterminated paste ends. Without a time, a lone Esc arms no prefix.
    public mutating func flushTimeout() -> [InputEvent] {
        escapeArmedAt = nil
        return armed(flush(), at: nil)
    }

    /// `flushTimeout` at `now` (the caller's milliseconds): a lone Esc decided here is a
    /// prefix to a key that comes within `escapePrefixWindow` of `now`.
    public mutating func flushTimeout(at now: Int) -> [InputEvent] {
        if let at = escapeArmedAt, now - at > Self.escapePrefixWindow { escapeArmedAt = nil }
        return armed(flush(), at: now)
    }

    /// A lone Esc is waiting for the next key to be its prefix (for tests).
    var isEscapeArmed: Bool { escapeArmedAt != nil }

    private mutating func flush() -> [InputEvent] {
        var events = drain(final: true)
        if inPaste {
            events.append(.paste(String(decoding: pasteBytes, as: UTF8.self)))
            inPaste = false
            pasteBytes = []
            events += drain(final: true)
        }
        return events
    }

    /// Applies the Esc prefix to decoded events, in order: a lone Esc arms it (at `now`; not
    /// at all without a time), the next key takes it (`.alt(key)`; an Esc re-arms, a key
    /// with Alt already stays as it is), a mouse report or a paste disarms it.
    private mutating func armed(_ events: [InputEvent], at now: Int?) -> [InputEvent] {
        guard now != nil || escapeArmedAt != nil else { return events }
        var out = events
        for i in out.indices {
            switch out[i] {
            case .key(.escape):
                escapeArmedAt = now
            case .key(let key):
                if escapeArmedAt != nil {
                    if case .alt = key {} else { out[i] = .key(.alt(key)) }
                }
                escapeArmedAt = nil
            case .mouse, .paste:
                escapeArmedAt = nil
            case .reply:
                break
            }
        }
        return out
    }

    private mutating func drain(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var start = 0
        while start < pending.count {
            if inPaste {
                let searchFrom = max(0, pasteBytes.count - (Self.pasteEnd.count - 1))
                pasteBytes += pending[start...]
                start = pending.count
                if let end = Self.find(Self.pasteEnd, in: pasteBytes, from: searchFrom) {
                    events.append(.paste(String(decoding: pasteBytes[..<end], as: UTF8.self)))
                    pending = Array(pasteBytes[(end + Self.pasteEnd.count)...])
                    start = 0
                    pasteBytes = []
                    inPaste = false
                }
                continue
            }
            if inOSC {
                switch scanOSC(from: start) {
                case .needMore(let at):
                    pending.removeFirst(at)
                    return events
                case .ended(let next, let reply):
                    if let reply { events.append(.reply(reply)) }
                    start = next
                }
                continue
            }
            let parsed = parse(pending[start...], final: final)
            switch parsed {
            case .incomplete:
                pending.removeFirst(start)
                return events
            case .done(let consumed, let decoded):
                events += decoded
                start += consumed
            case .pasteStart(let consumed):
                inPaste = true
                start += consumed
            case .oscStart(let consumed), .apcStart(let consumed), .dcsStart(let consumed):
                switch parsed {
                case .apcStart: stringKind = .apc
                case .dcsStart: stringKind = .dcs
                default: stringKind = .osc
                }
                inOSC = true
                oscBody = []
                oscOverflow = false
                start += consumed
            }
        }
        if start >= pending.count { pending.removeAll(keepingCapacity: true) } else { pending.removeFirst(start) }
        return events
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    enum Parse {
        case incomplete
        case done(consumed: Int, events: [InputEvent])
        case pasteStart(consumed: Int)
        case oscStart(consumed: Int)
        /// `ESC _ G`: read as an OSC string is, and its body decoded as kitty's reply.
        case apcStart(consumed: Int)
        /// `ESC P > |`: read as an OSC string is, and its body decoded as XTVERSION's reply.
        case dcsStart(consumed: Int)
    }

    enum OSCScan {
        /// The bytes from `at` on must wait for more (an ESC that may start the terminator).
        case needMore(at: Int)
        /// The string ended (terminated: its reply, if it is one; abandoned: nil) and
        /// decoding goes on at `next`.
        case ended(next: Int, reply: TerminalReply?)
    }

    /// Reads an OSC string's body from `pending[from...]` up to its terminator.
    private mutating func scanOSC(from: Int) -> OSCScan {
        var i = from
        while i < pending.count {
            let byte = pending[i]
            switch byte {
            case 0x07:
                return finishOSC(next: i + 1)
            case 0x1B:
                guard i + 1 < pending.count else { return .needMore(at: i) }
                if pending[i + 1] == 0x5C { return finishOSC(next: i + 2) }
                inOSC = false
                return .ended(next: i, reply: nil)  // a new sequence: the string is abandoned
            case 0x00...0x1F:
                inOSC = false
                return .ended(next: i, reply: nil)  // a key typed (Enter, Ctrl-C): decoded as usual
            default:
                if oscBody.count < Self.maximumOSCLength { oscBody.append(byte) } else { oscOverflow = true }
                i += 1
            }
        }
        return .needMore(at: i)
    }

    private mutating func finishOSC(next: Int) -> OSCScan {
        inOSC = false
        let kind = stringKind
        stringKind = .osc
        let reply: TerminalReply?
        switch kind {
        case _ where oscOverflow: reply = nil
        case .osc: reply = ReplyColor.reply(fromOSC: oscBody)
        case .apc: reply = TerminalReply.kittyGraphics(fromAPC: oscBody)
        case .dcs: reply = TerminalReply.terminalName(fromDCS: oscBody)
        }
        oscBody = []
        return .ended(next: next, reply: reply)
    }

    /// Parses one event from the start of `bytes` (never empty).
    func parse(_ bytes: ArraySlice<UInt8>, final: Bool) -> Parse {
        // Only a bounded prefix can matter (the longest sequence accepted, plus its final byte
        // and an X10 mouse tail): this keeps a large burst linear, and makes the decision for a
        // too-long sequence independent of how the bytes were split into reads.
        let b = Array(bytes.prefix(Self.maximumSequenceLength + 8))
        guard b[0] == 0x1B else { return Self.simple(b, at: 0, final: final) }
        guard b.count >= 2 else { return final ? .done(consumed: 1, events: [.key(.escape)]) : .incomplete }
        switch b[1] {
        case 0x5B: return csi(b, final: final)
        case 0x4F: return ss3(b, final: final)
        case 0x5D:  // OSC: a terminal reply starts with its number
            guard b.count >= 3 else { return final ? .done(consumed: 2, events: [.key(.alt(.char("]")))]) : .incomplete }
            if (0x30...0x39).contains(b[2]) { return .oscStart(consumed: 2) }
            return .done(consumed: 2, events: [.key(.alt(.char("]")))])
        case 0x5F:  // APC: kitty's graphics reply starts with G (Alt-_ then G is read as one)
            guard b.count >= 3 else { return final ? .done(consumed: 2, events: [.key(.alt(.char("_")))]) : .incomplete }
            if b[2] == 0x47 { return .apcStart(consumed: 2) }
            return .done(consumed: 2, events: [.key(.alt(.char("_")))])
        // DCS `ESC P > |`: XTVERSION's reply (Alt-P, `>`, `|` typed at once is read as one);
        // its start may arrive split, so `ESC P` and `ESC P >` wait for more.
        case 0x50 where !final && b.count < 4 && (b.count == 2 || b[2] == 0x3E):
            return .incomplete
        case 0x50 where b.count >= 4 && b[2] == 0x3E && b[3] == 0x7C:
            return .dcsStart(consumed: 2)
        case 0x1B: return .done(consumed: 1, events: [.key(.escape)])
        default:
            switch Self.simple(b, at: 1, final: final) {
            case .done(let consumed, let events):
                return .done(consumed: consumed + 1, events: events.map { event in
                    if case .key(let key) = event { return .key(.alt(key)) }
                    return event
                })
            case let other: return other
            }
        }
    }

    /// A key that is not an escape sequence: a control byte, ASCII, or one UTF-8 scalar.
    static func simple(_ b: [UInt8], at i: Int, final: Bool) -> Parse {
        let byte = b[i]
        func key(_ k: Key, _ n: Int = 1) -> Parse { .done(consumed: n, events: [.key(k)]) }
        switch byte {
        case 0x00: return key(.ctrl("@"))
        case 0x08, 0x7F: return key(.backspace)
        case 0x09: return key(.tab)
        case 0x0A, 0x0D: return key(.enter)
        case 0x01...0x1A: return key(.ctrl(Character(Unicode.Scalar(byte + 0x60))))
        case 0x1C...0x1F: return key(.ctrl(Character(Unicode.Scalar(byte + 0x40))))
        case 0x20...0x7E: return key(.char(Character(Unicode.Scalar(byte))))
        default: break
        }
        // UTF-8: lead byte → length and the allowed range of the second byte (RFC 3629).
        let length: Int, second: ClosedRange<UInt8>
        switch byte {
        case 0xC2...0xDF: length = 2; second = 0x80...0xBF
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3; second = 0x80...0xBF
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; second = 0x80...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return key(.char("\u{FFFD}"))
        }
        var value = UInt32(byte) & (0xFF >> (length + 1))
        for k in 1..<length {
            guard i + k < b.count else {
                return final ? key(.char("\u{FFFD}"), b.count - i) : .incomplete
            }
            let next = b[i + k]
            let allowed: ClosedRange<UInt8> = k == 1 ? second : 0x80...0xBF
            // A maximal valid prefix followed by a bad byte is one U+FFFD; the bad byte is
            // decoded on its own.
            guard allowed.contains(next) else { return key(.char("\u{FFFD}"), k) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), !(0x80...0x9F).contains(value) else {
            return key(.char("\u{FFFD}"), length)
        }
        return key(.char(Character(scalar)), length)
    }

    /// `ESC O x`: F1–F4, arrows, Home/End, keypad Enter.
    private func ss3(_ b: [UInt8], final: Bool) -> Parse {
        guard b.count >= 3 else { return final ? .done(consumed: 2, events: [.key(.alt(.char("O")))]) : .incomplete }
        let key: Key? = switch b[2] {
        case 0x50: .function(1)
        case 0x51: .function(2)
        case 0x52: .function(3)
        case 0x53: .function(4)
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        case 0x48: .home
        case 0x46: .end
        case 0x4D: .enter
        default: nil
        }
        if let key { return .done(consumed: 3, events: [.key(key)]) }
        return .done(consumed: 2, events: [.key(.alt(.char("O")))])
    }

    /// `ESC [ params intermediates final`, plus X10 mouse (`ESC [ M b x y`) and the Linux
    /// console's `ESC [ [ A`…`E` (F1–F5).
    private func csi(_ b: [UInt8], final: Bool) -> Parse {
        var i = 2
        while i < b.count, (0x30...0x3F).contains(b[i]) { i += 1 }
        let paramsEnd = i
        while i < b.count, (0x20...0x2F).contains(b[i]) { i += 1 }
        // Too long to be real: drop a fixed number of bytes, so splitting never changes the result.
        if i - 2 > Self.maximumSequenceLength { return .done(consumed: Self.maximumSequenceLength + 3, events: []) }
        guard i < b.count else {
            if !final { return .incomplete }
            // Timed out inside a sequence: it was Alt-[ followed by ordinary typing.
            return .done(consumed: 2, events: [.key(.alt(.char("[")))])
        }
        let finalByte = b[i]
        guard (0x40...0x7E).contains(finalByte) else {
            return .done(consumed: i, events: [])  // malformed: drop it, decode the odd byte anew
        }
        let params = Array(b[2..<paramsEnd])
        let hasIntermediates = paramsEnd != i
        let consumed = i + 1

        if params.isEmpty && !hasIntermediates && finalByte == 0x4D {  // X10 mouse
            guard b.count >= consumed + 3 else {
                return final ? .done(consumed: b.count, events: []) : .incomplete
            }
            let code = Int(b[consumed]) - 32, x = Int(b[consumed + 1]) - 32, y = Int(b[consumed + 2]) - 32
            let event = MouseEvent(button: max(0, code), column: x, row: y, released: false, sgr: false)
            return .done(consumed: consumed + 3, events: [.mouse(event)])
        }
        if params.isEmpty && !hasIntermediates && finalByte == 0x5B {  // Linux console F1–F5
            guard b.count > consumed else {
                return final ? .done(consumed: consumed, events: []) : .incomplete
            }
            if (0x41...0x45).contains(b[consumed]) {
                return .done(consumed: consumed + 1, events: [.key(.function(Int(b[consumed]) - 0x40))])
            }
            return .done(consumed: consumed, events: [])
        }
        if hasIntermediates { return .done(consumed: consumed, events: []) }

        if params.first == 0x3C {  // SGR mouse: ESC [ < b ; x ; y (M|m)
            let numbers = Self.numbers(params.dropFirst())
            guard finalByte == 0x4D || finalByte == 0x6D, numbers.count == 3,
                  let code = numbers[0], let x = numbers[1], let y = numbers[2]
            else { return .done(consumed: consumed, events: []) }
            let event = MouseEvent(button: code, column: x, row: y, released: finalByte == 0x6D, sgr: true)
            return .done(consumed: consumed, events: [.mouse(event)])
        }
        if params.first == 0x3F && finalByte == 0x63 {  // DA1 reply: ESC [ ? 64 ; 1 ; 2 c
            // Attribute 4: sixel graphics (said just before DA1 ends the replies).
            let sixel = Self.numbers(params.dropFirst()).contains(4)
            return .done(consumed: consumed, events: (sixel ? [.reply(.sixelGraphics)] : []) + [.reply(.deviceAttributes)])
        }
        if params.first == 0x3F && finalByte == 0x6E {  // ESC [ ? 997 ; 1 n: the colour scheme
            let numbers = Self.numbers(params.dropFirst())
            if numbers.count == 2, numbers[0] == 997, let scheme = numbers[1], scheme == 1 || scheme == 2 {
                return .done(consumed: consumed, events: [.reply(.colorScheme(dark: scheme == 1))])
            }
            return .done(consumed: consumed, events: [])
        }
        if let first = params.first, (0x3C...0x3F).contains(first) {
            return .done(consumed: consumed, events: [])  // private sequences: reports we did not ask for
        }
        if finalByte == 0x74 {  // ESC [ 6 ; height ; width t: the cell's size (asked with CSI 16 t)
            let numbers = Self.numbers(params[...])
            if numbers.count == 3, numbers[0] == 6, let height = numbers[1], let width = numbers[2],
               (1...4096).contains(height), (1...4096).contains(width) {
                return .done(consumed: consumed, events: [.reply(.cellSize(width: width, height: height))])
            }
            return .done(consumed: consumed, events: [])  // other window reports: not asked for
        }
        let numbers = Self.numbers(params[...])
        let modifierCode = numbers.count >= 2 ? (numbers[1] ?? 1) : 1
        if finalByte == 0x7E && numbers.first == 200 { return .pasteStart(consumed: consumed) }
        guard let key = Self.csiKey(final: finalByte, number: numbers.first ?? nil) else {
            return .done(consumed: consumed, events: [])
        }
        return .done(consumed: consumed, events: [.key(Self.applying(modifierCode: modifierCode, to: key))])
    }

    private static func csiKey(final: UInt8, number: Int?) -> Key? {
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x50: return .function(1)
        case 0x51: return .function(2)
        case 0x52: return .function(3)
        case 0x53: return .function(4)
        case 0x5A: return .backTab
        case 0x7E:
            guard let number else { return nil }
            switch number {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(number - 10)
            case 17...21: return .function(number - 11)
            case 23...26: return .function(number - 12)
            case 28...29: return .function(number - 13)
            case 31...34: return .function(number - 14)
            default: return nil
            }
        default: return nil
        }
    }

    /// xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4 | meta 8); meta counts as Alt.
    static func applying(modifierCode: Int, to key: Key) -> Key {
        guard modifierCode > 1, modifierCode <= 256, key != .backTab else { return key }
        let bits = modifierCode - 1
        var mods: KeyModifiers = []
        if bits & 1 != 0 { mods.insert(.shift) }
        if bits & 4 != 0 { mods.insert(.ctrl) }
        var result = mods.isEmpty ? key : .modified(key, mods)
        if bits & 2 != 0 || bits & 8 != 0 { result = .alt(result) }
        return result
    }

    /// Splits `1;5` into numbers; an empty field is nil; absurd values are clamped.
    private static func numbers(_ params: ArraySlice<UInt8>) -> [Int?] {
        var result: [Int?] = []
        var current: Int?
        for byte in params {
            if byte == 0x3B {
                result.append(current); current = nil
            } else if (0x30...0x39).contains(byte) {
                current = min(1_000_000, (current ?? 0) * 10 + Int(byte - 0x30))
            } else if byte == 0x3A {
                continue  // sub-parameters (kitty): ignored
            }
        }
        result.append(current)
        return result
    }
}
