import Testing
import TextBasics
import Threads

@Suite struct SubstringsTests {
    /// Every haystack and needle of up to 5 characters over a small alphabet (with a
    /// two-byte and a four-byte character): the first occurrence is the first index at which the
    /// needle's bytes start, as a naive search over the UTF-8 finds it.
    @Test func firstOccurrenceIsTheNaiveSearchsFirstMatch() {
        let alphabet: [String] = ["a", "b", "é", "👍"]
        func strings(upTo n: Int) -> [String] {
            var all = [""], level = [""]
            for _ in 0..<n {
                level = level.flatMap { s in alphabet.map { s + $0 } }
                all += level
            }
            return all
        }
        let haystacks = strings(upTo: 5), needles = strings(upTo: 3)
        for h in haystacks {
            let hb = Array(h.utf8)
            for n in needles {
                let nb = Array(n.utf8)
                let naive = nb.isEmpty ? 0 : (0...max(0, hb.count - nb.count)).first { i in
                    i + nb.count <= hb.count && Array(hb[i..<(i + nb.count)]) == nb
                }
                let found = h.firstOccurrence(of: n).map { h.utf8.distance(from: h.startIndex, to: $0.lowerBound) }
                #expect(found == naive, "\(n) in \(h)")
                if let r = h.firstOccurrence(of: n) { #expect(String(h[r]) == n) }
                #expect(h.containsText(n) == (naive != nil))
            }
        }
    }

    @Test func aSubstringIsSearchedFromItsOwnStart() {
        let s = "xab-ab"
        let tail = s[s.index(s.startIndex, offsetBy: 3)...]
        let r = tail.firstOccurrence(of: "ab")
        #expect(r.map { s.distance(from: s.startIndex, to: $0.lowerBound) } == 4)
    }

    @Test func replacingAllReplacesLeftToRightWithoutRescanning() {
        #expect("aaa".replacingAll("aa", with: "b") == "ba")
        #expect("a'b'".replacingAll("'", with: "'\\''") == "a'\\''b'\\''")
        #expect("abc".replacingAll("", with: "x") == "abc")
        #expect("&amp;lt;".replacingAll("&amp;", with: "&") == "&lt;")
        #expect("".replacingAll("a", with: "b") == "")
    }

    @Test func pathsAreNormalizedByName() {
        #expect(Platform.lexicallyNormalized("/a/b/../c/./d") == "/a/c/d")
        #expect(Platform.lexicallyNormalized("/usr/bin/../lib/folio/grammars") == "/usr/lib/folio/grammars")
        #expect(Platform.lexicallyNormalized("/x/.build/debug/../../.build-grammars") == "/x/.build-grammars")
        #expect(Platform.lexicallyNormalized("/../a//b/") == "/a/b")
        #expect(Platform.lexicallyNormalized("../a/../../b") == "../../b")
        #expect(Platform.lexicallyNormalized("a/..") == ".")
        #expect(Platform.lexicallyNormalized("/") == "/")
    }
}
