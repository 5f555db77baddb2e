#if canImport(Glibc)
import Glibc
#endif
import Styling

/// What a highlighter may spend on one code block. Code comes from documents folio did not
/// write: a 96 KB block of `(` made tree-sitter's query run for seconds (quadratic in the
/// depth of unclosed brackets) and made Debian's runtime abort. So the code is highlighted a
/// piece at a time, each piece within a nesting bound and time limits, and what does not fit
/// is shown plain.
///
/// Why these values (the figures are in docs/benchmarks.md, "Highlighting bounds"):
/// - `pieceBytes`: real code parses and queries a piece of this size in a few milliseconds,
///   far below the time limits, and a piece's tree (tens of bytes per node) stays small, so
///   memory does not grow with the block. Where a piece is cut (at a blank line when there is
///   one, else at a line end) a construct open across the cut may be coloured wrongly up to
///   the next one; a block under the size is one piece, as before.
/// - `nesting`: the query's cost grows with the square of the depth of unclosed brackets; at
///   this depth it is still a few milliseconds. Real code stays under a hundred.
/// - the time limits: ten times what real code of a full piece takes on a slow machine, so a
///   loaded machine does not leave ordinary code plain, and low enough that a block of
///   pathological pieces costs well under a second before its rest is left plain.
public struct HighlightBudget: Sendable, Equatable {
    /// Largest piece parsed at once (bytes).
    public var pieceBytes = 64 << 10
    /// Deepest run of unclosed `(`, `[`, `{` a piece may hold.
    public var nesting = 1000
    /// Time a piece's parse may take (microseconds; tree-sitter's own timeout).
    public var parseMicros: UInt64 = 150_000
    /// Time a piece's query may take (microseconds; tree-sitter's own timeout).
    public var queryMicros: UInt64 = 150_000
    /// Matches in progress a query cursor may hold (tree-sitter drops the oldest past it).
    public var matchLimit: UInt32 = 1024
    /// Pieces over a limit after which the rest of the block is left plain.
    public var overrunsPerBlock = 2

    public init() {}

    public static let standard = HighlightBudget()

    /// `bytes` cut into pieces of at most `pieceBytes`: each ends after a blank line in the
    /// second half of its window if there is one, else after the window's last line end,
    /// else (a line longer than a piece) at the last UTF-8 character boundary.
    public func pieces(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let size = max(4, pieceBytes)
        var result: [Range<Int>] = []
        var start = 0
        while bytes.count - start > size {
            let limit = start + size
            var cut = -1, lineEnd = -1
            var i = limit - 1
            while i > start {
                if bytes[i] == 0x0A {
                    if lineEnd < 0 { lineEnd = i + 1 }
                    if bytes[i - 1] == 0x0A { cut = i + 1; break }
                }
                if i < start + size / 2 && lineEnd >= 0 { break }
                i -= 1
            }
            if cut < 0 { cut = lineEnd }
            if cut <= start {
                cut = limit
                while cut > start + 1 && (bytes[cut] & 0xC0) == 0x80 { cut -= 1 }
            }
            result.append(start..<cut)
            start = cut
        }
        if start < bytes.count || result.isEmpty { result.append(start..<bytes.count) }
        return result
    }

    /// Whether the depth of unclosed brackets in `bytes` passes `nesting`. Counted
    /// on the raw bytes (brackets in strings and comments count too: a false alarm needs a
    /// thousand of them open at once).
    public func tooDeep(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var depth = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > nesting { return true }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth > 0 { depth -= 1 }
            default: break
            }
        }
        return false
    }
}

/// Why code was left plain.
public enum HighlightLimit: Error, Sendable, Equatable, CustomStringConvertible {
    case nesting(limit: Int)
    case parseTime(milliseconds: Int)
    case queryTime(milliseconds: Int)

    public var description: String {
        switch self {
        case .nesting(let limit): "brackets nested over \(limit) deep"
        case .parseTime(let ms): "its parse took over \(ms) ms"
        case .queryTime(let ms): "its highlighting took over \(ms) ms"
        }
    }
}

/// Microseconds of a monotonic clock (to tell a query that timed out from one that ended).
enum Monotonic {
    static func microseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }
}
