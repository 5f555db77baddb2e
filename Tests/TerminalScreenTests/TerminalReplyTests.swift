import Testing
@testable import TerminalScreen

/// Terminal replies (`--theme=auto`'s colour query) decode as `.reply`, never as keys,
/// however the bytes are split, wherever they fall among keys.
@Suite struct TerminalReplyTests {
    static let esc: UInt8 = 0x1B
    static func s(_ text: String) -> [UInt8] { Array(text.utf8) }
    static let white = ReplyColor(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF)
    static let black = ReplyColor(red: 0, green: 0, blue: 0)

    /// Every form an OSC 11 reply takes: BEL and ST terminators, 1–4 hex digits, rgba.
    static let backgroundForms: [(String, [UInt8], ReplyColor)] = {
        var forms: [(String, [UInt8], ReplyColor)] = []
        let colours: [(String, ReplyColor)] = [
            ("rgb:f/f/f", white), ("rgb:ff/ff/ff", white), ("rgb:fff/fff/fff", white), ("rgb:ffff/ffff/ffff", white),
            ("rgb:0/0/0", black), ("rgb:00/00/00", black), ("rgb:000/000/000", black), ("rgb:0000/0000/0000", black),
            ("rgb:8/0/f", ReplyColor(red: 0x8888, green: 0, blue: 0xFFFF)),
            ("rgb:1e/1e/2e", ReplyColor(red: 0x1E1E, green: 0x1E1E, blue: 0x2E2E)),
            ("rgb:FDF6/E3E3/0000", ReplyColor(red: 0xFDF6, green: 0xE3E3, blue: 0)),
            ("rgba:ffff/ffff/ffff/ffff", white), ("rgba:0000/0000/0000/8000", black), ("rgba:f/f/f/f", white),
        ]
        for (text, colour) in colours {
            forms.append(("\(text) BEL", [esc] + s("]11;\(text)") + [0x07], colour))
            forms.append(("\(text) ST", [esc] + s("]11;\(text)") + [esc, 0x5C], colour))
        }
        return forms
    }()

    static func decode(_ chunks: [[UInt8]], flushBetween: Bool = false) -> [InputEvent] {
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        for chunk in chunks {
            events += decoder.feed(chunk)
            if flushBetween { events += decoder.flushTimeout() }
        }
        events += decoder.flushTimeout()
        return events
    }

    @Test(arguments: 0..<backgroundForms.count)
    func everyBackgroundFormSplitAtEveryByte(index: Int) {
        let (name, bytes, colour) = Self.backgroundForms[index]
        let expected: [InputEvent] = [.reply(.background(colour))]
        #expect(Self.decode([bytes]) == expected, "\(name)")
        for cut in 1..<bytes.count {
            #expect(Self.decode([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "\(name) cut at \(cut)")
        }
        #expect(Self.decode(bytes.map { [$0] }) == expected, "\(name) byte by byte")
    }

    /// Once `ESC ] digit` has arrived, a timeout (the reply arriving slowly, in pieces) never
    /// turns the rest of it into keys.
    @Test(arguments: 0..<backgroundForms.count)
    func aSlowReplyIsNeverDecidedByTheTimeout(index: Int) {
        let (name, bytes, colour) = Self.backgroundForms[index]
        for cut in 3..<bytes.count {
            let events = Self.decode([Array(bytes[..<cut]), Array(bytes[cut...])], flushBetween: true)
            #expect(events == [.reply(.background(colour))], "\(name) timeout at \(cut)")
        }
    }

    @Test func foregroundDeviceAttributesAndTheWholeAnswerInOneRead() {
        let answer = [Self.esc] + Self.s("]10;rgb:0000/0000/0000") + [Self.esc, 0x5C]
            + [Self.esc] + Self.s("]11;rgb:ffff/ffff/ffff") + [Self.esc, 0x5C]
            + [Self.esc] + Self.s("[?64;1;2;6;9;15;18;21;22c")
        let expected: [InputEvent] = [.reply(.foreground(Self.black)), .reply(.background(Self.white)),
                                      .reply(.deviceAttributes)]
        #expect(Self.decode([answer]) == expected)
        for cut in 1..<answer.count {
            #expect(Self.decode([Array(answer[..<cut]), Array(answer[cut...])]) == expected, "cut at \(cut)")
        }
        #expect(Self.decode([[Self.esc] + Self.s("[?1;2c")]) == [.reply(.deviceAttributes)])
    }

