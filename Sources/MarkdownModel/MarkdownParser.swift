/// Parses Markdown (CommonMark via libcmark, plus GitHub's pipe tables, task list items,
/// strikethrough and bare autolinks) into a `Document`.
///
/// Total: every byte sequence parses. Invalid UTF-8 and NUL become U+FFFD. Parsing and every
/// pass over the result are iterative, so nesting depth is bounded by memory, not the stack.
public enum MarkdownParser {
    public static func parse(_ bytes: [UInt8]) -> Document {
        let source = SourceText(bytes)
        let raw = CmarkBridge.parseBlocks(source.bytes)
        var builder = DocumentBuilder(source: source, raw: raw)
        return builder.build()
    }

    public static func parse(_ text: String) -> Document { parse(Array(text.utf8)) }
}
