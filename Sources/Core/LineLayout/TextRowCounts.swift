import TextModel

/// Exact row counts of a run of text lines at one width, counted without laying the lines
/// out: the background pass that replaces a text document's estimated counts (`~` on the
/// status line) hands these to the pager, a chunk at a time.
///
/// Compact: one byte a line (255 meaning "see `large`"), so a chunk in flight costs about
/// what the `RowIndex` keeps for the same lines.
public struct RowCountChunk: Sendable {
    /// The content counted (a chunk applies only to snapshots of the same lines).
    public let content: TextContent
    /// The width counted for (wrapped lines; chopped lines are one row each and never
    /// counted).
    public let width: Int
    /// The first line counted.
    public let firstUnit: Unit
    private var small: [UInt8] = []
    private var large: [Int: Int] = [:]

    init(content: TextContent, width: Int, firstUnit: Unit) {
        self.content = content
        self.width = width
        self.firstUnit = firstUnit
    }

    /// Lines counted.
    public var count: Int { small.count }
    /// The lines counted, as units.
    public var units: Range<Unit> { firstUnit..<(firstUnit + small.count) }

    /// Rows of the `k`th line counted (0-based within the chunk).
    public subscript(k: Int) -> Int {
        let b = small[k]
        return b == 255 ? large[k]! : Int(b)
    }

    mutating func append(_ rows: Int) {
        if rows >= 255 { large[small.count] = rows; small.append(255) } else { small.append(UInt8(rows)) }
    }

    /// The counts as an array (tests).
    public var counts: [Int] { (0..<count).map { self[$0] } }
}

extension TextContent {
    /// Counts the rows of lines `start...` at `width` (wrapped, not chopped): at most
    /// `maxUnits` lines and, unless a single line is longer, `maxBytes` bytes. Nil when
    /// `start` is not a line (yet). Thread-safe: the background pass calls it while the run
    /// loop reads the same snapshot; the lines' bytes are copied out of the store a window of
    /// at most `window` bytes at a time.
    ///
    /// Each count equals the number of rows `layout(unit:options:)` makes (tested).
    public func rowCountChunk(from start: Unit, width: Int, maxUnits: Int = 65_536,
                              maxBytes: Int = 16 << 20, window: Int = 1 << 20) -> RowCountChunk? {
        let bounds = lineBounds(from: start.index, maxUnits: maxUnits, maxBytes: maxBytes)
        guard bounds.count > 1 else { return nil }
        var chunk = RowCountChunk(content: self, width: width, firstUnit: start)
        var k = 0
        while k < bounds.count - 1 {
            // A window of whole lines: up to `window` bytes, or one longer line.
            var last = k + 1
            while last + 1 < bounds.count && bounds[last + 1] - bounds[k] <= window { last += 1 }
            let base = bounds[k]
            // Shorter than asked when the file shrank: the lines it no longer has are empty
            // (as their layout is, from `lineBytes`).
            let bytes = store.bytes(base..<bounds[last])
            bytes.withUnsafeBufferPointer { buffer in
                for j in k..<last {
                    var end = min(bounds[j + 1] - base, buffer.count)
                    let from = min(bounds[j] - base, end)
                    if end > from && buffer[end - 1] == 0x0A { end -= 1 }
                    if end > from && buffer[end - 1] == 0x0D { end -= 1 }
                    chunk.append(TextContent.rows(ofLine: UnsafeBufferPointer(rebasing: buffer[from..<end]),
                                                  tabWidth: tabWidth, width: width))
                }
            }
            k = last
        }
        return chunk
    }

    /// Rows of one line's bytes (line end removed) wrapped at `width`, as `TextLineLayouter`
    /// makes them. Printable ASCII (and tabs) is counted from its columns; anything else
    /// (escapes, controls, UTF-8) is decoded and wrapped by grapheme, as the layout does.
    static func rows(ofLine line: UnsafeBufferPointer<UInt8>, tabWidth: Int, width: Int) -> Int {
        let width = max(1, width)
        var columns = 0
        var plain = true
        for b in line {
            if b >= 0x20 && b < 0x7F {
                columns += 1
            } else if b == 0x09 {
                columns += tabWidth - columns % tabWidth
            } else {
                plain = false
                break
            }
        }
        if plain { return max(1, (columns + width - 1) / width) }
        let text = TerminalTextDecoder.decode(UnsafeRawBufferPointer(line), tabWidth: tabWidth).text
        return TextLineLayouter.rowCount(text, width: width)
    }
}

extension TextLineLayouter {
    /// Rows `layout` makes of a decoded line's text when wrapping (at least one).
    static func rowCount(_ text: String, width: Int) -> Int {
        var text = text
        text.makeContiguousUTF8()
        guard !text.utf8.isEmpty else { return 1 }
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            var rows = 0
            Wrapper.hardWrap(text, bytes, from: 0, to: bytes.count, width: width, continuationWidth: width) { _ in
                rows += 1
            }
            return rows
        } ?? 1
    }
}

/// What a background pass counts: one text content at one wrapping width. Equal requests
/// (snapshots of the same lines, `TextContent.sharesLines(with:)`, at the same width) are the
/// same work, the later maybe with more lines to count.
public struct RowCountRequest: Sendable, Equatable {
    public let content: TextContent
    public let width: Int

    public init(content: TextContent, width: Int) {
        self.content = content
        self.width = width
    }

    public static func == (a: RowCountRequest, b: RowCountRequest) -> Bool {
        a.content.sharesLines(with: b.content) && a.width == b.width
    }
}
