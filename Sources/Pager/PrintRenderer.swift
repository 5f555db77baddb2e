import Dispatch
import LineLayout
import TerminalScreen

/// Print mode: a laid-out document as text for standard output, the way less acts like cat.
public enum PrintRenderer {
    /// The rendered rows, one per line. With `theme == nil` no escape sequence is written at all
    /// (`--plain`, or output that is not a terminal); trailing blanks are dropped either way.
    public static func render(_ layout: DocumentLayout, theme: Theme?) -> [UInt8] {
        let blocks = layout.blocks
        // Large documents are rendered in chunks of blocks on all cores, then joined in order.
        let chunkCount = blocks.count < 2_000 ? 1 : min(64, blocks.count / 1_000)
        let chunkSize = (blocks.count + chunkCount - 1) / max(1, chunkCount)
        var chunks = [[UInt8]](repeating: [], count: chunkCount)
        chunks.withUnsafeMutableBufferPointer { out in
            let slots = Slots(base: out.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(chunkSize * 100)
                let end = min(blocks.count, (c + 1) * chunkSize)
                if c * chunkSize < end {
                    for b in (c * chunkSize)..<end {
                        for line in blocks[b].lines { appendLine(line, theme: theme, to: &bytes) }
                    }
                }
                slots.base[c] = bytes
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for c in chunks { result += c }
        return result
    }

    /// Output slots, one per chunk; each is written by exactly one iteration, and read only
    /// after `concurrentPerform` returns, so sharing the pointer across threads is safe.
    private struct Slots: @unchecked Sendable { let base: UnsafeMutablePointer<[UInt8]> }

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
