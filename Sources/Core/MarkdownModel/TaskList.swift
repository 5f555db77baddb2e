/// GitHub task list items: an item whose first paragraph starts with `[ ]`, `[x]` or `[X]`
/// followed by white space (or the end of the line).
enum TaskList {
    /// The task state and the paragraph's inlines without the marker (and the white space
    /// after it), or nil when the paragraph does not start with a marker.
    static func strippingMarker(from inlines: Inlines) -> (ItemInfo.Task, Inlines)? {
        guard let first = inlines.nodes.first, case .text(let text) = first.kind else { return nil }
        let utf8 = Array(text.utf8.prefix(5))
        guard utf8.count >= 3, utf8[0] == UInt8(ascii: "["), utf8[2] == UInt8(ascii: "]") else { return nil }
        let task: ItemInfo.Task
        switch utf8[1] {
        case UInt8(ascii: " "): task = .unchecked
        case UInt8(ascii: "x"), UInt8(ascii: "X"): task = .checked
        default: return nil
        }
        var nodes = inlines.nodes
        if utf8.count == 3 {
            // The marker is the whole first text: it must end the line or the paragraph.
            nodes.removeFirst()
            if let next = nodes.first {
                switch next.kind {
                case .softBreak, .lineBreak: nodes.removeFirst()
                default: return nil
                }
            }
        } else {
            guard utf8[3] == UInt8(ascii: " ") || utf8[3] == UInt8(ascii: "\t") else { return nil }
            let rest = text.utf8.dropFirst(3).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if rest.isEmpty {
                nodes.removeFirst()
                if let next = nodes.first, next.kind == .softBreak || next.kind == .lineBreak { nodes.removeFirst() }
            } else {
                nodes[0] = InlineNode(.text(String(decoding: rest, as: UTF8.self)))
            }
        }
        return (task, Inlines(nodes))
    }
}
