import Testing
@testable import ReadingPositions

@Suite struct StableHashTests {
    @Test func fnv1aKnownValues() {
        #expect(StableHash(bytes: []).hex == "cbf29ce484222325")
        #expect(StableHash(bytes: Array("a".utf8)).hex == "af63dc4c8601ec8c")
        #expect(StableHash(bytes: Array("foobar".utf8)).hex == "85944171f73967e8")
    }

    /// Continued over pieces, in order, at any split: the hash of the whole.
    @Test func continuedOverPiecesIsTheWhole() {
        let bytes = Array("the quick brown fox jumps over the lazy dog".utf8)
        for cut in 0...bytes.count {
            let h = bytes[..<cut].withUnsafeBytes { a in
                bytes[cut...].withUnsafeBytes { b in StableHash.empty.continued(with: a).continued(with: b) }
            }
            #expect(h == StableHash(bytes: bytes), "cut \(cut)")
        }
        #expect(StableHash.empty == StableHash(bytes: []))
    }

    @Test func hexRoundTrips() {
        for v: UInt64 in [0, 1, 0xdead_beef, .max] {
            #expect(StableHash(hex: StableHash(rawValue: v).hex) == StableHash(rawValue: v))
        }
        #expect(StableHash(hex: "xyz") == nil)
        #expect(StableHash(hex: "1234") == nil)
    }

    @Test func fingerprintIgnoresWhitespaceRuns() {
        #expect(StableHash.fingerprint(of: "  one\ttwo \n three ") == StableHash.fingerprint(of: "one two three"))
        #expect(StableHash.fingerprint(of: "one two") != StableHash.fingerprint(of: "onetwo"))
    }

    /// The ASCII shortcut must give exactly the persisted values of the general rule (hash of
    /// the Character-based normalisation), or saved positions would stop matching.
    @Test func asciiFingerprintEqualsTheGeneralRule() {
        var state: UInt64 = 0x5eed
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let pieces = ["a", "Word", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "x.y", "\u{7F}", "#", "é", "\u{A0}", "\u{3000}", " \u{301}"]
        for _ in 0..<5000 {
            let text = (0..<Int(next() % 9)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            var characterRule = ""
            var pending = false
            for ch in text {
                if ch.isWhitespace { pending = !characterRule.isEmpty } else {
                    if pending { characterRule.append(" "); pending = false }
                    characterRule.append(ch)
                }
            }
            #expect(StableHash.normalized(text) == characterRule, "\(text.debugDescription)")
            let general = StableHash(bytes: characterRule.utf8)
            #expect(StableHash.fingerprint(of: text) == general, "\(text.debugDescription)")
        }
        #expect(StableHash.fingerprint(of: "  Press q \t to\nquit. ") == StableHash(bytes: Array("Press q to quit.".utf8)))
    }
}
