/// A bare URL runs to the next white space or `<`, emphasis markup included: cmark-gfm finds
/// autolinks while it reads inlines, before `*` and `_` pair up, so `http://e.com/*a*` links
/// `http://e.com/*a` (the trim then drops the last `*`). folio finds them after cmark has
/// made `*a*` an emphasis; this pass mends that from the block's source: an autolink directly
/// followed by emphasis or strong whose source run (from the link's text to white space or
/// `<`) goes on over that markup becomes the link the run gives, and what the trim leaves
/// stays text. Known limit: only in the top-level inlines of paragraphs, and found by its
/// text, so the first occurrence in the source is taken.
enum AutolinkMarkup {
    static func mend(_ inlines: Inlines, source: [ArraySlice<UInt8>]) -> Inlines {
        let nodes = inlines.nodes
        // Top-level positions.
        var top: [Int] = []
        var k = 0
        while k < nodes.count { top.append(k); k += nodes[k].descendantCount + 1 }
        var out: [InlineNode] = []
        out.reserveCapacity(nodes.count)
        var t = 0
        while t < top.count {
            let at = top[t]
            let end = at + nodes[at].descendantCount + 1
            guard case .link(_, let title, true) = nodes[at].kind, title.isEmpty, t + 1 < top.count,
                  nodes[at].descendantCount == 1, case .text(let label) = nodes[at + 1].kind,
                  label.hasPrefix("http://") || label.hasPrefix("https://") || label.hasPrefix("ftp://") || label.hasPrefix("www."),
                  isMarkup(nodes[top[t + 1]].kind),
                  let (url, rest, consumed) = run(label: label, after: Array(nodes[top[t + 1]..<(t + 2 < top.count ? top[t + 2] : nodes.count)]), source: source)
            else {
                out += nodes[at..<end]
                t += 1
                continue
            }
            // The run may go on into the text after the markup: that much of it is the run's.
            let markup = nodes[top[t + 1]]
            let delimiters = markup.kind == .strong ? 4 : 2
            let markupText = Inlines(Array(nodes[(top[t + 1] + 1)..<(top[t + 1] + 1 + markup.descendantCount)])).plainText
            let after = consumed - label.utf8.count - markupText.utf8.count - delimiters
            var nextText: String? = nil
            if after > 0 {
                guard t + 2 < top.count, case .text(let text) = nodes[top[t + 2]].kind, text.utf8.count >= after,
                      Array(text.utf8.prefix(after)) == Array((url + rest).utf8.suffix(after))
                else { out += nodes[at..<end]; t += 1; continue }
                nextText = String(decoding: text.utf8.dropFirst(after), as: UTF8.self)
            } else if after < 0 {
                out += nodes[at..<end]; t += 1; continue
            }
            let destination = url.hasPrefix("www.") ? "http://" + url : url
            out.append(InlineNode(.link(destination: destination, title: "", autolink: true), descendantCount: 1))
            out.append(InlineNode(.text(url)))
            let leftover = rest + (nextText ?? "")
            if !leftover.isEmpty { out.append(InlineNode(.text(leftover))) }
            t += nextText == nil ? 2 : 3
        }
        return Inlines(out)
    }

    private static func isMarkup(_ kind: InlineKind) -> Bool {
        switch kind {
        case .emphasis, .strong: return true
        default: return false
        }
    }

    /// The URL the source run gives and the rest of the run, when the run starts with `label`
    /// and covers the markup node's text.
    private static func run(label: String, after markup: [InlineNode], source: [ArraySlice<UInt8>])
        -> (String, String, Int)? {
        let needle = Array(label.utf8)
        let inner = Array(Inlines(Array(markup.dropFirst())).plainText.utf8)
        for line in source {
            guard let start = find(needle, in: line) else { continue }
            var end = start
            while end < line.endIndex, line[end] != 0x20, line[end] != 0x09, line[end] != UInt8(ascii: "<") { end += 1 }
            let run = Array(line[start..<end])
            guard run.count > needle.count, let marker = run.dropFirst(needle.count).first,
                  marker == UInt8(ascii: "*") || marker == UInt8(ascii: "_"),
                  inner.isEmpty || find(inner, in: run[needle.count...]) != nil else { return nil }
            let matches = Autolink.find(in: run)
            guard let first = matches.first, first.range.lowerBound == 0, first.range.upperBound > needle.count else { return nil }
            let url = String(decoding: run[first.range], as: UTF8.self)
            let rest = String(decoding: run[first.range.upperBound...], as: UTF8.self)
            return (url, rest, run.count)
        }
        return nil
    }

    private static func find<C: Collection>(_ needle: [UInt8], in haystack: C) -> C.Index? where C.Element == UInt8 {
        guard !needle.isEmpty else { return nil }
        var i = haystack.startIndex
        while i != haystack.endIndex {
            if haystack[i...].starts(with: needle) { return i }
            i = haystack.index(after: i)
        }
        return nil
    }
}
