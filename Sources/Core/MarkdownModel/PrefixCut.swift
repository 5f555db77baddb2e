/// Where the beginning of a Markdown source is cut for a parse of only that beginning (the
/// preview of a large file, each parse of a growing stream): just after a blank line
/// (`\n\n`). Paragraphs, lists and quotes before such a cut are closed; a fence or HTML block
/// open across it shows as it would at the end of input, and the next parse, of more of the
/// source, replaces it.
public enum PrefixCut {
    /// The first cut at or after byte `offset`, or nil.
    public static func first(in bytes: [UInt8], atOrAfter offset: Int) -> Int? {
        var i = max(1, offset - 1)
        while i < bytes.count {
            if bytes[i] == 0x0A && bytes[i - 1] == 0x0A && i + 1 >= offset { return i + 1 }
            i += 1
        }
        return nil
    }

    /// How much of a growing source a parse takes: all of it once the input has ended;
    /// before that, up to the last cut (all of it while there is none yet, or while front
    /// matter opened on the first line is not closed: its blank lines are not cuts).
    ///
    /// Law (`GrowingDocumentTests`): every top-level block before the last one of a parse up
    /// to a cut is already the block of the whole document's parse — same id, kind, lines
    /// and children, and the same content unless reference definitions or footnotes arrive
    /// later.
    public static func parseable(_ bytes: [UInt8], ended: Bool) -> Int {
        if ended || FrontMatter.isOpen(bytes) { return bytes.count }
        return last(in: bytes) ?? bytes.count
    }

    /// The last cut, or nil.
    public static func last(in bytes: [UInt8]) -> Int? {
        var i = bytes.count - 1
        while i > 0 {
            if bytes[i] == 0x0A && bytes[i - 1] == 0x0A { return i + 1 }
            i -= 1
        }
        return nil
    }
}
