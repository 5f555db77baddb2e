@testable import Highlight
import Styling
import Testing
import TestSupport

/// Where a block is cut into pieces (`HighlightBudget.pieces`), checked by its laws on random
/// inputs at small piece sizes.
@Suite struct HighlightPieceTests {
    func pieces(_ text: [UInt8], size: Int) -> [Range<Int>] {
        var budget = HighlightBudget()
        budget.pieceBytes = size
        return text.withUnsafeBufferPointer { budget.pieces($0) }
    }

    @Test(arguments: [4, 5, 8, 13, 32])
    func piecesCoverTheCodeInOrderWithinTheSize(size: Int) {
        var random = SeededRandom(seed: UInt64(size))
        let alphabet: [UInt8] = Array("ab \n\n(".utf8) + [0xC3, 0xA9]  // é's two bytes appear whole below
        for _ in 0..<400 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<120, using: &random) {
                let b = alphabet.randomElement(using: &random)!
                if b == 0xC3 || b == 0xA9 { text += [0xC3, 0xA9] } else { text.append(b) }
            }
            let p = pieces(text, size: size)
            #expect(p.first?.lowerBound == 0)
            #expect(p.last?.upperBound == text.count)
            for (a, b) in zip(p, p.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
            for r in p { #expect(r.count <= size) }
            for r in p.dropLast() {
                #expect(!r.isEmpty)
                // Never inside a character.
                #expect(text[r.upperBound] & 0xC0 != 0x80)
                // At a line end whenever the window held one.
                if text[(r.lowerBound + 1)..<(r.lowerBound + size)].contains(0x0A) { #expect(text[r.upperBound - 1] == 0x0A) }
            }
        }
    }

    @Test func aBlankLineInTheSecondHalfIsPreferredToTheLastLineEnd() {
        // 16-byte pieces: "aaaaaaaaa\n\nbb\ncc\n" has a blank line at 10 and a line end at 13.
        let text = Array("aaaaaaaaa\n\nbb\ncc\ndddd".utf8)
        #expect(pieces(text, size: 16) == [0..<11, 11..<21])
        // A blank line in the first half of the window is not: the last line end is taken.
        let early = Array("a\n\nbbbbbbbbbbb\ncc\ndd".utf8)
        #expect(pieces(early, size: 16) == [0..<15, 15..<20])
    }

    @Test func aBlockWithinTheSizeIsOnePiece() {
        #expect(pieces(Array("x = 1\n\ny = 2\n".utf8), size: 64) == [0..<13])
        #expect(pieces([], size: 64) == [0..<0])
    }

    @Test func nestingIsCountedOnUnclosedBrackets() {
        var budget = HighlightBudget()
        budget.nesting = 3
        func deep(_ s: String) -> Bool { Array(s.utf8).withUnsafeBufferPointer { budget.tooDeep($0) } }
        #expect(!deep("((()))[[[]]]{{{}}}"))
        #expect(deep("(([{"))
        #expect(!deep("()()()()()()()()"))
        #expect(!deep(")))))((("))  // closers with nothing open do not go below zero
        #expect(deep(")))))(((("))
    }
}

/// Code that crashed or froze folio (issue 31's attack: 96 KB blocks of one pattern), through
/// every bound. Each must come back, with valid runs; where the cause is the nesting bound,
/// the note says so. (Times are not asserted: the bounds are, by what the result says.)
@Suite(.enabled(if: TestGrammars.available, "grammars not built: run `make grammars`"))
struct HighlightCrasherTests {
    static let crashers: [(language: String, pattern: String, nesting: Bool)] = [
        ("python", "(", true),       // munmap_chunk(): invalid pointer in Debian's runtime
        ("javascript", "[", true),   // ~21 s in the query
        ("lua", "{", true),          // froze the pager; q took 7-15 s
        ("swift", "<div>", false),
        ("swift", "#", false),       // one lex skipping characters ran ~19 s past the parse timeout
        ("bash", "\"", false),
        ("yaml", "- ", false),       // scanner state over the runtime's buffer: an assertion
        ("markdown", "- ", false),   // the same, and without any bound in the scanner
        ("rust", "<", false),
        ("ruby", "<div>", false),
    ]

    @Test(arguments: crashers.indices)
    func pathologicalBlocksComeBackWithValidRuns(index: Int) throws {
        let c = Self.crashers[index]
        let code = String(repeating: c.pattern, count: 96_000 / c.pattern.utf8.count)
        let h = try #require(TestGrammars.loader.highlighter().highlight(language: c.language, code: code))
        var end = 0
        for run in h.runs {
            #expect(run.range.lowerBound >= end && run.range.upperBound <= code.utf8.count)
            end = run.range.upperBound
        }
        if c.nesting {
            #expect(h.note == HighlightLimit.nesting(limit: HighlightBudget.standard.nesting).description)
            #expect(h.runs.isEmpty)
        }
    }

    /// A large block of ordinary code is highlighted whole, piece after piece, with no note:
    /// the bounds cost real code nothing.
    @Test func ordinaryCodeLargerThanAPieceIsHighlightedThroughout() throws {
        let unit = "def f(x):\n    return \"s\" # c\n\n"
        let code = String(repeating: unit, count: 3 * HighlightBudget.standard.pieceBytes / unit.utf8.count)
        let h = try #require(TestGrammars.loader.highlighter().highlight(language: "python", code: code))
        #expect(h.note == nil)
        // Every copy of the unit gets the same roles (the cuts fall at the blank lines).
        let roles = TestGrammars.roles(h.runs, in: code).split(separator: "\n", omittingEmptySubsequences: false)
        let first = Array(roles.prefix(3))
        for k in stride(from: 0, to: roles.count - 3, by: 3) { #expect(Array(roles[k..<(k + 3)]) == first) }
        #expect(first[0].hasPrefix("kkk f"))
    }

    /// Over the time limits, a piece is left plain and said so; after `overrunsPerBlock`
    /// such pieces, the rest of the block is plain without being tried.
    @Test func piecesOverTheTimeLimitStayPlain() throws {
        let grammar = try #require(TestGrammars.loader.grammar("python"))
        var budget = HighlightBudget()
        budget.parseMicros = 1  // nothing parses in a microsecond
        budget.pieceBytes = 1024
        let code = String(repeating: "x = [1, 2, 3]\n", count: 400)
        let h = grammar.highlight(code, budget: budget)
        #expect(h.runs.isEmpty)
        #expect(h.note == HighlightLimit.parseTime(milliseconds: 0).description)
    }
}
