extension Inlines {
    /// The text a reader sees: text, code-span text, link text, image alt text and raw
    /// inline HTML as written; a soft break reads as one space, a hard break as `"\n"`.
    /// Whether these inlines show nothing at all (none, or only white space): what is left of
    /// a paragraph of only `<a id="x"></a>` once its inline HTML is read.
    public var showsNothing: Bool {
        nodes.allSatisfy { if case .text(let t) = $0.kind { t.allSatisfy(\.isWhitespace) } else { false } }
    }

    public var plainText: String {
        if let packed = packedBytes { return packed.plainText }
        var result = ""
        for node in nodes {
            switch node.kind {
            case .text(let text), .code(let text), .html(let text): result += text
            case .softBreak: result += " "
            case .lineBreak: result += "\n"
            case .emphasis, .strong, .strikethrough, .link, .image: break
            }
        }
        return result
    }
}

extension Document {
    /// The headings, in document order.
    public var headings: [BlockID] {
        blocks.compactMap { block in
            if case .heading = block.kind { return block.id }
            return nil
        }
    }
}
