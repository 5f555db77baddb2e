import CellWidth
import LineLayout
import Viewport
import TextBasics

extension PagerState {
    /// The bottom row: a message or prompt if there is one, else
    /// `name · Section    [3/14]  p2/7  42%` (or `(END)` at the end).
    public func statusText() -> (left: String, right: String, isMessage: Bool) {
        // File names, messages (URLs, errors), typed text: control characters shown visibly,
        // so the line is as wide as it is counted and nothing reaches the terminal raw.
        let text = rawStatusText()
        return (VisibleControls.escape(text.left), VisibleControls.escape(text.right), text.isMessage)
    }

    private func rawStatusText() -> (left: String, right: String, isMessage: Bool) {
        if let p = prompt {
            let tag = p.literal ? " [literal]" : ""
            return (p.symbol + p.editor.text, tag, false)
        }
        if let message { return (message, "", true) }
        if let o = outline {
            let filter = o.filter.text
            let left = filter.isEmpty ? "outline · type to filter · Enter jumps · Esc closes" : "filter: \(filter)"
            return (left, "\(o.entries.isEmpty ? 0 : o.selected + 1)/\(o.entries.count)", false)
        }
        let doc = active
        var left = doc.name
        if keys.isPending { left = keys.pendingText.isEmpty ? left : keys.pendingText }
        let count = doc.layout.rowCount
        let top = doc.top
        if count > 0, !keys.isPending, let h = doc.sectionHeading(atRow: top) {
            left += " · " + h.title
        }
        if let filter = doc.filterPattern { left += " [&\(doc.filterMatching ? "" : "!")\(filter)]" }
        var right: [String] = []
        if let s = search, s.current != nil {
            if let o = s.ordinal {
                right.append(s.total.map { "\(o)/\($0)" } ?? "\(o)/…")
            } else if !s.nonMatching {
                right.append("…")
            }
        }
        let rows = contentRows
        let atEnd = top + rows >= Row(count)
        let pages = PageCounter.pages(top: top.index, rowCount: count, contentRows: rows,
                                      overlap: max(0, rows - config.pageStep.rows(contentRows: rows)))
        if following { right.insert(followUntil == nil ? "following" : "following to a match", at: 0) }
        if let goal = seeking, !following { right.insert(goal.statusText, at: 0) }
        if horizontalShift > 0 { right.insert("→\(horizontalShift)", at: 0) }
        if doc.isGrowing || doc.isPreview {
            // The rest of the input is still being read: totals are not known yet.
            if doc.bytesRead > 0 { right.insert("reading… " + PagerState.byteSize(doc.bytesRead), at: 0) }
            right.append("p\(pages.current)/…")
        } else if !doc.layout.isExact {
            // Row counts of lines not laid out yet are estimated from their lengths.
            right.append("p\(pages.current)/~\(pages.total)")
            // (A text document's percentage is of its bytes: exact.)
            right.append(atEnd ? "(END)" : (doc.isText ? "" : "~") + "\(percent(top: top))%")
        } else {
            right.append("p\(pages.current)/\(pages.total)")
            right.append(atEnd ? "(END)" : "\(percent(top: top))%")
        }
        if fileList.count > 1, let n = fileList.firstIndex(of: current) {
            right.insert("file \(n + 1)/\(fileList.count)", at: 0)
        }
        // (A loop: `joined(separator:)` is generic in the standard library, and its first call
        // looks its types up at run time, in the first frame.)
        var joined = ""
        for (i, part) in right.enumerated() {
            if i > 0 { joined += "  " }
            joined += part
        }
        return (left, joined, false)
    }

    /// `12 MB`, `640 KB`, `512 B`.
    static func byteSize(_ n: Int) -> String {
        if n >= 10 << 20 { return "\(n >> 20) MB" }
        if n >= 1 << 20 { return String(format1(Double(n) / 1_048_576)) + " MB" }
        if n >= 1 << 10 { return "\(n >> 10) KB" }
        return "\(n) B"
    }

    private static func format1(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The status line's left part in `width` columns. Where it is `path · Section…`, the
    /// directories of the path go first (`…/guide.md · Installing`, then `guide.md ·
    /// Installing`): at 60 columns the section says more than where the file lies. Then it
    /// is cut at the end.
    static func fitStatusLeft(_ text: String, to width: Int) -> String {
        guard CellWidth.of(text) > width, let dot = text.firstOccurrence(of: " · ") else { return truncate(text, to: width) }
        let name = text[..<dot.lowerBound], rest = text[dot.lowerBound...]
        guard let slash = name.lastIndex(of: "/") else { return truncate(text, to: width) }
        let file = name[name.index(after: slash)...]
        let elided = "…/" + file + rest
        if CellWidth.of(elided) <= width { return elided }
        return truncate(String(file + rest), to: width)
    }

    /// Truncates `text` to `width` columns, ending with `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if CellWidth.of(text) <= width { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = CellWidth.of(ch)
            if used + w > width - 1 { break }
            out.append(ch); used += w
        }
        return out + "…"
    }
}
