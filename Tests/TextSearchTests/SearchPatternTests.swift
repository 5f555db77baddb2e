import CPCRE2
import Testing
@testable import TextSearch

/// The matched substrings, for readable expectations.
private func found(_ pattern: String, in text: String, options: SearchOptions = SearchOptions()) throws -> [String] {
    let p = try SearchPattern(pattern, options: options)
    let bytes = Array(text.utf8)
    return p.matches(in: text).map { String(decoding: bytes[$0], as: UTF8.self) }
}

@Suite struct SearchPatternTests {
    @Test func regexIsTheDefault() throws {
        #expect(try found("a.c", in: "abc a.c") == ["abc", "a.c"])
    }

    @Test func literalModeTakesCharactersAsThemselves() throws {
        let literal = SearchOptions(mode: .literal)
        #expect(try found("a.c", in: "abc", options: literal) == [])
        #expect(try found("a.c", in: "abc a.c", options: literal) == ["a.c"])
        #expect(try found("(x", in: "f(x)", options: literal) == ["(x"])
        #expect(try found("\\d+", in: "12 \\d+", options: literal) == ["\\d+"])
    }

    @Test func smartCaseIsInsensitiveForLowerCasePatterns() throws {
        #expect(try found("tide", in: "Tide TIDE tide") == ["Tide", "TIDE", "tide"])
        #expect(try found("Tide", in: "Tide TIDE tide") == ["Tide"])
        #expect(try SearchPattern("tide").isCaseSensitive == false)
        #expect(try SearchPattern("Tide").isCaseSensitive == true)
    }

    @Test func smartCaseIgnoresEscapes() throws {
        #expect(try found("\\S+ide", in: "Tide TIDE") == ["Tide", "TIDE"])
        #expect(try SearchPattern("\\W\\D\\p{Lu}\\x{C9}").isCaseSensitive == false)
        #expect(try SearchPattern("(?<Year>\\d+)\\k<Year>").isCaseSensitive == false)
        #expect(try SearchPattern("(*UCP)a(?U)b").isCaseSensitive == false)
        #expect(try SearchPattern("[[:alpha:]]x").isCaseSensitive == false)
        #expect(try SearchPattern("\\QA\\E").isCaseSensitive == true)
        #expect(try SearchPattern("\\SX").isCaseSensitive == true)
        #expect(try SearchPattern("É").isCaseSensitive == true)
    }

    @Test func smartCaseInLiteralModeCountsEveryUpperCaseLetter() throws {
        let literal = SearchOptions(mode: .literal)
        #expect(try SearchPattern("\\S", options: literal).isCaseSensitive == true)
        #expect(try found("\\s", in: "\\S \\s", options: literal) == ["\\S", "\\s"])
    }

    @Test func insensitiveAndSensitiveOverrideSmartCase() throws {
        let insensitive = SearchOptions(caseSensitivity: .insensitive)
        let sensitive = SearchOptions(caseSensitivity: .sensitive)
        #expect(try found("Tide", in: "Tide TIDE tide", options: insensitive) == ["Tide", "TIDE", "tide"])
        #expect(try found("tide", in: "Tide TIDE tide", options: sensitive) == ["tide"])
    }

    @Test(arguments: [SearchMode.regex, .literal])
    func caseInsensitiveMatchingFoldsNonASCII(mode: SearchMode) throws {
        let options = SearchOptions(mode: mode, caseSensitivity: .insensitive)
        #expect(try found("é", in: "É é e", options: options) == ["É", "é"])
        #expect(try found("straße", in: "STRASSE Straße", options: options) == ["Straße"])
        #expect(try found("σ", in: "Σ σ ς", options: options).count >= 2)
        #expect(try found("café", in: "CAFÉ", options: SearchOptions(mode: mode)) == ["CAFÉ"])
    }

    @Test func wordClassesKnowNonASCIILetters() throws {
        #expect(try found("\\w+", in: "naïve 日本語 🇯🇵!") == ["naïve", "日本語"])
        #expect(try found("\\bé\\w*", in: "été, déjà") == ["été"])
    }

