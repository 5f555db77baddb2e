import Styling

/// A stretch of a decoded line's text that has non-default attributes.
///
/// `range` counts **UTF-8 bytes** of `StyledLine.text`, always on scalar boundaries.
public struct StyledRun: Equatable, Sendable {
    public var range: Range<Int>
    public var attributes: TextAttributes

    public init(range: Range<Int>, attributes: TextAttributes) {
        self.range = range
        self.attributes = attributes
    }
}

/// An OSC 8 hyperlink over a stretch of a decoded line's text (`range` in UTF-8 bytes of `text`).
public struct TextLink: Equatable, Sendable {
    public var range: Range<Int>
    public var url: String

    public init(range: Range<Int>, url: String) {
        self.range = range
        self.url = url
    }
}

/// One line of a text document as it is shown: visible text plus its styles and links.
///
/// Invariants (kept by `TerminalTextDecoder`):
/// - `text` holds no control character: no C0 byte (< 0x20, TAB included), no DEL, no C1 (U+0080…U+009F).
/// - `runs` cover only text with non-default attributes; they are sorted, non-empty, non-overlapping
///   and adjacent runs have different attributes. Text outside every run is `TextAttributes.plain`.
/// - `links` are sorted, non-empty and non-overlapping.
public struct StyledLine: Equatable, Sendable {
    public var text: String
    public var runs: [StyledRun]
    public var links: [TextLink]

    public init(text: String, runs: [StyledRun] = [], links: [TextLink] = []) {
        self.text = text
        self.runs = runs
        self.links = links
    }

    /// The attributes of the text at UTF-8 byte `offset` (`.plain` outside every run).
    public func attributes(at offset: Int) -> TextAttributes {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if runs[mid].range.upperBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        if lo < runs.count && runs[lo].range.contains(offset) { return runs[lo].attributes }
        return .plain
    }
}
