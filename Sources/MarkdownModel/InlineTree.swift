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
        var strike = false
        var link = false
        for node in inlines.nodes {
            guard case .text(let text) = node.kind else { continue }
            let triggers = scan(text)
            strike = strike || triggers.strike
            link = link || triggers.link
            if strike && link { break }
        }
        guard strike || link else { return inlines }
        var tree = InlineTree(inlines)
        if strike { Strikethrough.apply(&tree) }
        if link { Autolink.apply(&tree) }
        return tree.flattened()
    }

    /// Whether `text` has a `~` (strikethrough) or `://` / `www.` (bare autolink).
    static func scan(_ text: String) -> (strike: Bool, link: Bool) {
        withUTF8(text) { bytes in
            var strike = false
            var link = false
            let count = bytes.count
            var index = 0
            while index < count {
                switch bytes[index] {
                case UInt8(ascii: "~"):
                    strike = true
                case UInt8(ascii: ":"):
                    if index + 2 < count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { link = true }
                case UInt8(ascii: "w"):
                    if index + 3 < count, bytes[index + 1] == UInt8(ascii: "w"), bytes[index + 2] == UInt8(ascii: "w"),
                       bytes[index + 3] == UInt8(ascii: ".") { link = true }
                default:
                    break
                }
                index += 1
            }
            return (strike, link)
        }
    }
}

/// Runs `body` on the UTF-8 bytes of `text` without copying when the string is native.
func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
}
