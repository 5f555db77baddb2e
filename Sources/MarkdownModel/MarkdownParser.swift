/// Parses Markdown bytes into a `Document` (stub: replaced by the cmark bridge).
public enum MarkdownParser {
    public static func parse(_ bytes: [UInt8]) -> Document {
        fatalError("not yet implemented")
    }
    public static func parse(_ text: String) -> Document { parse(Array(text.utf8)) }
}
