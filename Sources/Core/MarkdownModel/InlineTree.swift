import TextBasics
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
        guard triggers.strike || triggers.link || triggers.html || triggers.escapedTilde else { return inlines }
        var tree = InlineTree(inlines)
        if triggers.html { InlineHTML.apply(&tree) }
        if triggers.strike { Strikethrough.apply(&tree) }
        if triggers.link { Autolink.apply(&tree) }
        if triggers.escapedTilde { EscapedTilde.restore(&tree) }
        return tree.flattened()
    }

    /// Which bytes occur in the text nodes: `~` (strikethrough), `://`, `www.` or `@` (bare
    /// autolinks), `|` (a possible pipe table); and whether there is raw inline HTML.
    struct Triggers {
        var strike = false
        var link = false
        var pipe = false
        /// Raw inline HTML (see `InlineHTML`).
        var html = false
        /// A `\~` placeholder (see `EscapedTilde`).
        var escapedTilde = false
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
            triggers.escapedTilde = triggers.escapedTilde || found.escapedTilde
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
            var at = 0
            while !triggers.escapedTilde, let lead = find(0xEF, from: at) {
                if lead + 2 < count, bytes[lead + 1] == 0xB7, bytes[lead + 2] == 0x90 { triggers.escapedTilde = true }
                at = lead + 1
            }
            var from = 0
            while !triggers.link, let at = find(UInt8(ascii: ":"), from: from) {
                if at + 2 < count, bytes[at + 1] == UInt8(ascii: "/"), bytes[at + 2] == UInt8(ascii: "/") { triggers.link = true }
                from = at + 1
            }
            from = 0
            if !triggers.link, find(UInt8(ascii: "@"), from: 0) != nil { triggers.link = true }
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

/// A tilde written escaped (`\~`) must not delimit strikethrough, but cmark hands it over
/// as a plain `~` merged into the text around it. `mark` finds each escaped tilde of the
/// source in the text (by the source bytes that follow it, which cmark copies verbatim up to
/// the next markup character) and puts U+FDD0 (a noncharacter, reserved for such internal
/// use) in its place; `restore`, after the strikethrough pass, makes it `~` again.
/// Known limit: an escaped tilde followed at once by markup (`\~*x*`) is found only when
/// the same text does not occur earlier in the block.
enum EscapedTilde {
    static let utf8: [UInt8] = [0xEF, 0xB7, 0x90]
    static let placeholder = String(decoding: utf8, as: UTF8.self)

    /// `inlines` with the escaped tildes of `source` (the block's source lines) marked.
    static func mark(_ inlines: Inlines, source: [ArraySlice<UInt8>]) -> Inlines {
        var contexts: [[UInt8]] = []
        for line in source {
            var i = line.startIndex
            while i + 1 < line.endIndex {
                if line[i] == UInt8(ascii: "`") {
                    // A code span: backslashes in it escape nothing.
                    var run = i
                    while run < line.endIndex, line[run] == UInt8(ascii: "`") { run += 1 }
                    let length = run - i
                    var j = run
                    var closed: Int? = nil
                    while j < line.endIndex {
                        if line[j] == UInt8(ascii: "`") {
                            var k = j
                            while k < line.endIndex, line[k] == UInt8(ascii: "`") { k += 1 }
                            if k - j == length { closed = k; break }
                            j = k
                        } else {
                            j += 1
                        }
                    }
                    i = closed ?? run
                } else if line[i] == 0x5C {
                    if line[i + 1] == 0x7E {
                        var end = i + 2
                        while end < line.endIndex, end - i < 12, !isMarkup(line[end]) { end += 1 }
                        contexts.append(Array(line[(i + 1)..<end]))
                    }
                    i += 2  // an escaped byte (or backslash) is skipped
                } else {
                    i += 1
                }
            }
        }
        guard !contexts.isEmpty else { return inlines }
        var nodes = inlines.nodes
        var next = 0
        var node = 0, offset = 0
        while next < contexts.count, node < nodes.count {
            guard case .text(let text) = nodes[node].kind else { node += 1; offset = 0; continue }
            var bytes = Array(text.utf8)
            var changed = false
            while next < contexts.count, let at = find(contexts[next], in: bytes, from: offset) {
                bytes.replaceSubrange(at..<(at + 1), with: utf8)
                offset = at + utf8.count
                next += 1
                changed = true
            }
            if changed { nodes[node].kind = .text(String(decoding: bytes, as: UTF8.self)) }
            node += 1
            offset = 0
        }
        return Inlines(nodes)
    }

    private static func isMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x5C, UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "!"), 0x0A, 0x0D:
            return true
        default:
            return false
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        for i in from...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }

    static func restore(_ tree: inout InlineTree) {
        for index in tree.nodes.indices {
            if case .text(let text) = tree.nodes[index].kind, text.containsText(placeholder) {
                tree.nodes[index].kind = .text(text.replacingAll(placeholder, with: "~"))
            }
        }
    }
}
