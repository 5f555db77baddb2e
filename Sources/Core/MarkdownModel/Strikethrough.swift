/// GitHub strikethrough: `~~text~~` and `~text~`.
///
/// Delimiter runs of one or two tildes inside the text nodes of one container (a paragraph,
/// an emphasis, a link text…) pair up like emphasis: a run can open when left-flanking and
/// close when right-flanking, and closes the nearest open run of the same length. Runs of
/// three or more are text. Code spans are separate nodes, so tildes in code never count.
/// Flanking looks across text nodes; next to another inline (emphasis, code) the neighbour
/// counts as a letter, at a break or the container's edge as white space.
enum Strikethrough {
    static func apply(_ tree: inout InlineTree) {
        // Only containers that existed before this pass: new strikethrough nodes hold
        // children that were already processed.
        let original = tree.nodes.count
        tree.top = process(tree.top, in: &tree)
        for index in 0..<original where !tree.nodes[index].children.isEmpty {
            tree.nodes[index].children = process(tree.nodes[index].children, in: &tree)
        }
    }

    private enum Item {
        case node(Int)
        case text([UInt8])
        case delimiter(count: Int, canOpen: Bool, canClose: Bool)
    }

    private enum CharacterClass { case space, punctuation, other }

    private static func process(_ children: [Int], in tree: inout InlineTree) -> [Int] {
        let hasTilde = children.contains { child in
            if case .text(let text) = tree.nodes[child].kind { return text.utf8.contains(UInt8(ascii: "~")) }
            return false
        }
        guard hasTilde else { return children }

        // 1. Split text children into text and delimiter items.
        var items: [Item] = []
        for (position, child) in children.enumerated() {
            guard case .text(let text) = tree.nodes[child].kind, text.utf8.contains(UInt8(ascii: "~")) else {
                items.append(.node(child))
                continue
            }
            let before = position > 0 ? trailingClass(tree.nodes[children[position - 1]].kind) : .space
            let after = position + 1 < children.count ? leadingClass(tree.nodes[children[position + 1]].kind) : .space
            split(Array(text.utf8), before: before, after: after, into: &items)
        }

        // 2. Pair delimiters, innermost first, like cmark's emphasis pass. One opener stack per
        //    run length (1 or 2), so a closer finds its opener in O(1): no quadratic input.
        var out: [Item] = []
        var openers: [[Int]] = [[], [], []] // positions in `out`, by run length
        for item in items {
            guard case .delimiter(let count, let canOpen, let canClose) = item else { out.append(item); continue }
            if canClose, let position = openers[count].last {
                let inner = nodes(from: out[(position + 1)...], in: &tree)
                out.removeSubrange(position...)
                for length in 1...2 {
                    while let last = openers[length].last, last >= position { openers[length].removeLast() }
                }
                out.append(.node(tree.add(.strikethrough, children: inner)))
                continue
            }
            out.append(item)
            if canOpen { openers[count].append(out.count - 1) }
        }
        return nodes(from: out[...], in: &tree)
    }

    /// Splits text around its tilde runs; runs of 1 or 2 become delimiters, the rest stays text.
    private static func split(_ bytes: [UInt8], before: CharacterClass, after: CharacterClass, into items: inout [Item]) {
        var textStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "~") else { index += 1; continue }
            var end = index
            while end < bytes.count, bytes[end] == UInt8(ascii: "~") { end += 1 }
            let count = end - index
            if count <= 2 {
                let previous = index > 0 ? classOfScalar(endingAt: index, in: bytes) : before
                let next = end < bytes.count ? classOfScalar(startingAt: end, in: bytes) : after
                let leftFlanking = next != .space && (next != .punctuation || previous != .other)
                let rightFlanking = previous != .space && (previous != .punctuation || next != .other)
                if leftFlanking || rightFlanking {
                    if textStart < index { items.append(.text(Array(bytes[textStart..<index]))) }
                    items.append(.delimiter(count: count, canOpen: leftFlanking, canClose: rightFlanking))
                    textStart = end
                }
            }
            index = end
        }
        if textStart < bytes.count { items.append(.text(Array(bytes[textStart...]))) }
    }

    /// Arena nodes for items: unmatched delimiters turn back into text; adjacent text merges.
    private static func nodes(from items: ArraySlice<Item>, in tree: inout InlineTree) -> [Int] {
        var result: [Int] = []
        var pending: [UInt8] = []
        func flush(_ tree: inout InlineTree) {
            guard !pending.isEmpty else { return }
            result.append(tree.add(.text(String(decoding: pending, as: UTF8.self))))
            pending.removeAll()
        }
        for item in items {
            switch item {
            case .text(let bytes):
                pending.append(contentsOf: bytes)
            case .delimiter(let count, _, _):
                pending.append(contentsOf: repeatElement(UInt8(ascii: "~"), count: count))
            case .node(let index):
                if case .text(let text) = tree.nodes[index].kind {
                    pending.append(contentsOf: text.utf8)
                } else {
                    flush(&tree)
                    result.append(index)
                }
            }
        }
        flush(&tree)
        return result
    }

    private static func trailingClass(_ kind: InlineKind) -> CharacterClass {
        switch kind {
        case .softBreak, .lineBreak: return .space
        case .text(let text):
            let bytes = Array(text.utf8)
            return bytes.isEmpty ? .space : classOfScalar(endingAt: bytes.count, in: bytes)
        default: return .other
        }
    }

    private static func leadingClass(_ kind: InlineKind) -> CharacterClass {
        switch kind {
        case .softBreak, .lineBreak: return .space
        case .text(let text):
            let bytes = Array(text.utf8)
            return bytes.isEmpty ? .space : classOfScalar(startingAt: 0, in: bytes)
        default: return .other
        }
    }

    private static func classOfScalar(startingAt index: Int, in bytes: [UInt8]) -> CharacterClass {
        let byte = bytes[index]
        if byte < 0x80 { return classOf(ascii: byte) }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return classOf(bytes[index..<end])
    }

    private static func classOfScalar(endingAt end: Int, in bytes: [UInt8]) -> CharacterClass {
        let byte = bytes[end - 1]
        if byte < 0x80 { return classOf(ascii: byte) }
        var start = end - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return classOf(bytes[start..<end])
    }

    private static func classOf(ascii byte: UInt8) -> CharacterClass {
        switch byte {
        case 0x09...0x0D, 0x20: return .space
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return .punctuation
        default: return .other
        }
    }

    private static func classOf(_ scalarBytes: ArraySlice<UInt8>) -> CharacterClass {
        guard let scalar = String(decoding: scalarBytes, as: UTF8.self).unicodeScalars.first else { return .other }
        switch scalar.properties.generalCategory {
        case .spaceSeparator: return .space
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: return .punctuation
        default: return .other
        }
    }
}
