/// A place in a document made of texts: the index of a text and a UTF-8 byte offset in it.
/// Ordered by text, then offset.
public struct SearchPosition: Sendable, Hashable, Comparable {
    public var textIndex: TextIndex
    public var utf8Offset: Int

    public init(textIndex: TextIndex, utf8Offset: Int) {
        self.textIndex = textIndex
        self.utf8Offset = utf8Offset
    }

    public static func < (a: SearchPosition, b: SearchPosition) -> Bool {
        (a.textIndex, a.utf8Offset) < (b.textIndex, b.utf8Offset)
    }
}

/// A match found in a document: the text it is in, its UTF-8 byte range, and whether the
/// search went past the last (or first) text and started over to find it.
public struct SearchHit: Sendable, Hashable {
    public var textIndex: TextIndex
    public var range: Range<Int>
    public var wrapped: Bool

    public init(textIndex: TextIndex, range: Range<Int>, wrapped: Bool) {
        self.textIndex = textIndex
        self.range = range
        self.wrapped = wrapped
    }

    /// Where to search forward from to find the match after this one (its end).
    public var positionAfter: SearchPosition { SearchPosition(textIndex: textIndex, utf8Offset: range.upperBound) }
    /// Where to search backward from to find the match before this one (its start).
    public var positionBefore: SearchPosition { SearchPosition(textIndex: textIndex, utf8Offset: range.lowerBound) }
}

/// What a search limited to some texts found (`DocumentSearcher.find(_:from:wrapAround:textLimit:)`).
public enum BoundedSearchResult: Sendable, Hashable {
    case found(SearchHit)
    /// The whole search was done: nothing matches.
    case notFound
    /// The texts allowed ran out first.
    case gaveUp
}

public enum SearchDirection: Sendable, Hashable {
    case forward, backward
}

/// Searches an ordered list of texts (for the pager: each leaf block's content text, in
/// document order) for the next or previous match.
///
/// The texts are any random-access collection of UTF-8 texts indexed by `Int` — an array of
/// strings, or a view of the layout's units. Matches never span two texts. Each call makes one PCRE2
/// match-data buffer and reuses it for every text it visits; no text is copied.
public struct DocumentSearcher<Texts: RandomAccessCollection> where Texts.Element: UTF8Text, Texts.Index == Int {
    public let pattern: SearchPattern
    public let texts: Texts
    /// less's `/!pattern` (`^N`): what is found is a text with *no* match, as a "match" over
    /// its whole range (`0..<count`), which starts at offset 0: forward from a position inside
    /// a text, that text is passed (`hit.positionAfter` steps to the next one); backward, it
    /// is found from any offset past its start.
    public let nonMatching: Bool

    public init(pattern: SearchPattern, texts: Texts, nonMatching: Bool = false) {
        self.pattern = pattern
        self.texts = texts
        self.nonMatching = nonMatching
    }

    /// The nearest match from `position` in `direction`.
    ///
    /// - forward: the first match starting at or after `position` (pass `hit.positionAfter`
    ///   to step past a current match);
    /// - backward: the last match starting before `position` (pass `hit.positionBefore`).
    ///
    /// With `wrapAround`, the search continues from the other end of the document up to
    /// `position`, and a hit found there has `wrapped == true`; it can be the current match
    /// itself when it is the only one. Nil when nothing matches. A `position` outside the
    /// texts is clamped to the start or end of the document.
    public func find(_ direction: SearchDirection, from position: SearchPosition, wrapAround: Bool) -> SearchHit? {
        var budget = Int.max
        return find(direction, from: position, wrapAround: wrapAround, budget: &budget)
    }

    /// `find` that looks at no more than `textLimit` texts: `.gaveUp` when they ran out
    /// before the search was done. For work that must not grow with the document, such as
    /// the preview shown while a pattern is typed.
    public func find(_ direction: SearchDirection, from position: SearchPosition, wrapAround: Bool,
                     textLimit: Int) -> BoundedSearchResult {
        var budget = max(0, textLimit)
        if let hit = find(direction, from: position, wrapAround: wrapAround, budget: &budget) { return .found(hit) }
        return budget < 0 ? .gaveUp : .notFound
    }

