import TestSupport
import Testing
@testable import TerminalScreen

@Suite struct KeyDecoderTests {
    /// Raw bytes of every key folio cares about, with the event each must decode to.
    static let table: [(String, [UInt8], Key)] = {
        let e: UInt8 = 0x1B
        func s(_ text: String) -> [UInt8] { Array(text.utf8) }
        var t: [(String, [UInt8], Key)] = [
            ("a", s("a"), .char("a")), ("G", s("G"), .char("G")), ("space", s(" "), .char(" ")),
            ("é", s("é"), .char("é")), ("中", s("中"), .char("中")), ("😀", s("😀"), .char("😀")),
            ("CR", [0x0D], .enter), ("LF", [0x0A], .enter), ("DEL", [0x7F], .backspace), ("BS", [0x08], .backspace),
            ("tab", [0x09], .tab), ("C-f", [0x06], .ctrl("f")), ("C-b", [0x02], .ctrl("b")), ("C-c", [0x03], .ctrl("c")),
            ("C-z", [0x1A], .ctrl("z")), ("C-@", [0x00], .ctrl("@")), ("C-\\", [0x1C], .ctrl("\\")),
            ("C-]", [0x1D], .ctrl("]")), ("C-^", [0x1E], .ctrl("^")), ("C-_", [0x1F], .ctrl("_")),
            ("up", [e] + s("[A"), .up), ("down", [e] + s("[B"), .down), ("right", [e] + s("[C"), .right),
            ("left", [e] + s("[D"), .left), ("SS3 up", [e] + s("OA"), .up), ("SS3 left", [e] + s("OD"), .left),
            ("home H", [e] + s("[H"), .home), ("end F", [e] + s("[F"), .end),
            ("home 1~", [e] + s("[1~"), .home), ("end 4~", [e] + s("[4~"), .end),
            ("home 7~", [e] + s("[7~"), .home), ("end 8~", [e] + s("[8~"), .end),
            ("home OH", [e] + s("OH"), .home), ("end OF", [e] + s("OF"), .end),
            ("pgup", [e] + s("[5~"), .pageUp), ("pgdn", [e] + s("[6~"), .pageDown),
            ("ins", [e] + s("[2~"), .insert), ("del", [e] + s("[3~"), .delete),
            ("S-Tab", [e] + s("[Z"), .backTab),
            ("A-Left", [e] + s("[1;3D"), .alt(.left)), ("C-Right", [e] + s("[1;5C"), .modified(.right, .ctrl)),
            ("S-Up", [e] + s("[1;2A"), .modified(.up, .shift)),
            ("C-A-Left", [e] + s("[1;7D"), .alt(.modified(.left, .ctrl))),
            ("C-Del", [e] + s("[3;5~"), .modified(.delete, .ctrl)),
            ("A-x", [e] + s("x"), .alt(.char("x"))), ("A-C-f", [e, 0x06], .alt(.ctrl("f"))),
            ("A-BS", [e, 0x7F], .alt(.backspace)), ("A-é", [e] + s("é"), .alt(.char("é"))),
            ("keypad enter", [e] + s("OM"), .enter), ("linux F1", [e] + s("[[A"), .function(1)),
        ]
        for (n, seq) in zip(1...4, ["OP", "OQ", "OR", "OS"]) { t.append(("F\(n)", [e] + s(seq), .function(n))) }
        for (n, code) in zip(5...12, [15, 17, 18, 19, 20, 21, 23, 24]) { t.append(("F\(n)", [e] + s("[\(code)~"), .function(n))) }
        t.append(("C-F5", [e] + s("[15;5~"), .modified(.function(5), .ctrl)))
        t.append(("S-F1", [e] + s("[1;2P"), .modified(.function(1), .shift)))
        return t
    }()

    static func decodeAll(_ chunks: [[UInt8]]) -> [InputEvent] {
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        for chunk in chunks { events += decoder.feed(chunk) }
        events += decoder.flushTimeout()
        #expect(!decoder.hasPending)
        return events
    }

    @Test(arguments: 0..<table.count)
    func everyKeyWholeAndSplitAtEveryBoundary(index: Int) {
        let (name, bytes, key) = Self.table[index]
        #expect(Self.decodeAll([bytes]) == [.key(key)], "\(name)")
        for cut in 1..<max(1, bytes.count) {
            #expect(Self.decodeAll([Array(bytes[..<cut]), Array(bytes[cut...])]) == [.key(key)], "\(name) cut at \(cut)")
        }
        #expect(Self.decodeAll(bytes.map { [$0] }) == [.key(key)], "\(name) byte by byte")
    }

