/// Counts the matches in a document a few texts at a time, so a pager can show "3/14" on a
/// 20 MB document without freezing the screen: call `advance(budget:)` between frames until
/// it returns true.
///
/// Alongside the total it finds the ordinal of `target` (normally the current hit's start):
/// `1 + the number of matches that start before it`. When `target` is itself a match start
/// this is its 1-based position among all matches; otherwise it is the ordinal of the next
/// match after it. The ordinal is known as soon as the target's text has been counted, often
/// long before the total.
///
/// Counts the same matches as `SearchPattern.matches(in:)` and `DocumentSearcher` steps
/// through. It also records which texts contain a match (less's `&pattern` filter).
public struct MatchCounter<Texts: RandomAccessCollection> where Texts.Element: UTF8Text, Texts.Index == Int {
    public let pattern: SearchPattern
    public let texts: Texts
    public let target: SearchPosition?

    /// Matches counted so far; the final total once `isDone`.
    public private(set) var total = 0
    /// Indices of the texts counted so far that contain at least one match, ascending.
    public private(set) var matchingTextIndices: [TextIndex] = []
    /// The next text to count.
    public var nextTextIndex: TextIndex { TextIndex(next) }
    private var next: Int
    private var matchesBeforeTarget = 0

    public init(pattern: SearchPattern, texts: Texts, target: SearchPosition? = nil) {
        self.pattern = pattern
        self.texts = texts
        self.target = target
        self.next = texts.startIndex
    }

    public var isDone: Bool { next >= texts.endIndex }

    /// `1 + matches before target`, once every text up to the target's has been counted;
    /// nil before that or without a target.
    public var ordinal: Int? {
        guard let target else { return nil }
        guard isDone || nextTextIndex > target.textIndex else { return nil }
        return matchesBeforeTarget + 1
    }

    /// Counts up to `budget` more texts (at least one). Returns true when counting is done.
    /// The cost is per text: a single huge text is counted in one step.
    @discardableResult
    public mutating func advance(budget: Int) -> Bool {
        guard !isDone else { return true }
        let scratch = MatchScratch()
        let end = min(texts.endIndex, next + max(1, budget))
        for index in next..<end {
            let (count, before) = texts[index].withUTF8Bytes { bytes in
                countMatches(in: bytes, textIndex: index, scratch: scratch)
            }
            total += count
            matchesBeforeTarget += before
            if count > 0 { matchingTextIndices.append(TextIndex(index)) }
        }
        next = end
        return isDone
    }

    /// Matches in one text, and how many of them come before the target.
    private func countMatches(
        in bytes: UnsafeBufferPointer<UInt8>, textIndex: Int, scratch: MatchScratch
    ) -> (count: Int, beforeTarget: Int) {
        var count = 0
        var before = 0
        pattern.forEachMatch(in: bytes, from: 0, scratch: scratch) { match in
            count += 1
            if let target,
               textIndex < target.textIndex.index
                || (textIndex == target.textIndex.index && match.lowerBound < target.utf8Offset) {
                before += 1
            }
            return true
        }
        return (count, before)
    }
}

extension MatchCounter: Sendable where Texts: Sendable {}