    /// Keys in the same read as a reply, before and after it, are all kept, in order.
    @Test func keysAroundAReplyInOneReadAreKept() {
        let reply = [Self.esc] + Self.s("]11;rgb:0000/0000/0000") + [0x07]
        let bytes = Self.s("j") + reply + Self.s("k") + [Self.esc] + Self.s("[B") + [0x03]
        let expected: [InputEvent] = [.key(.char("j")), .reply(.background(Self.black)), .key(.char("k")),
                                      .key(.down), .key(.ctrl("c"))]
        #expect(Self.decode([bytes]) == expected)
        for cut in 1..<bytes.count {
            #expect(Self.decode([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "cut at \(cut)")
        }
    }

    /// A late reply: after keys, after Ctrl-C, after a timeout with nothing pending.
    @Test func aLateReplyAfterKeysAndCtrlCIsStillAReply() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Self.s("jj") + [0x03]) == [.key(.char("j")), .key(.char("j")), .key(.ctrl("c"))])
        #expect(decoder.flushTimeout() == [])
        #expect(decoder.feed([Self.esc] + Self.s("]11;rgb:ffff/ffff/ffff")) == [])
        #expect(!decoder.hasPending && !decoder.hasPendingEscape, "the run loop must not spin on a reply in progress")
        #expect(decoder.isReadingReply)
        #expect(decoder.flushTimeout() == [])
        #expect(decoder.feed([Self.esc, 0x5C, 0x71]) == [.reply(.background(Self.white)), .key(.char("q"))])
    }

    @Test func unknownAndMalformedOSCStringsAreDroppedNotKeys() {
        let cases: [[UInt8]] = [
            [Self.esc] + Self.s("]4;1;rgb:cdcd/0000/0000") + [0x07],          // palette reply
            [Self.esc] + Self.s("]52;c;aGVsbG8=") + [Self.esc, 0x5C],           // clipboard
            [Self.esc] + Self.s("]11;rgb:ff/ff") + [0x07],                      // two channels
            [Self.esc] + Self.s("]11;rgb:fffff/0/0") + [0x07],                  // five digits
            [Self.esc] + Self.s("]11;#ffffff") + [0x07],                        // not X11 rgb:
            [Self.esc] + Self.s("]11;rgb:+f/0/0") + [0x07],
            [Self.esc] + Self.s("]11;") + [0x07],
            [Self.esc] + Self.s("]10") + [0x07],
            [Self.esc] + Self.s("]11;rgb:") + Array(repeating: 0x66, count: 5000) + [0x07],  // too long
        ]
        for bytes in cases {
            #expect(Self.decode([bytes + Self.s("x")]) == [.key(.char("x"))], "\(String(decoding: bytes.prefix(30), as: UTF8.self))")
        }
    }

    /// A control byte ends an OSC string that never terminates (Alt-] then a digit, typed):
    /// the key is decoded as usual, so nothing typed after it is lost.
    @Test func aControlKeyAbandonsAnUnterminatedOSCString() {
        #expect(Self.decode([[Self.esc] + Self.s("]1abc") + [0x0D] + Self.s("j")]) == [.key(.enter), .key(.char("j"))])
        #expect(Self.decode([[Self.esc] + Self.s("]11;rgb:") + [0x03]]) == [.key(.ctrl("c"))])
        #expect(Self.decode([[Self.esc] + Self.s("]11;rgb:") + [Self.esc] + Self.s("[A")]) == [.key(.up)])
        // Alt-] followed by something other than a digit is still Alt-].
        #expect(Self.decode([[Self.esc] + Self.s("]x")]) == [.key(.alt(.char("]"))), .key(.char("x"))])
        #expect(Self.decode([[Self.esc] + Self.s("]")]) == [.key(.alt(.char("]")))])
    }

    @Test func colourSchemeReports() {
        #expect(Self.decode([[Self.esc] + Self.s("[?997;1n")]) == [.reply(.colorScheme(dark: true))])
        #expect(Self.decode([[Self.esc] + Self.s("[?997;2n")]) == [.reply(.colorScheme(dark: false))])
        #expect(Self.decode([[Self.esc] + Self.s("[?997;3n")]) == [])
    }

    @Test func x11ColourParsing() {
        #expect(ReplyColor(x11: "rgb:f/0/8") == ReplyColor(red: 0xFFFF, green: 0, blue: 0x8888))
        #expect(ReplyColor(x11: "rgb:80/80/80") == ReplyColor(red: 0x8080, green: 0x8080, blue: 0x8080))
        #expect(ReplyColor(x11: "rgb:800/800/800") == ReplyColor(red: 0x8008, green: 0x8008, blue: 0x8008))
        #expect(ReplyColor(x11: "rgba:1/2/3") == nil)
        #expect(ReplyColor(x11: "rgb:1/2/3/4") == nil)
        #expect(ReplyColor(x11: "rgb:g/0/0") == nil)
        #expect(ReplyColor(x11: "rgb://") == nil)
    }
}
