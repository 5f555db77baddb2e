import CellWidth
import MarkdownModel

/// Container decoration: quote bars and list markers, and the blank separator rows between
/// leaves. Precomputed per document in one pre-order pass, so each leaf's prefix costs only a
/// walk up its ancestors, cut off as soon as the prefix is as wide as it may get.
///
/// Markers: bullets by list depth `•`, `◦`, `▪` (then again); ordered lists `N.`/`N)` numbered
/// from the list's start, right-aligned to the widest number; a task item shows `☐`/`☑` after
/// its marker. Continuation rows hang under the item's text. A block quote is `│ ` on every row.
///
/// Narrow widths: decoration may take at most `width - (width + 1) / 2` columns (content keeps at
/// least half the width, so at least one column); outer decorations are dropped first, and the
/// innermost one is cut short if it alone is too wide.
struct Containers {
    let document: Document
    /// Number of lists enclosing each block (a list counts itself), modulo the bullets'
    /// cycle (3): all that the bullet of an item needs.
    let listDepthInCycle: [UInt8]
    /// Whether a block draws decoration (quotes and list items).
    let decorates: [Bool]
    // Parents, depths and whether a block is its parent's first child (its id is the
    // parent's + 1, in pre-order) are read from the blocks themselves: arrays of them beside
    // the document were a large part of a changelog's content.

    init(_ document: Document) {
        self.document = document
        let n = document.blocks.count
        var listDepth = [UInt8](repeating: 0, count: n)
        var decorates = [Bool](repeating: false, count: n)
        for b in document.blocks {
            let i = b.id.rawValue
            let p = b.parentIndex
            let inherited = p >= 0 ? listDepth[p] : 0
            switch b.kind {
            case .list: listDepth[i] = (inherited + 1) % UInt8(Self.bullets.count)
            case .blockQuote, .alert, .item: listDepth[i] = inherited; decorates[i] = true
            default: listDepth[i] = inherited
            }
        }
        self.listDepthInCycle = listDepth
        self.decorates = decorates
    }

    /// Parent of block `i` (-1 for the root), read in place.
    private func parent(_ i: Int) -> Int { document.blocks[i].parentIndex }

    /// Whether block `i` is its parent's first child (the root counts as one).
    private func isFirstChild(_ i: Int) -> Bool {
        let p = parent(i)
        return p < 0 || i == p + 1
    }

    static func maximumPrefixWidth(_ width: Int) -> Int { width - (width + 1) / 2 }

    private struct Segment {
        var first: [Span]
        var other: [Span]
        var width: Int
    }

    private static let bullets = ["•", "◦", "▪"]

    /// Decoration of one container, or nil for containers that draw nothing (document, list).
    /// `firstRow`: this row is the first row of the container's content.
    private func segment(_ id: BlockID, firstRow: Bool) -> Segment? {
        let block = document[id]
        switch block.kind {
        case .blockQuote:
            let bar = Span(text: "│ ", style: SpanStyle(role: .quoteBar), width: 2)
            return Segment(first: [bar], other: [bar], width: 2)
        case .alert(let kind):
            let bar = Span(text: "│ ", style: SpanStyle(role: .alertBar(kind)), width: 2)
            return Segment(first: [bar], other: [bar], width: 2)
        case .item(let info):
            guard let parentID = block.parent, case .list(let list) = document[parentID].kind else { return nil }
            var marker: String
            if list.ordered {
                let siblings = document.blocks[parentID.rawValue].children
                let count = siblings.count
                // The item's place among them (ids ascend: a bisection).
                var low = 0, high = count
                while low < high {
                    let mid = (low + high) / 2
                    if siblings[mid] < id { low = mid + 1 } else { high = mid }
                }
                let number = list.start + low
                let widest = String(list.start + max(0, count - 1)).count
                let digits = String(number)
                marker = String(repeating: " ", count: max(0, widest - digits.count)) + digits + String(list.delimiter) + " "
            } else {
                // An item's list depth is at least 1 (its list): the outermost list's bullet first.
                let cycle = Self.bullets.count
                marker = Self.bullets[(Int(listDepthInCycle[id.rawValue]) + cycle - 1) % cycle] + " "
            }
            var width = marker.count
            var first = [Span(text: marker, style: SpanStyle(role: .listMarker), width: width)]
            if let task = info.task {
                let checked = task == .checked
                first.append(Span(text: checked ? "☑ " : "☐ ", style: SpanStyle(role: .taskBox(checked: checked)), width: 2))
                width += 2
            }
            let pad = Span(text: String(repeating: " ", count: width), style: SpanStyle(), width: width)
            return Segment(first: firstRow ? first : [pad], other: [pad], width: width)
        default:
            return nil
        }
    }

