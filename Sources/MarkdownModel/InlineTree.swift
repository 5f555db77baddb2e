/// A mutable tree view of `Inlines` for the extension passes: nodes in an arena, children
/// as index lists. Built from and flattened back to pre-order without recursion.
struct InlineTree {
    struct Node {
        var kind: InlineKind
        var children: [Int]
    }

    var nodes: [Node] = []
    /// The top-level node list (children of the paragraph, heading or cell).
    var top: [Int] = []

    init(_ inlines: Inlines) {
        nodes.reserveCapacity(inlines.nodes.count + 8)
        // (arena index, flat index of its last descendant)
        var open: [(node: Int, end: Int)] = []
        for (flat, node) in inlines.nodes.enumerated() {
            while let last = open.last, last.end < flat { open.removeLast() }
            let index = nodes.count
            nodes.append(Node(kind: node.kind, children: []))
            if let parent = open.last { nodes[parent.node].children.append(index) } else { top.append(index) }
            if node.descendantCount > 0 { open.append((index, flat + node.descendantCount)) }
        }
    }

    /// Adds a node to the arena and returns its index.
    mutating func add(_ kind: InlineKind, children: [Int] = []) -> Int {
        nodes.append(Node(kind: kind, children: children))
        return nodes.count - 1
    }

    /// The tree in flat pre-order.
    func flattened() -> Inlines {
        var out: [InlineNode] = []
        out.reserveCapacity(nodes.count)
        // (arena index, its position in `out`, next child to visit)
        var stack: [(node: Int, position: Int, next: Int)] = []
        for root in top {
            out.append(InlineNode(nodes[root].kind))
            stack.append((root, out.count - 1, 0))
            while let frame = stack.last {
                let children = nodes[frame.node].children
                if frame.next < children.count {
                    stack[stack.count - 1].next += 1
                    let child = children[frame.next]
                    out.append(InlineNode(nodes[child].kind))
                    stack.append((child, out.count - 1, 0))
                } else {
                    out[frame.position].descendantCount = out.count - frame.position - 1
                    stack.removeLast()
                }
            }
        }
        return Inlines(out)
    }
}

/// The inline GitHub extensions, applied to every paragraph, heading and table cell.
enum InlineExtensions {
    static func apply(_ inlines: Inlines) -> Inlines {
        apply(inlines, triggers: scan(inlines))
    }

    /// Applies the passes that `triggers` (from `scan(_:)`) call for.
    static func apply(_ inlines: Inlines, triggers: Triggers) -> Inlines {
        guard triggers.strike || triggers.link || triggers.html else { return inlines }
        var tree = InlineTree(inlines)
        if triggers.html { InlineHTML.apply(&tree) }
        if triggers.strike { Strikethrough.apply(&tree) }
        if triggers.link { Autolink.apply(&tree) }
        return tree.flattened()
    }

    /// Which bytes occur in the text nodes: `~` (strikethrough), `://` or `www.` (bare
    /// autolinks), `|` (a possible pipe table); and whether there is raw inline HTML.
    struct Triggers {
        var strike = false
        var link = false
        var pipe = false
        /// Raw inline HTML (see `InlineHTML`).
        var html = false
    }

    static func scan(_ inlines: Inlines) -> Triggers {
        var triggers = Triggers()
        for node in inlines.nodes {
            if case .html = node.kind { triggers.html = true; continue }
            guard case .text(let text) = node.kind else { continue }
            let found = scan(text)
            triggers.strike = triggers.strike || found.strike
            triggers.link = triggers.link || found.link
            triggers.pipe = triggers.pipe || found.pipe
        }
        return triggers
    }

    static func scan(_ text: String) -> Triggers {
        withUTF8(text) { bytes in
            // memchr per trigger byte: several vectorised passes beat one byte-by-byte switch.
            var triggers = Triggers()
            let count = bytes.count
            func find(_ byte: UInt8, from: Int) -> Int? { bytes.firstIndex(of: byte, from: from) }
            triggers.strike = find(UInt8(ascii: "~"), from: 0) != nil
            triggers.pipe = find(UInt8(ascii: "|"), from: 0) != nil
            var from = 0
            while !triggers.link, let at = find(UInt8(ascii: ":"), from: from) {
                if at + 2 < count, bytes[at + 1] == UInt8(ascii: "/"), bytes[at + 2] == UInt8(ascii: "/") { triggers.link = true }
                from = at + 1
            }
            from = 0
            while !triggers.link, let at = find(UInt8(ascii: "w"), from: from) {
                if at + 3 < count, bytes[at + 1] == UInt8(ascii: "w"), bytes[at + 2] == UInt8(ascii: "w"),
                   bytes[at + 3] == UInt8(ascii: ".") { triggers.link = true }
                from = at + 1
            }
            return triggers
        }
    }
}

/// Runs `body` on the UTF-8 bytes of `text` without copying when the string is native.
func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
}
