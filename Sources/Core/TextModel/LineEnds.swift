#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where lines begin and where their content ends, in a text document's bytes.
///
/// A line ends at LF (0x0A). A CR (0x0D) just before the LF — or at the very end of the last
/// line — belongs to the line end (CR LF files show as less shows them); any other CR is content,
/// and the decoder shows it as `^M`.
public enum LineEnds {
    /// The end of a line's content: `line.count`, or one less when the line (given without its
    /// LF) ends in CR. Only one CR is stripped: `"a\r\r"` keeps one, shown as `^M`.
    public static func contentEnd(of line: UnsafeRawBufferPointer) -> Int {
        let n = line.count
        return n > 0 && line[n - 1] == 0x0D ? n - 1 : n
    }

    /// The end index of a line's content: `line.endIndex`, or the index of a trailing CR.
    public static func contentEnd<C: BidirectionalCollection>(of line: C) -> C.Index where C.Element == UInt8 {
        guard !line.isEmpty else { return line.endIndex }
        let last = line.index(before: line.endIndex)
        return line[last] == 0x0D ? last : line.endIndex
    }

    /// Byte offsets of every line start at or after `from` (which must itself be a line start):
    /// `from`, then one past each LF — except the end of the buffer: a final LF ends the last
    /// line, it does not begin an empty one. An empty range (`from == bytes.count`) has no lines.
    ///
    /// Uses `memchr`, so it runs at memory speed on long files.
    public static func lineStarts(in bytes: UnsafeRawBufferPointer, from: Int) -> [Int] {
        precondition(from >= 0 && from <= bytes.count, "lineStarts: from out of bounds")
        guard from < bytes.count, let base = bytes.baseAddress else { return [] }
        var starts = [from]
        var position = from
        let end = bytes.count
        while position < end {
            guard let hit = memchr(base + position, 0x0A, end - position) else { break }
            let next = UnsafeRawPointer(hit) - base + 1
            if next < end { starts.append(next) }
            position = next
        }
        return starts
    }
}