    /// Prefix of the rows of `unit`: the decoration of its containers (and of the unit itself
    /// when it is a childless container). Below an alert's title row (`titledAlert`), the
    /// first row of the unit no longer carries the first-row markers outside the alert.
    func prefix(of unit: BlockID, width: Int, titledAlert: BlockID? = nil) -> Prefix {
        collect(from: unit, startsOwnContent: true, width: width, firstEndsAt: titledAlert)
    }

    /// The alert whose title row goes above `unit`: the alert of which `unit` is the first
    /// leaf (or a childless alert itself).
    func titledAlert(of unit: BlockID) -> (id: BlockID, kind: AlertKind)? {
        var current = unit.rawValue
        while true {
            if case .alert(let kind) = document.blocks[current].kind { return (BlockID(current), kind) }
            let p = parent(current)
            guard p >= 0, isFirstChild(current) else { return nil }
            current = p
        }
    }

    /// Separator row between two consecutive units, or nil when they follow each other without
    /// a blank row (items of a tight list). The row carries the bars of the quotes around both.
    func separator(between a: BlockID, and b: BlockID, width: Int) -> Prefix? {
        // A piece of a giant paragraph goes on on the next row.
        if document.blocks[b.rawValue].continuesPrevious { return nil }
        let lca = commonAncestor(a, b)
        switch document.blocks[lca.rawValue].kind {
        case .list(let info) where info.tight: return nil
        case .item:
            let p = parent(lca.rawValue)
            if p >= 0, case .list(let info) = document.blocks[p].kind, info.tight { return nil }
        default: break
        }
        var p = collect(from: lca, startsOwnContent: false, width: width)
        // Trailing blanks of the hanging indents are not drawn.
        while let last = p.other.last, last.text.allSatisfy({ $0 == " " }) {
            p.other.removeLast(); p.width -= last.width
        }
        if let last = p.other.last, last.text.hasSuffix(" ") {
            p.other[p.other.count - 1].text.removeLast()
            p.other[p.other.count - 1].width -= 1
            p.width -= 1
        }
        p.first = p.other
        return p
    }

    private func commonAncestor(_ a: BlockID, _ b: BlockID) -> BlockID {
        var x = a.rawValue, y = b.rawValue
        func depth(_ i: Int) -> Int { document.blocks[i].depth }
        while depth(x) > depth(y) && parent(x) >= 0 { x = parent(x) }
        while depth(y) > depth(x) && parent(y) >= 0 { y = parent(y) }
        while x != y && parent(x) >= 0 && parent(y) >= 0 { x = parent(x); y = parent(y) }
        return BlockID(x)
    }

    private func collect(from start: BlockID, startsOwnContent: Bool, width: Int, firstEndsAt: BlockID? = nil) -> Prefix {
        let budget = Self.maximumPrefixWidth(width)
        var segments: [Segment] = []  // innermost first
        var total = 0
        var isFirst = startsOwnContent
        var current = start.rawValue
        var child = -1
        while current >= 0 {
            let id = BlockID(current)
            if child >= 0 && !isFirstChild(child) { isFirst = false }
            if decorates[current], let seg = segment(id, firstRow: isFirst) {
                if total + seg.width > budget {
                    if segments.isEmpty && budget > 0 {
                        var s = seg
                        s.first = cut(s.first, budget); s.other = cut(s.other, budget); s.width = budget
                        segments.append(s)
                    }
                    break
                }
                segments.append(seg)
                total += seg.width
            }
            if current == firstEndsAt?.rawValue { isFirst = false }
            child = current
            current = parent(current)
        }
        var p = Prefix()
        for s in segments.reversed() {
            p.first.append(contentsOf: s.first)
            p.other.append(contentsOf: s.other)
            p.width += s.width
        }
        return p
    }

    private func cut(_ spans: [Span], _ width: Int) -> [Span] {
        var out: [Span] = []
        var left = width
        for s in spans where left > 0 {
            var t = s
            t.text = truncated(s.text, to: left)
            t.width = CellWidth.of(t.text)
            left -= t.width
            out.append(t)
        }
        if left > 0 { out.append(Span(text: String(repeating: " ", count: left), style: SpanStyle(), width: left)) }
        return out
    }
}