    @Test func invalidPatternsThrowOneLineMessages() {
        #expect(throws: SearchError.invalidPattern(reason: "missing closing parenthesis", offset: 3)) {
            try SearchPattern("(ab")
        }
        for bad in ["[a-", "a{2,1}", "*x", "(?<n", "\\", "a)"] {
            do {
                _ = try SearchPattern(bad)
                Issue.record("\(bad) compiled")
            } catch {
                #expect(error.description.hasPrefix("Invalid pattern: "))
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(SearchError.invalidPattern(reason: "missing closing parenthesis", offset: 3).description
            == "Invalid pattern: missing closing parenthesis at offset 3")
    }

    @Test func emptyPatternIsRefused() {
        #expect(throws: SearchError.emptyPattern) { try SearchPattern("") }
        #expect(throws: SearchError.emptyPattern) { try SearchPattern("", options: SearchOptions(mode: .literal)) }
    }

    @Test func offsetsAreUTF8Bytes() throws {
        let text = "日本 tide 👨‍👩‍👧 tide é"
        let p = try SearchPattern("tide")
        let ranges = p.matches(in: text)
        let jp = "日本 ".utf8.count  // 7
        let second = "日本 tide 👨‍👩‍👧 ".utf8.count
        #expect(ranges == [jp..<(jp + 4), second..<(second + 4)])
        #expect(p.firstMatch(in: text, from: jp + 1) == second..<(second + 4))
        #expect(p.lastMatch(in: text) == second..<(second + 4))
        #expect(p.lastMatch(in: text, before: second) == jp..<(jp + 4))
        #expect(p.lastMatch(in: text, before: jp) == nil)
    }

    @Test func matchesNeverSplitAUTF8Sequence() throws {
        let text = "a日b👍🏽c❤️d"
        let dot = try SearchPattern(".")
        let pieces = dot.matches(in: text).map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
        #expect(pieces.joined() == text)
        #expect(pieces.allSatisfy { $0.unicodeScalars.count == 1 })
        // An offset inside a sequence is rounded up to the next scalar.
        #expect(dot.firstMatch(in: "日x", from: 1) == 3..<4)
    }

    @Test func matchesAcrossANewlineInsideOneText() throws {
        let text = "| a | b |\n| end of row\nstart of next |"
        #expect(try found("row\\s+start", in: text) == ["row\nstart"])
        #expect(try found("row\\nstart", in: text) == ["row\nstart"])
        #expect(try found("^\\| \\w", in: text) == ["| a", "| e"])  // ^ at each line start
        #expect(try found("row.start", in: text) == [])  // . stops at a line break, as in less
    }

    @Test func emptyMatchesAreSkipped() throws {
        #expect(try found("x*", in: "axxbx") == ["xx", "x"])
        #expect(try found("\\b", in: "word") == [])
        #expect(try found("a|", in: "bab") == ["a"])
        #expect(try found("(?=a)", in: "aaa") == [])
    }

    @Test func emptyText() throws {
        let p = try SearchPattern("a")
        #expect(p.matches(in: "") == [])
        #expect(p.firstMatch(in: "") == nil)
        #expect(p.lastMatch(in: "") == nil)
        #expect(p.matches(in: "aa", from: 99) == [])
    }

    @Test func lookbehindSeesTextBeforeTheStartOffset() throws {
        let p = try SearchPattern("(?<=x)a")
        #expect(p.firstMatch(in: "xa", from: 1) == 1..<2)
    }

    @Test func textWithNULBytes() throws {
        #expect(try found("b", in: "a\u{0}b") == ["b"])
    }

    /// The JIT compiler is used wherever the PCRE2 library has one; the interpreter is only
    /// the fallback.
    @Test func jitIsUsedWhenAvailable() throws {
        var available: UInt32 = 0
        #expect(pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available) >= 0)
        #expect(try SearchPattern("tide").isJITCompiled == (available == 1))
    }

    @Test func patternIsSendable() async throws {
        let p = try SearchPattern("ti.e")
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { p.countMatches(in: String(repeating: "tide tile ", count: 500)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1000, count: 8))
    }
}
