import Testing
@testable import ReadingPositions

@Suite struct StableHashTests {
    @Test func fnv1aKnownValues() {
        #expect(StableHash(bytes: []).hex == "cbf29ce484222325")
        #expect(StableHash(bytes: Array("a".utf8)).hex == "af63dc4c8601ec8c")
        #expect(StableHash(bytes: Array("foobar".utf8)).hex == "85944171f73967e8")
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
}
