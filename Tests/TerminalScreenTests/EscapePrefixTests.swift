import Testing
@testable import TerminalScreen

/// A lone Esc followed by a key typed by hand within `KeyDecoder.escapePrefixWindow` is that
/// key with the Esc prefix (`.alt`), as less's `Esc u` is two keystrokes; later, the key is
/// itself. Times are the caller's milliseconds (the run loop's monotonic clock).
@Suite struct EscapePrefixTests {
    static let esc: UInt8 = 0x1B
    static let window = KeyDecoder.escapePrefixWindow
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Esc, the sequence timeout at 40 ms, then `u` at `delay` ms after it.
    static func escThenU(after delay: Int) -> [InputEvent] {
        var d = KeyDecoder()
        var events = d.feed([esc], at: 0)
        events += d.flushTimeout(at: 40)
        events += d.feed(bytes("u"), at: 40 + delay)
        return events
    }

    @Test func theWindowIsDocumentedValue() {
        #expect(Self.window == 500)
    }

    @Test(arguments: [0, 1, 150, 300, 499, 500])
    func aKeyWithinTheWindowTakesThePrefix(delay: Int) {
        #expect(Self.escThenU(after: delay) == [.key(.escape), .key(.alt(.char("u")))])
    }

    @Test(arguments: [501, 600, 2_000, 60_000])
    func aKeyAfterTheWindowIsItself(delay: Int) {
        #expect(Self.escThenU(after: delay) == [.key(.escape), .key(.char("u"))])
    }

    /// Esc and `u` in one read, or split across reads with no timeout between: Alt-u, as
    /// before (what a Meta key sends), whatever the times.
    @Test func escAndKeyTogetherAreAltWhateverTheSplit() {
        var d = KeyDecoder()
        #expect(d.feed([Self.esc, 0x75], at: 0) == [.key(.alt(.char("u")))])
        #expect(!d.isEscapeArmed)
        #expect(d.feed([Self.esc], at: 1_000) == [])
        #expect(d.feed(Self.bytes("u"), at: 1_010) == [.key(.alt(.char("u")))])
        #expect(!d.isEscapeArmed)
    }

    /// Only the next key takes the prefix: `uv` typed after Esc is Esc-u then v.
    @Test func onlyTheNextKeyTakesIt() {
        var d = KeyDecoder()
        _ = d.feed([Self.esc], at: 0)
        #expect(d.flushTimeout(at: 40) == [.key(.escape)])
        #expect(d.isEscapeArmed)
        #expect(d.feed(Self.bytes("uv"), at: 200) == [.key(.alt(.char("u"))), .key(.char("v"))])
        #expect(!d.isEscapeArmed)
        #expect(d.feed(Self.bytes("w"), at: 210) == [.key(.char("w"))])
    }

    /// The next key split across reads (a UTF-8 character, an arrow's sequence) still takes
    /// the prefix, as long as its first bytes came within the window.
    @Test func aSplitNextKeyTakesIt() {
        let wide = Self.bytes("中")
        var d = KeyDecoder()
        _ = d.feed([Self.esc], at: 0)
        _ = d.flushTimeout(at: 40)
        #expect(d.feed([wide[0]], at: 100) == [])
        #expect(d.feed(Array(wide[1...]), at: 110) == [.key(.alt(.char("中")))])
        // Esc, then ← (ESC [ D) cut after its ESC: the arrow's ESC waits, then the rest.
        _ = d.feed([Self.esc], at: 1_000)
        #expect(d.flushTimeout(at: 1_040) == [.key(.escape)])
        #expect(d.feed([Self.esc], at: 1_100) == [])
        #expect(d.feed(Self.bytes("[D"), at: 1_101) == [.key(.alt(.left))])
    }

