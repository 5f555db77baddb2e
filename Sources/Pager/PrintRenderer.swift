import LineLayout
import TerminalScreen

/// Print mode: a laid-out document as text for standard output, the way less acts like cat.
public enum PrintRenderer {
    /// The rendered rows, one per line. With `theme == nil` no escape sequence is written at all
    /// (`--plain`, or output that is not a terminal); trailing blanks are dropped either way.
    public static func render(_ layout: DocumentLayout, theme: Theme?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(layout.document.blocks.count * 64)
        for row in 0..<layout.rowCount {
            appendLine(layout.line(at: row), theme: theme, to: &out)
        }
        return out
    }

    public static func appendLine(_ line: VisualLine, theme: Theme?, to out: inout [UInt8]) {
        // Drop trailing blanks (padding of the last span), keeping styled text intact.
        var spans = line.spans
        while let last = spans.last {
            let trimmed = last.text.trimmingTrailingSpaces()
            if trimmed.isEmpty { spans.removeLast(); continue }
            spans[spans.count - 1].text = trimmed
            break
        }
        guard let theme else {
            for span in spans { out.append(contentsOf: span.text.utf8) }
            out.append(0x0A)
            return
        }
        var current = CellStyle.plain
        for span in spans {
            let style = theme.style(for: span.style)
            if style != current {
                if style.hyperlink != current.hyperlink { out.append(contentsOf: ANSI.hyperlink(style.hyperlink)) }
                out.append(contentsOf: ANSI.sgr(from: current, to: style))
                current = style
            }
            out.append(contentsOf: span.text.utf8)
        }
        if current.hyperlink != nil { out.append(contentsOf: ANSI.hyperlink(nil)) }
        if current != .plain { out.append(contentsOf: ANSI.sgr(from: current, to: .plain)) }
        out.append(0x0A)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex {
            let before = index(before: end)
            if self[before] == " " { end = before } else { break }
        }
        return String(self[startIndex..<end])
    }
}
