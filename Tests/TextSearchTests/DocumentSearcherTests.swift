import Testing
import TextSearch

@Suite struct DocumentSearcherTests {
    let texts = ["alpha tide", "no match here", "tide and tide", "", "last tide"]

    func searcher(_ texts: [String]? = nil) throws -> DocumentSearcher<[String]> {
        DocumentSearcher(pattern: try SearchPattern("tide"), texts: texts ?? self.texts)
    }

    @Test func forwardFindsTheFirstMatchAtOrAfterThePosition() throws {
        let s = try searcher()
        let first = s.find(.forward, from: SearchPosition(textIndex: 0, utf8Offset: 0), wrapAround: false)
        #expect(first == SearchHit(textIndex: 0, range: 6..<10, wrapped: false))
        #expect(s.find(.forward, from: SearchPosition(textIndex: 0, utf8Offset: 6), wrapAround: false) == first)
        #expect(s.find(.forward, from: first!.positionAfter, wrapAround: false)
            == SearchHit(textIndex: 2, range: 0..<4, wrapped: false))
    }

    @Test func steppingForwardVisitsEveryMatchThenWraps() throws {
        let s = try searcher()
        var hits: [SearchHit] = []
        var position = SearchPosition(textIndex: 0, utf8Offset: 0)
        for _ in 0..<5 {
            guard let hit = s.find(.forward, from: position, wrapAround: true) else { break }
            hits.append(hit)
            position = hit.positionAfter
        }
        #expect(hits.map { [$0.textIndex.index, $0.range.lowerBound] } == [[0, 6], [2, 0], [2, 9], [4, 5], [0, 6]])
        #expect(hits.map(\.wrapped) == [false, false, false, false, true])
        #expect(s.find(.forward, from: hits[3].positionAfter, wrapAround: false) == nil)
    }

    @Test func steppingBackwardVisitsTheSameMatchesInReverse() throws {
        let s = try searcher()
        var hits: [SearchHit] = []
        var position = SearchPosition(textIndex: 4, utf8Offset: .max)
        for _ in 0..<5 {
            guard let hit = s.find(.backward, from: position, wrapAround: true) else { break }
            hits.append(hit)
            position = hit.positionBefore
        }
        #expect(hits.map { [$0.textIndex.index, $0.range.lowerBound] } == [[4, 5], [2, 9], [2, 0], [0, 6], [4, 5]])
        #expect(hits.map(\.wrapped) == [false, false, false, false, true])
        #expect(s.find(.backward, from: hits[3].positionBefore, wrapAround: false) == nil)
    }

    @Test func wrapInsideTheStartingText() throws {
        let s = try searcher(["tide x tide"])
        let mid = SearchPosition(textIndex: 0, utf8Offset: 2)
        #expect(s.find(.forward, from: mid, wrapAround: true) == SearchHit(textIndex: 0, range: 7..<11, wrapped: false))
        let afterLast = SearchPosition(textIndex: 0, utf8Offset: 11)
        #expect(s.find(.forward, from: afterLast, wrapAround: true) == SearchHit(textIndex: 0, range: 0..<4, wrapped: true))
        #expect(s.find(.forward, from: afterLast, wrapAround: false) == nil)
        let start = SearchPosition(textIndex: 0, utf8Offset: 0)
        #expect(s.find(.backward, from: start, wrapAround: true) == SearchHit(textIndex: 0, range: 7..<11, wrapped: true))
        #expect(s.find(.backward, from: start, wrapAround: false) == nil)
    }

    @Test func theOnlyMatchWrapsToItself() throws {
        let s = try searcher(["a", "one tide", "b"])
        let hit = SearchHit(textIndex: 1, range: 4..<8, wrapped: false)
        #expect(s.find(.forward, from: hit.positionAfter, wrapAround: true) == SearchHit(textIndex: 1, range: 4..<8, wrapped: true))
        #expect(s.find(.backward, from: hit.positionBefore, wrapAround: true) == SearchHit(textIndex: 1, range: 4..<8, wrapped: true))
    }

    @Test func nothingMatches() throws {
        let s = try searcher(["a", "b"])
        let start = SearchPosition(textIndex: 0, utf8Offset: 0)
        #expect(s.find(.forward, from: start, wrapAround: true) == nil)
        #expect(s.find(.backward, from: start, wrapAround: true) == nil)
    }

    @Test func emptyTextList() throws {
        let s = try searcher([])
        let start = SearchPosition(textIndex: 0, utf8Offset: 0)
        #expect(s.find(.forward, from: start, wrapAround: true) == nil)
        #expect(s.find(.backward, from: start, wrapAround: true) == nil)
        #expect(s.textIndices() == [])
    }

    @Test func positionsOutsideTheDocumentAreClamped() throws {
        let s = try searcher()
        #expect(s.find(.forward, from: SearchPosition(textIndex: -3, utf8Offset: 5), wrapAround: false)?.textIndex == 0)
        #expect(s.find(.backward, from: SearchPosition(textIndex: 99, utf8Offset: 0), wrapAround: false)?.textIndex == 4)
        #expect(s.find(.forward, from: SearchPosition(textIndex: 99, utf8Offset: 0), wrapAround: false) == nil)
    }

    @Test func filterListsTextsWithAndWithoutMatches() throws {
        let s = try searcher()
        #expect(s.textIndices() == [0, 2, 4])
        #expect(s.textIndices(matching: false) == [1, 3])
    }

    @Test func worksOverALazyMapAndASlice() throws {
        struct Block { var text: String }
        let blocks = texts.map(Block.init)
        let lazy = DocumentSearcher(pattern: try SearchPattern("tide"), texts: blocks.lazy.map(\.text))
        #expect(lazy.textIndices() == [0, 2, 4])
        let slice = DocumentSearcher(pattern: try SearchPattern("tide"), texts: texts[2...])
        #expect(slice.find(.backward, from: SearchPosition(textIndex: 2, utf8Offset: 0), wrapAround: true)
            == SearchHit(textIndex: 4, range: 5..<9, wrapped: true))
    }

    /// A limited search agrees with the full one whenever the limit covers the texts it
    /// would look at, and gives up (never a wrong answer) when it does not: every start,
    /// direction, wrap and limit over a small document.
    @Test func aLimitedSearchAgreesWithTheFullOneOrGivesUp() throws {
        let s = try searcher()
        for wrap in [false, true] {
            for direction in [SearchDirection.forward, .backward] {
                for index in 0..<texts.count {
                    for offset in [0, 3, 7, 100] {
                        let from = SearchPosition(textIndex: TextIndex(index), utf8Offset: offset)
                        let full = s.find(direction, from: from, wrapAround: wrap)
                        for limit in 0...(texts.count + 2) {
                            switch s.find(direction, from: from, wrapAround: wrap, textLimit: limit) {
                            case .found(let hit):
                                #expect(hit == full, "limit \(limit) from \(from)")
                            case .notFound:
                                #expect(full == nil, "limit \(limit) from \(from)")
                            case .gaveUp:
                                #expect(limit <= texts.count + 1, "gave up with \(limit) texts allowed")
                            }
                        }
                        // Enough texts always give the full answer.
                        let enough = s.find(direction, from: from, wrapAround: wrap, textLimit: texts.count + 1)
                        #expect(enough == (full.map { .found($0) } ?? .notFound))
                    }
                }
            }
        }
        // One text allowed: a match further on is not looked for.
        #expect(s.find(.forward, from: SearchPosition(textIndex: 1, utf8Offset: 0), wrapAround: false, textLimit: 1) == .gaveUp)
    }

    /// less's `/!`: the texts without a match, each found as its whole range from its start;
    /// stepping on from a hit (past an empty one) visits each once, both ways, then wraps.
    @Test func nonMatchingVisitsTheTextsWithoutAMatch() throws {
        let s = DocumentSearcher(pattern: try SearchPattern("tide"), texts: texts, nonMatching: true)
        var hits: [SearchHit] = []
        var position = SearchPosition(textIndex: 0, utf8Offset: 0)
        for _ in 0..<3 {
            guard let hit = s.find(.forward, from: position, wrapAround: true) else { break }
            hits.append(hit)
            position = hit.positionAfter
            if hit.range.isEmpty { position.utf8Offset += 1 }
        }
        #expect(hits == [SearchHit(textIndex: 1, range: 0..<13, wrapped: false), SearchHit(textIndex: 3, range: 0..<0, wrapped: false),
                         SearchHit(textIndex: 1, range: 0..<13, wrapped: true)])
        // From inside text 1, forward passes it; backward from inside it finds it.
        #expect(s.find(.forward, from: SearchPosition(textIndex: 1, utf8Offset: 2), wrapAround: false)?.textIndex == 3)
        #expect(s.find(.backward, from: SearchPosition(textIndex: 1, utf8Offset: 2), wrapAround: false)?.textIndex == 1)
        #expect(s.find(.backward, from: SearchPosition(textIndex: 1, utf8Offset: 0), wrapAround: false) == nil)
        // The filter's lists are not inverted twice.
        #expect(s.textIndices() == [0, 2, 4])
        #expect(s.textIndices(matching: false) == [1, 3])
    }
}
