import ByteInput
import CellWidth
import LineLayout
import MarkdownModel
import Testing

/// A style, link or decoration edge can fall inside a grapheme cluster: a combining mark, an
/// emoji modifier or a ZWJ after a character of another style. Rows are cut into spans at
/// Character edges, so that the spans' widths add up to the row's and no row is wider than
/// the layout (found by FuzzText: `\x83` shown as `<83>`, then U+1F3FD, made a row of 9
/// columns at width 7). At width 1, a character wider than the row shows as U+FFFD, and only
/// such a character.
@Suite struct CharacterEdgeTests {
    /// Each row's spans measure what the row does, never more than the width, and a span of
    /// content is the content text at its offset (a decoration's bytes are no content).
    func expectRowsFit(_ block: BlockLayout, width: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = Array(block.text.utf8)
        for row in block.lines {
            let spans = row.spans.reduce(0) { $0 + $1.width }
            #expect(spans <= width && spans == CellWidth.of(row.plainText),
                    "\(what) at width \(width): \(spans) columns in \(row.spans.map(\.text))", sourceLocation: sourceLocation)
            for span in row.spans {
                // (A cluster wider than the width shows as U+FFFD: its text is not the content's.
                // Clusters are as wide as their code points, so `b` + U+1F3FD is 3 columns.)
                guard let offset = span.contentOffset, width > 1, !span.text.contains("\u{FFFD}") else { continue }
                let bytes = Array(span.text.utf8)
                #expect(offset + bytes.count <= text.count && Array(text[offset..<min(text.count, offset + bytes.count)]) == bytes,
                        "\(what) at width \(width): \(span.text.debugDescription) at \(offset)", sourceLocation: sourceLocation)
            }
        }
    }

    static let textLines: [[UInt8]] = [
        // FuzzText's crasher.
        [0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E, 0xE3, 0x81, 0xAE, 0xE3, 0x83, 0x86, 0xE3, 0x78, 0x55, 0x6E,
         0x73, 0x61, 0x66, 0x83, 0x88, 0x20, 0x32, 0x9F, 0x91, 0x8D, 0xF0, 0x9F, 0x8F, 0xBD, 0x20, 0x65, 0xCC, 0x81, 0x20,
         0xE2, 0x80, 0x8D, 0xEF, 0x2D, 0x8F, 0xE6, 0x97, 0x20, 0xF0, 0x9F],
        Array("x\u{1B}[1m>\u{1B}[0m\u{1F3FD}y\u{1B}[4me\u{1B}[m\u{301}z".utf8),
        Array("\u{1B}]8;;https://e.x/\u{1B}\\link\u{1B}]8;;\u{1B}\\\u{301}\u{200D}\u{1F3FD} tail".utf8),
        Array(String(repeating: "a\u{1B}[7mb\u{1B}[0m\u{1F3FD}\u{301}", count: 20).utf8),
        [0x41, 0x83, 0xCC, 0x81, 0x42, 0xC2, 0x85, 0xF0, 0x9F, 0x8F, 0xBB, 0x43, 0x00, 0xE2, 0x80, 0x8D, 0x44],
        // FuzzText: a zero-width character beside a wide one at width 1 made two U+FFFD.
        [0x09, 0x61, 0x09, 0x62, 0x10, 0x61, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x52, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x61, 0x6E, 0x67, 0x65, 0x31, 0x6D, 0x62, 0x09, 0xA2, 0xF0, 0xF0,
         0xF0, 0xF0, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E, 0xE2, 0x81, 0xAE, 0xE3, 0xF0],
    ]

    @Test(arguments: 1...12)
    func textRowsCutAtCharacterEdges(width: Int) {
        for (k, line) in Self.textLines.enumerated() {
            let store = ByteStore()
            line.withUnsafeBytes { store.append($0) }
            let content = TextContent.whole(store)
            for options in [LayoutOptions(width: width), LayoutOptions(width: width, chopLongLines: true, horizontalShift: 3)] {
                let block = content.layout(unit: 0, options: options)
                let rows = block.lines
                expectRowsFit(block, width: width, "text line \(k)")
                #expect(content.rowCounts(of: 0..<1, options: options) == [rows.count])
                if !options.chopLongLines && width > 3 {  // (a character wider than the width shows as U+FFFD)
                    #expect(rows.map(\.plainText).joined() == content.text(ofUnit: 0), "text line \(k): every byte shown once")
                }
            }
        }
    }

    /// Markdown: emphasis, code and a link ending before a combining mark or modifier; with
    /// URLs written out, a decoration (`)`) before one, and content ending in a prepended
    /// mark (U+0600) before a decoration.
    @Test(arguments: 1...12)
    func markdownRowsCutAtCharacterEdges(width: Int) {
        let sources = [
            String(repeating: "*a*\u{301} **b**\u{1F3FD} `c`\u{200D}d ", count: 6),
            "[x](https://e.x/a)\u{301}\u{301} and [y\u{600}](https://e.x/b)~~z~~\u{1F3FB} end",
            "| *a*\u{301} | [b](u)\u{1F3FD} |\n|---|---|\n| `c`\u{301} | d |\n",
        ]
        for source in sources {
            for inline in [false, true] {
                let layout = DocumentLayout(document: MarkdownParser.parse(source),
                                            options: LayoutOptions(width: width, inlineLinkURLs: inline))
                for u in layout.unitRange {
                    expectRowsFit(layout.unit(u), width: width, "\(source.debugDescription) (URLs written: \(inline))")
                }
            }
        }
    }
}