    /// The search behind both `find`s. Each text looked at costs one from `budget`; when
    /// none is left the search stops, leaving `budget` at -1.
    private func find(_ direction: SearchDirection, from position: SearchPosition, wrapAround: Bool,
                      budget: inout Int) -> SearchHit? {
        guard !texts.isEmpty else { return nil }
        let scratch = MatchScratch()
        let position = clamped(position)
        switch direction {
        case .forward:
            if let hit = forward(from: position, scratch: scratch, budget: &budget) { return hit }
            guard wrapAround else { return nil }
            // Everything before `position`: whole texts, then the head of its own text.
            for index in texts.startIndex..<position.textIndex.index {
                guard spend(&budget) else { return nil }
                if let range = first(in: index, from: 0, scratch: scratch) {
                    return SearchHit(textIndex: TextIndex(index), range: range, wrapped: true)
                }
            }
            guard spend(&budget) else { return nil }
            if let range = first(in: position.textIndex.index, from: 0, scratch: scratch),
               range.lowerBound < position.utf8Offset {
                return SearchHit(textIndex: position.textIndex, range: range, wrapped: true)
            }
            return nil
        case .backward:
            if let hit = backward(from: position, scratch: scratch, budget: &budget) { return hit }
            guard wrapAround else { return nil }
            for index in stride(from: texts.endIndex - 1, to: position.textIndex.index, by: -1) {
                guard spend(&budget) else { return nil }
                if let range = last(in: index, before: .max, scratch: scratch) {
                    return SearchHit(textIndex: TextIndex(index), range: range, wrapped: true)
                }
            }
            guard spend(&budget) else { return nil }
            if let range = last(in: position.textIndex.index, before: .max, scratch: scratch),
               range.lowerBound >= position.utf8Offset {
                return SearchHit(textIndex: position.textIndex, range: range, wrapped: true)
            }
            return nil
        }
    }

    private func spend(_ budget: inout Int) -> Bool {
        guard budget > 0 else { budget = -1; return false }
        if budget != .max { budget -= 1 }
        return true
    }

    /// Indices of the texts that contain a match (`matching: true`) or none (`false`), for
    /// less's `&pattern` / `&!pattern` filter. Scans the whole document; for an incremental
    /// scan use `MatchCounter`, whose `matchingTextIndices` collects the same list.
    public func textIndices(matching: Bool = true) -> [TextIndex] {
        textIndices(in: TextIndex(texts.startIndex)..<TextIndex(texts.endIndex), matching: matching)
    }

    /// `textIndices` among `range` (clamped to the texts).
    public func textIndices(in range: Range<TextIndex>, matching: Bool = true) -> [TextIndex] {
        let scratch = MatchScratch()
        let range = (range.lowerBound.index..<range.upperBound.index).clamped(to: texts.startIndex..<texts.endIndex)
        var found: [TextIndex] = []
        for index in range where (firstMatch(in: index, from: 0, scratch: scratch) != nil) == matching {
            found.append(TextIndex(index))
        }
        return found
    }

    // MARK: - Private

    private func clamped(_ p: SearchPosition) -> SearchPosition {
        if p.textIndex.index < texts.startIndex { return SearchPosition(textIndex: TextIndex(texts.startIndex), utf8Offset: 0) }
        if p.textIndex.index >= texts.endIndex {
            return SearchPosition(textIndex: TextIndex(texts.endIndex - 1), utf8Offset: .max)
        }
        return SearchPosition(textIndex: p.textIndex, utf8Offset: max(0, p.utf8Offset))
    }

    private func forward(from p: SearchPosition, scratch: MatchScratch, budget: inout Int) -> SearchHit? {
        for index in p.textIndex.index..<texts.endIndex {
            guard spend(&budget) else { return nil }
            let offset = index == p.textIndex.index ? p.utf8Offset : 0
            if let range = first(in: index, from: offset, scratch: scratch) {
                return SearchHit(textIndex: TextIndex(index), range: range, wrapped: false)
            }
        }
        return nil
    }

    private func backward(from p: SearchPosition, scratch: MatchScratch, budget: inout Int) -> SearchHit? {
        for index in stride(from: p.textIndex.index, through: texts.startIndex, by: -1) {
            guard spend(&budget) else { return nil }
            let limit = index == p.textIndex.index ? p.utf8Offset : .max
            if let range = last(in: index, before: limit, scratch: scratch) {
                return SearchHit(textIndex: TextIndex(index), range: range, wrapped: false)
            }
        }
        return nil
    }

    /// What the search finds in one text from `offset` on: a match, or with `nonMatching`
    /// the whole text when it has none.
    private func first(in index: Int, from offset: Int, scratch: MatchScratch) -> Range<Int>? {
        guard nonMatching else { return firstMatch(in: index, from: offset, scratch: scratch) }
        guard offset == 0 else { return nil }
        return wholeIfUnmatched(index, scratch: scratch)
    }

    private func last(in index: Int, before offset: Int, scratch: MatchScratch) -> Range<Int>? {
        guard nonMatching else {
            return texts[index].withUTF8Bytes { pattern.lastMatch(in: $0, before: offset, scratch: scratch) }
        }
        guard offset > 0 else { return nil }
        return wholeIfUnmatched(index, scratch: scratch)
    }

    private func firstMatch(in index: Int, from offset: Int, scratch: MatchScratch) -> Range<Int>? {
        texts[index].withUTF8Bytes { bytes in
            offset > bytes.count ? nil : pattern.firstMatch(in: bytes, from: offset, scratch: scratch)
        }
    }

    private func wholeIfUnmatched(_ index: Int, scratch: MatchScratch) -> Range<Int>? {
        texts[index].withUTF8Bytes { bytes in
            pattern.firstMatch(in: bytes, from: 0, scratch: scratch) == nil ? 0..<bytes.count : nil
        }
    }
}

extension DocumentSearcher: Sendable where Texts: Sendable {}
