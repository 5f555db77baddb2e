import Testing
@testable import TerminalScreen

/// The replies to the graphics query (`--images=auto`): kitty's APC answer, the cell size
/// (`CSI 6 ; h ; w t`), XTVERSION's DCS and DA1's sixel attribute decode as replies, however
/// the bytes are split and whatever keys surround them.
@Suite struct GraphicsReplyTests {
    static let esc: UInt8 = 0x1B
    static func s(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let kittyOK = [esc] + s("_Gi=31;OK") + [esc, 0x5C]
    static let kittyError = [esc] + s("_Gi=31;ENOTSUPPORTED:no graphics") + [esc, 0x5C]
    static let da1Sixel = [esc] + s("[?62;4;22c")
    static let da1Plain = [esc] + s("[?62;22c")
    static let cellSize = [esc] + s("[6;20;10t")
    static let xtversion = [esc] + s("P>|iTerm2 3.5.0") + [esc, 0x5C]

    /// Every split of `bytes` into two reads, and byte by byte, decodes to `expected`.
    func expectEverySplit(_ bytes: [UInt8], _ expected: [InputEvent], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(TerminalReplyTests.decode([bytes]) == expected, sourceLocation: sourceLocation)
        for cut in 1..<bytes.count {
            #expect(TerminalReplyTests.decode([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "cut at \(cut)",
                    sourceLocation: sourceLocation)
        }
        #expect(TerminalReplyTests.decode(bytes.map { [$0] }) == expected, "byte by byte", sourceLocation: sourceLocation)
    }

    @Test func kittysAnswerSplitAtEveryByte() {
        expectEverySplit(Self.kittyOK, [.reply(.kittyGraphics(ok: true))])
        expectEverySplit(Self.kittyError, [.reply(.kittyGraphics(ok: false))])
    }

    @Test func da1SaysSixelBeforeItEndsTheReplies() {
        expectEverySplit(Self.da1Sixel, [.reply(.sixelGraphics), .reply(.deviceAttributes)])
        expectEverySplit(Self.da1Plain, [.reply(.deviceAttributes)])
    }

    /// The whole answer of a kitty terminal to the colour and graphics queries, in one read,
    /// between keys.
    @Test func theWholeAnswerAmongKeys() {
        let answer = Self.s("j") + [Self.esc] + Self.s("]11;rgb:0000/0000/0000") + [Self.esc, 0x5C] + Self.kittyOK + Self.da1Plain + Self.s("k")
        let black = ReplyColor(red: 0, green: 0, blue: 0)
        expectEverySplit(answer, [.key(.char("j")), .reply(.background(black)), .reply(.kittyGraphics(ok: true)),
                                  .reply(.deviceAttributes), .key(.char("k"))])
    }

    /// A slow answer is never decided by the key timeout once `ESC _ G` has come.
    @Test func aSlowAnswerIsNeverKeys() {
        for cut in 3..<Self.kittyOK.count {
            let events = TerminalReplyTests.decode([Array(Self.kittyOK[..<cut]), Array(Self.kittyOK[cut...])], flushBetween: true)
            #expect(events == [.reply(.kittyGraphics(ok: true))], "timeout at \(cut)")
        }
    }

    /// Alt-_ typed by hand is still a key (only `ESC _ G` starts kitty's reply).
    @Test func altUnderscoreIsAKey() {
        #expect(TerminalReplyTests.decode([[Self.esc, 0x5F]]) == [.key(.alt(.char("_")))])
        #expect(TerminalReplyTests.decode([[Self.esc, 0x5F, 0x78]]) == [.key(.alt(.char("_"))), .key(.char("x"))])
    }

    @Test func cellSizeSplitAtEveryByte() {
        expectEverySplit(Self.cellSize, [.reply(.cellSize(width: 10, height: 20))])
        // Other window reports, and a size of 0 (a terminal that does not know), say nothing.
        expectEverySplit([Self.esc] + Self.s("[4;600;800t"), [])
        expectEverySplit([Self.esc] + Self.s("[6;0;0t"), [])
    }

    @Test func terminalNameSplitAtEveryByte() {
        expectEverySplit(Self.xtversion, [.reply(.terminalName("iTerm2 3.5.0"))])
        expectEverySplit([Self.esc] + Self.s("P>|kitty(0.35.2)") + [0x07], [.reply(.terminalName("kitty(0.35.2)"))])
        // Control bytes other than the terminator never reach the name.
        expectEverySplit([Self.esc] + Self.s("P>|foot\u{7F}(1.16)") + [Self.esc, 0x5C], [.reply(.terminalName("foot(1.16)"))])
    }

    /// The whole answer of an iTerm2-like terminal to the graphics questions, between keys.
    @Test func theGraphicsAnswerAmongKeys() {
        let answer = Self.s("j") + Self.cellSize + Self.xtversion + Self.da1Sixel + Self.s("k")
        expectEverySplit(answer, [.key(.char("j")), .reply(.cellSize(width: 10, height: 20)),
                                  .reply(.terminalName("iTerm2 3.5.0")), .reply(.sixelGraphics),
                                  .reply(.deviceAttributes), .key(.char("k"))])
    }

    /// A slow XTVERSION is never decided by the key timeout once `ESC P > |` has come.
    @Test func aSlowNameIsNeverKeys() {
        for cut in 4..<Self.xtversion.count {
            let events = TerminalReplyTests.decode([Array(Self.xtversion[..<cut]), Array(Self.xtversion[cut...])], flushBetween: true)
            #expect(events == [.reply(.terminalName("iTerm2 3.5.0"))], "timeout at \(cut)")
        }
    }

    /// Alt-P typed by hand is still a key, also followed by `>` (only `ESC P > |` starts the reply).
    @Test func altPIsAKey() {
        #expect(TerminalReplyTests.decode([[Self.esc, 0x50]], flushBetween: true) == [.key(.alt(.char("P")))])
        #expect(TerminalReplyTests.decode([[Self.esc, 0x50, 0x78]]) == [.key(.alt(.char("P"))), .key(.char("x"))])
        #expect(TerminalReplyTests.decode([[Self.esc, 0x50, 0x3E, 0x78]]) == [.key(.alt(.char("P"))), .key(.char(">")), .key(.char("x"))])
    }
}
