import Testing
import KeyNotationSupport
@testable import TerminalScreen

@Suite struct KeyNotationTests {
    @Test func parsesTheExample() throws {
        let keys = try KeyNotation.parse("3<Space>G<C-b>/foo<CR><Esc><A-v><PageDown><S-Tab><Up><BS><Tab><lt>")
        #expect(keys == [
            .char("3"), .char(" "), .char("G"), .ctrl("b"), .char("/"), .char("f"), .char("o"), .char("o"),
            .enter, .escape, .alt(.char("v")), .pageDown, .backTab, .up, .backspace, .tab, .char("<"),
        ])
    }

    @Test func modifiersAndNames() throws {
        #expect(try KeyNotation.parse("<C-Right><A-Left><S-Up><C-A-x><M-x><S-a><F5><pgdn><del><A-->") == [
            .modified(.right, .ctrl), .alt(.left), .modified(.up, .shift), .alt(.ctrl("x")), .alt(.char("x")),
            .char("A"), .function(5), .pageDown, .delete, .alt(.char("-")),
        ])
        #expect(try KeyNotation.parse("<C-Space><c-@><Bar><Bslash><gt>") == [.ctrl("@"), .ctrl("@"), .char("|"), .char("\\"), .char(">")])
    }

    @Test func errorsAreLoud() {
        #expect(throws: KeyNotation.ParseError.self) { try KeyNotation.parse("<PgDown>") }
        #expect(throws: KeyNotation.ParseError.self) { try KeyNotation.parse("a<b") }
        #expect(throws: KeyNotation.ParseError.self) { try KeyNotation.parse("<C-1>") }
        #expect(throws: KeyNotation.ParseError.self) { try KeyNotation.parse("<>") }
    }

    static let keys: [Key] = [
        .char("a"), .char("Z"), .char(" "), .char("<"), .char(">"), .char("é"), .char("中"), .ctrl("f"), .ctrl("z"),
        .ctrl("\\"), .ctrl("]"), .ctrl("^"), .ctrl("_"), .ctrl("@"), .alt(.char("v")), .alt(.char("<")), .alt(.ctrl("b")),
        .alt(.backspace), .alt(.enter), .alt(.tab),
        .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .backspace, .enter, .tab,
        .backTab, .escape, .alt(.left), .alt(.pageDown), .modified(.right, .ctrl), .modified(.up, .shift),
        .modified(.home, [.shift, .ctrl]), .alt(.modified(.left, .ctrl)), .modified(.function(5), .ctrl),
    ] + (1...20).map { Key.function($0) }

    /// format → parse is the identity.
    @Test func formatRoundTrips() throws {
        for key in Self.keys {
            #expect(try KeyNotation.parse(KeyNotation.format(key)) == [key], "\(KeyNotation.format(key))")
        }
        #expect(try KeyNotation.parse(KeyNotation.format(Self.keys)) == Self.keys)
    }

    /// encode → decode is the identity for canonical keys (what the decoder produces).
    @Test func encodeDecodeRoundTrips() {
        for key in Self.keys {
            var decoder = KeyDecoder()
            var events = decoder.feed(KeyNotation.encode(key))
            events += decoder.flushTimeout()
            #expect(events == [.key(key)], "\(KeyNotation.format(key)) → \(KeyNotation.encode(key))")
        }
        var decoder = KeyDecoder()
        let events = decoder.feed(KeyNotation.encode(Self.keys.filter { $0 != .escape }))
        #expect(events == Self.keys.filter { $0 != .escape }.map { .key($0) })
    }

    @Test func encodesLikeXterm() throws {
        #expect(KeyNotation.encode(try KeyNotation.parse("<C-f>j<CR>")) == [0x06, 0x6A, 0x0D])
        #expect(KeyNotation.encode(try KeyNotation.parse("<PageDown><F1><F5><A-Left>")) == Array("\u{1B}[6~\u{1B}OP\u{1B}[15~\u{1B}[1;3D".utf8))
    }
}
