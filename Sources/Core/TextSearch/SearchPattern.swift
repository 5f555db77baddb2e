// TextSearch: regular-expression and literal search over a document's content text.
//
// Why PCRE2: with JIT it is the only engine that is full-featured (Perl syntax as in less,
// Unicode case folding, lookbehind) and as fast as a naive byte scan. Swift Regex and
// NSRegularExpression were one to two orders of magnitude slower (and NSRegularExpression
// works in UTF-16, so every offset would need converting back to UTF-8); the measurements are
// in docs/benchmarks.md. Counting every match of a common word in a large document is fast
// enough to be spread over frames: `MatchCounter.advance(budget:)` between them.

/// A compiled search pattern. Immutable and `Sendable`: compile once per search, share freely.
///
/// All offsets are **UTF-8 byte offsets** into the text searched. Matching is Unicode-aware
/// (PCRE2 with UTF and UCP: `\w`, `\b` and case folding know non-ASCII letters), and a match
/// never splits a UTF-8 sequence. It may split a grapheme cluster (the `e` of `e` + U+0301
/// matches `e`); the caller rounds to grapheme boundaries if it needs them.
///
/// Empty matches are never reported: `x*` finds runs of one or more x, and a pattern that can
/// only match the empty string finds nothing. So every match has a visible extent and stepping
/// from one match to the next always makes progress.
public struct SearchPattern: Sendable {
    /// The pattern as the user typed it.
    public let source: String
    public let options: SearchOptions
    /// Whether matching ended up case-sensitive (after resolving `.smart`).
    public let isCaseSensitive: Bool
    let compiled: PCRE2Pattern

    /// Compiles `pattern`. Throws `.emptyPattern` for `""` (a pager repeats the previous search
    /// instead) and `.invalidPattern` with PCRE2's message, e.g.
    /// `Invalid pattern: missing closing parenthesis at offset 3`.
    public init(_ pattern: String, options: SearchOptions = SearchOptions()) throws(SearchError) {
        guard !pattern.isEmpty else { throw .emptyPattern }
        let sensitive: Bool
        switch options.caseSensitivity {
        case .sensitive: sensitive = true
        case .insensitive: sensitive = false
        case .smart: sensitive = patternRequestsCaseSensitivity(pattern, mode: options.mode)
        }
        self.source = pattern
        self.options = options
        self.isCaseSensitive = sensitive
        self.compiled = try PCRE2Pattern(
            pattern: pattern, literal: options.mode == .literal, caseless: !sensitive)
    }

    /// Whether PCRE2's JIT compiled this pattern (informational; results are the same).
    public var isJITCompiled: Bool { compiled.isJITCompiled }

    /// All non-overlapping matches that start at or after `utf8Offset`, left to right, as
    /// UTF-8 byte ranges. Each search resumes at the end of the previous match. An offset
    /// inside a UTF-8 sequence is rounded up to the next scalar.
    public func matches(in text: String, from utf8Offset: Int = 0) -> [Range<Int>] {
        let scratch = MatchScratch()
        return text.withUTF8Bytes { bytes in
            var result: [Range<Int>] = []
            forEachMatch(in: bytes, from: utf8Offset, scratch: scratch) { result.append($0); return true }
            return result
        }
    }

    /// The first match that starts at or after `utf8Offset`.
    public func firstMatch(in text: String, from utf8Offset: Int = 0) -> Range<Int>? {
        let scratch = MatchScratch()
        return text.withUTF8Bytes { firstMatch(in: $0, from: utf8Offset, scratch: scratch) }
    }

    /// The last match of `matches(in: text)` that starts before `utf8Offset` (default: the
    /// end). Forward and backward stepping therefore visit the same matches. Costs a scan of
    /// the text up to `utf8Offset`: PCRE2 cannot search backwards.
    public func lastMatch(in text: String, before utf8Offset: Int = .max) -> Range<Int>? {
        let scratch = MatchScratch()
        return text.withUTF8Bytes { lastMatch(in: $0, before: utf8Offset, scratch: scratch) }
    }

    /// Whether the text contains at least one match.
    public func hasMatch(in text: String) -> Bool { firstMatch(in: text) != nil }

    /// The number of matches in the text (`matches(in:).count` without the array).
    public func countMatches(in text: String) -> Int {
        let scratch = MatchScratch()
        return text.withUTF8Bytes { countMatches(in: $0, scratch: scratch) }
    }

    // MARK: - Buffer level, shared scratch (for DocumentSearcher and MatchCounter)

    func firstMatch(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int, scratch: MatchScratch) -> Range<Int>? {
        let start = scalarBoundary(atOrAfter: offset, in: bytes)
        return compiled.firstMatch(in: bytes, from: start, scratch: scratch)
    }

    /// Calls `body` for each match from `offset` on, until it returns false.
    func forEachMatch(
        in bytes: UnsafeBufferPointer<UInt8>, from offset: Int, scratch: MatchScratch,
        _ body: (Range<Int>) -> Bool
    ) {
        var start = scalarBoundary(atOrAfter: offset, in: bytes)
        while start <= bytes.count, let match = compiled.firstMatch(in: bytes, from: start, scratch: scratch) {
            guard body(match) else { return }
            start = match.upperBound  // non-empty, so this always advances
        }
    }

    func lastMatch(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int, scratch: MatchScratch) -> Range<Int>? {
        var last: Range<Int>?
        forEachMatch(in: bytes, from: 0, scratch: scratch) { match in
            guard match.lowerBound < offset else { return false }
            last = match
            return true
        }
        return last
    }

    /// Matches starting before `offset` (all of them by default).
    func countMatches(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int = .max, scratch: MatchScratch) -> Int {
        var count = 0
        forEachMatch(in: bytes, from: 0, scratch: scratch) { match in
            guard match.lowerBound < offset else { return false }
            count += 1
            return true
        }
        return count
    }
}

extension SearchPattern: Equatable {
    /// Two patterns are equal when compiled from the same source with the same options.
    public static func == (a: SearchPattern, b: SearchPattern) -> Bool {
        a.source == b.source && a.options == b.options
    }
}