    @Test func allKeysInOneStreamSplitAtEveryBoundary() {
        let stream = Self.table.flatMap(\.1)
        let expected = Self.table.map { InputEvent.key($0.2) }
        #expect(Self.decodeAll([stream]) == expected)
        for cut in 1..<stream.count {
            #expect(Self.decodeAll([Array(stream[..<cut]), Array(stream[cut...])]) == expected, "cut at \(cut)")
        }
    }

    @Test func loneEscapeNeedsTheTimeout() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushTimeout() == [.key(.escape)])
        #expect(!decoder.hasPending)
        // ESC then x in a later read, no timeout in between: Alt-x.
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed([0x78]) == [.key(.alt(.char("x")))])
        // ESC, timeout, x: Escape then x.
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flushTimeout() == [.key(.escape)])
        #expect(decoder.feed([0x78]) == [.key(.char("x"))])
        // Two escapes in one read are two Escapes.
        #expect(decoder.feed([0x1B, 0x1B]) == [.key(.escape)])
        #expect(decoder.flushTimeout() == [.key(.escape)])
    }

    @Test func timeoutInsideSequencesGivesAltAndText() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.flushTimeout() == [.key(.alt(.char("[")))])
        #expect(decoder.feed(Array("\u{1B}O".utf8)) == [])
        #expect(decoder.flushTimeout() == [.key(.alt(.char("O")))])
        #expect(decoder.feed(Array("\u{1B}[1;".utf8)) == [])
        #expect(decoder.flushTimeout() == [.key(.alt(.char("["))), .key(.char("1")), .key(.char(";"))])
    }

    @Test func splitUTF8WaitsForItsTail() {
        var decoder = KeyDecoder()
        let bytes = Array("中".utf8)
        #expect(decoder.feed([bytes[0]]) == [])
        #expect(decoder.hasPending && !decoder.hasPendingEscape)
        #expect(decoder.feed([bytes[1]]) == [])
        #expect(decoder.feed([bytes[2]]) == [.key(.char("中"))])
        #expect(decoder.feed([bytes[0]]) == [])
        #expect(decoder.flushTimeout() == [.key(.char("\u{FFFD}"))])
    }

    @Test func invalidUTF8BecomesReplacement() {
        #expect(Self.decodeAll([[0xFF, 0x61]]) == [.key(.char("\u{FFFD}")), .key(.char("a"))])
        #expect(Self.decodeAll([[0xE4, 0x61]]) == [.key(.char("\u{FFFD}")), .key(.char("a"))])
        #expect(Self.decodeAll([[0xC0, 0x80]]) == [.key(.char("\u{FFFD}")), .key(.char("\u{FFFD}"))])
        #expect(Self.decodeAll([[0xED, 0xA0, 0x80]]).count == 3)  // surrogates are invalid
        #expect(Self.decodeAll([[0xC2, 0x85]]) == [.key(.char("\u{FFFD}"))])  // C1 control
    }

    @Test func sgrMouse() {
        func mouse(_ s: String) -> [InputEvent] { Self.decodeAll([Array(("\u{1B}[<" + s).utf8)]) }
        #expect(mouse("0;10;5M") == [.mouse(MouseEvent(kind: .press(.left), row: 4, column: 9))])
        #expect(mouse("0;10;5m") == [.mouse(MouseEvent(kind: .release(.left), row: 4, column: 9))])
        #expect(mouse("2;1;1M") == [.mouse(MouseEvent(kind: .press(.right), row: 0, column: 0))])
        #expect(mouse("32;3;4M") == [.mouse(MouseEvent(kind: .drag(.left), row: 3, column: 2))])
        #expect(mouse("64;3;4M") == [.mouse(MouseEvent(kind: .wheelUp, row: 3, column: 2))])
        #expect(mouse("65;3;4M") == [.mouse(MouseEvent(kind: .wheelDown, row: 3, column: 2))])
        #expect(mouse("20;3;4M") == [.mouse(MouseEvent(kind: .press(.left), row: 3, column: 2, modifiers: [.shift, .ctrl]))])
        #expect(mouse("8;300;200M") == [.mouse(MouseEvent(kind: .press(.left), row: 199, column: 299, modifiers: .alt))])
        #expect(mouse("0;0;0M") == [.mouse(MouseEvent(kind: .press(.left), row: 0, column: 0))])
        #expect(mouse("0;1M") == [])  // malformed: dropped
    }

    @Test func x10Mouse() {
        let bytes: [UInt8] = [0x1B, 0x5B, 0x4D, 32 + 0, 32 + 10, 32 + 5, 0x1B, 0x5B, 0x4D, 32 + 3, 33, 33]
        #expect(Self.decodeAll([bytes]) == [
            .mouse(MouseEvent(kind: .press(.left), row: 4, column: 9)),
            .mouse(MouseEvent(kind: .release(nil), row: 0, column: 0)),
        ])
    }

    @Test func bracketedPaste() {
        let bytes = Array("x\u{1B}[200~hello\n\u{1B}[Aworld\u{1B}[201~y".utf8)
        let expected: [InputEvent] = [.key(.char("x")), .paste("hello\n\u{1B}[Aworld"), .key(.char("y"))]
        #expect(Self.decodeAll([bytes]) == expected)
        for cut in 1..<bytes.count {
            #expect(Self.decodeAll([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "cut at \(cut)")
        }
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~abc".utf8)) == [])
        #expect(decoder.flushTimeout() == [.paste("abc")])  // an unterminated paste ends at the timeout
    }

    @Test func unknownSequencesAreDropped() {
        #expect(Self.decodeAll([Array("\u{1B}[?1$y\u{1B}[I\u{1B}[99~a".utf8)]) == [.key(.char("a"))])
        // DA1 is a reply, never a key (TerminalReplyTests).
        #expect(Self.decodeAll([Array("\u{1B}[?1;2ca".utf8)]) == [.reply(.deviceAttributes), .key(.char("a"))])
        #expect(Self.decodeAll([Array("\u{1B}[1\u{07}b".utf8)]) == [.key(.ctrl("g")), .key(.char("b"))])
    }

    @Test(arguments: 0..<50)
    func garbageNeverCrashes(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 7 &+ 3)
        var decoder = KeyDecoder()
        let interesting: [UInt8] = [0x1B, 0x5B, 0x4F, 0x3C, 0x3B, 0x4D, 0x6D, 0x7E, 0x32, 0x30, 0xE4, 0xF0, 0x80, 0xBF]
        for _ in 0..<200 {
            let chunk = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            _ = decoder.feed(chunk)
            if Int.random(in: 0..<5, using: &rng) == 0 { _ = decoder.flushTimeout() }
        }
        _ = decoder.flushTimeout()
        #expect(!decoder.hasPending)
    }

    /// Law: for any bytes, how they are split into reads never changes the events.
    @Test(arguments: 0..<100)
    func randomBytesSplitAnywhereDecodeAlike(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &+ 77)
        let interesting: [UInt8] = [0x1B, 0x5B, 0x4F, 0x3C, 0x3B, 0x4D, 0x6D, 0x7E, 0x31, 0x32, 0x30, 0x35, 0xE4, 0xB8, 0xF0, 0x80]
        let bytes = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
            Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
        }
        let whole = Self.decodeAll([bytes])
        var chunks: [[UInt8]] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = Int.random(in: 1...max(1, rest.count), using: &rng)
            chunks.append(Array(rest.prefix(n)))
            rest = rest.dropFirst(n)
        }
        #expect(Self.decodeAll(chunks) == whole, "\(bytes) split as \(chunks.map(\.count))")
        #expect(Self.decodeAll(bytes.map { [$0] }) == whole)
    }

    @Test func largeBurstsDecodeInLinearTime() {
        let text = String(repeating: "abcdefgh中", count: 20_000)
        var decoder = KeyDecoder()
        let events = decoder.feed(Array(text.utf8))
        #expect(events.count == 180_000)
        #expect(!decoder.hasPending)
    }

    @Test func tooLongSequencesAreDroppedAlikeHoweverSplit() {
        let bytes = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 200) + Array("a".utf8)
        let whole = Self.decodeAll([bytes])
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            #expect(Self.decodeAll([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole, "cut at \(cut)")
        }
    }

    @Test func longSequencesAreBounded() {
        let bytes = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 10_000) + Array("a".utf8)
        let events = Self.decodeAll([bytes])
        #expect(events.last == .key(.char("a")))
    }
}