    /// Esc typed again re-arms from its own time; Meta-x after Esc stays Meta-x.
    @Test func escAgainReArmsAndAltStaysAlt() {
        var d = KeyDecoder()
        _ = d.feed([Self.esc], at: 0)
        #expect(d.flushTimeout(at: 40) == [.key(.escape)])
        _ = d.feed([Self.esc], at: 400)
        #expect(d.flushTimeout(at: 440) == [.key(.escape)])
        #expect(d.feed(Self.bytes("u"), at: 900) == [.key(.alt(.char("u")))], "armed again at 440")
        _ = d.feed([Self.esc], at: 2_000)
        _ = d.flushTimeout(at: 2_040)
        #expect(d.feed([Self.esc, 0x78], at: 2_100) == [.key(.alt(.char("x")))])
        // Two Escapes in one read: the first is decided at once and arms; so does the second.
        #expect(d.feed([Self.esc, Self.esc], at: 5_000) == [.key(.escape)])
        #expect(d.flushTimeout(at: 5_040) == [.key(.escape)])
        #expect(d.feed(Self.bytes("v"), at: 5_100) == [.key(.alt(.char("v")))])
    }

    /// A mouse report or a paste after Esc disarms it; a terminal's reply does not (it is not
    /// the user's).
    @Test func mouseAndPasteDisarmRepliesDoNot() {
        var d = KeyDecoder()
        _ = d.feed([Self.esc], at: 0)
        _ = d.flushTimeout(at: 40)
        #expect(d.feed(Self.bytes("\u{1B}[<64;3;4M"), at: 100) == [.mouse(MouseEvent(kind: .wheelUp, row: 3, column: 2))])
        #expect(d.feed(Self.bytes("u"), at: 110) == [.key(.char("u"))])

        _ = d.feed([Self.esc], at: 1_000)
        _ = d.flushTimeout(at: 1_040)
        #expect(d.feed(Self.bytes("\u{1B}[200~x\u{1B}[201~"), at: 1_100) == [.paste("x")])
        #expect(d.feed(Self.bytes("u"), at: 1_110) == [.key(.char("u"))])

        _ = d.feed([Self.esc], at: 2_000)
        _ = d.flushTimeout(at: 2_040)
        let reply = d.feed(Self.bytes("\u{1B}[?64;1c"), at: 2_100)
        #expect(reply == [.reply(.deviceAttributes)])
        #expect(d.feed(Self.bytes("u"), at: 2_110) == [.key(.alt(.char("u")))])
    }

    /// Calls without a time take the bytes as late: a lone Esc decided by `flushTimeout()`
    /// arms nothing, and `feed(_:)` finds any prefix lapsed.
    @Test func untimedCallsNeverJoin() {
        var d = KeyDecoder()
        _ = d.feed([Self.esc])
        #expect(d.flushTimeout() == [.key(.escape)])
        #expect(!d.isEscapeArmed)
        #expect(d.feed(Self.bytes("u"), at: 0) == [.key(.char("u"))])
        _ = d.feed([Self.esc], at: 0)
        _ = d.flushTimeout(at: 40)
        #expect(d.isEscapeArmed)
        #expect(d.feed(Self.bytes("u")) == [.key(.char("u"))])
    }

    /// Law: with times, how the bytes of one moment are split into reads never changes the
    /// events (the prefix included).
    @Test func splittingAReadChangesNothing() {
        let later = Self.bytes("u\u{1B}[Aq")
        var whole = KeyDecoder()
        _ = whole.feed([Self.esc], at: 0)
        let expected = whole.flushTimeout(at: 40) + whole.feed(later, at: 300) + whole.flushTimeout(at: 340)
        #expect(expected == [.key(.escape), .key(.alt(.char("u"))), .key(.up), .key(.char("q"))])
        for cut in 1..<later.count {
            var d = KeyDecoder()
            _ = d.feed([Self.esc], at: 0)
            let events = d.flushTimeout(at: 40) + d.feed(Array(later[..<cut]), at: 300)
                + d.feed(Array(later[cut...]), at: 300) + d.flushTimeout(at: 340)
            #expect(events == expected, "cut at \(cut)")
        }
    }
}
