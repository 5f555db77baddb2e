import TestSupport
import Testing
import TextSearch

private typealias SplitMix64 = SeededRandom

/// Non-overlapping occurrences of `needle` in `haystack`, left to right, by bytes.
private func bruteForce(_ needle: [UInt8], in haystack: [UInt8]) -> [Int] {
    var result: [Int] = []
    var i = 0
    while i + needle.count <= haystack.count {
        if Array(haystack[i..<(i + needle.count)]) == needle {
            result.append(i)
            i += needle.count
        } else {
            i += 1
        }
    }
    return result
}

@Suite struct MatchCounterTests {
    @Test func countsAllMatchesInSmallSteps() throws {
        let texts = ["tide", "", "tide tide", "none", "tide"]
        var counter = MatchCounter(pattern: try SearchPattern("tide"), texts: texts)
        var steps = 0
        while !counter.advance(budget: 2) { steps += 1 }
        #expect(steps == 2)
        #expect(counter.total == 4)
        #expect(counter.matchingTextIndices == [0, 2, 4])
        #expect(counter.isDone)
        #expect(counter.ordinal == nil)
    }

    @Test func ordinalIsKnownOnceTheTargetTextIsCounted() throws {
        let texts = ["tide", "tide tide", "x", "tide"]
        let target = SearchPosition(textIndex: 1, utf8Offset: 5)
        var counter = MatchCounter(pattern: try SearchPattern("tide"), texts: texts, target: target)
        counter.advance(budget: 1)
        #expect(counter.ordinal == nil)
        counter.advance(budget: 1)
        #expect(counter.ordinal == 3)
        #expect(!counter.isDone)
        counter.advance(budget: 100)
        #expect(counter.total == 4 && counter.ordinal == 3)
    }

    @Test func emptyDocument() throws {
        var counter = MatchCounter(pattern: try SearchPattern("a"), texts: [String](),
                                   target: SearchPosition(textIndex: 0, utf8Offset: 0))
        #expect(counter.isDone)
        let done = counter.advance(budget: 10)
        #expect(done)
        #expect(counter.total == 0 && counter.ordinal == 1)
    }

    @Test(arguments: 0..<20)
    func agreesWithABruteForceCountOnRandomTexts(seed: Int) throws {
        var rng = SplitMix64(state: UInt64(seed))
        let alphabet = ["a", "b", "ab", " ", "\n", "é", "日", "👍🏽"]
        let texts = (0..<Int.random(in: 0...30, using: &rng)).map { _ in
            (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
        }
        let needle = ["ab", "aba", "a", "b日", "ba"].randomElement(using: &rng)!
        let pattern = try SearchPattern(needle, options: SearchOptions(mode: .literal, caseSensitivity: .sensitive))

        // Every match in document order, by brute force.
        let all: [SearchPosition] = texts.enumerated().flatMap { index, text in
            bruteForce(Array(needle.utf8), in: Array(text.utf8)).map { SearchPosition(textIndex: TextIndex(index), utf8Offset: $0) }
        }
        for (index, text) in texts.enumerated() {
            #expect(pattern.matches(in: text).map(\.lowerBound)
                == all.filter { $0.textIndex.index == index }.map(\.utf8Offset))
        }
        let targets = all.isEmpty ? [SearchPosition(textIndex: 0, utf8Offset: 0)] : all
        for (expectedOrdinal, target) in targets.enumerated() {
            var counter = MatchCounter(pattern: pattern, texts: texts, target: target)
            let budget = Int.random(in: 1...5, using: &rng)
            while !counter.advance(budget: budget) {}
            #expect(counter.total == all.count)
            #expect(counter.ordinal == expectedOrdinal + 1)
        }
        // Stepping with the searcher visits the same matches, in order.
        let searcher = DocumentSearcher(pattern: pattern, texts: texts)
        var visited: [SearchPosition] = []
        var position = SearchPosition(textIndex: 0, utf8Offset: 0)
        while let hit = searcher.find(.forward, from: position, wrapAround: false) {
            visited.append(hit.positionBefore)
            position = hit.positionAfter
        }
        #expect(visited == all)
    }

    @Test(arguments: 0..<10)
    func regexCountMatchesPerTextMatches(seed: Int) throws {
        var rng = SplitMix64(state: UInt64(seed) &+ 1000)
        let alphabet = ["A", "b", "É", "é", " ", "\n", "x"]
        let texts = (0..<20).map { _ in
            (0..<Int.random(in: 0...30, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
        }
        let pattern = try SearchPattern("[aé]+b?")
        var counter = MatchCounter(pattern: pattern, texts: texts)
        while !counter.advance(budget: 3) {}
        #expect(counter.total == texts.map { pattern.matches(in: $0).count }.reduce(0, +))
        #expect(counter.matchingTextIndices == texts.indices.filter { pattern.hasMatch(in: texts[$0]) }.map { TextIndex($0) })
    }
}
