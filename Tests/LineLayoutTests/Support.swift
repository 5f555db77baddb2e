import CellWidth
import LineLayout
import MarkdownModel
import Testing

/// Lays out `markdown` and returns its rows as text, each padded to `width` and ended by a
/// visible right edge `|` so trailing blanks show.
func screen(_ markdown: String, width: Int, inlineLinkURLs: Bool = false) -> String {
    let layout = DocumentLayout(document: MarkdownParser.parse(markdown),
                                options: LayoutOptions(width: width, inlineLinkURLs: inlineLinkURLs))
    return screen(layout)
}

func screen(_ layout: DocumentLayout) -> String {
    layout.rowRange.map { r in
        let text = layout.line(at: r).plainText
        return text + String(repeating: " ", count: max(0, layout.width - CellWidth.of(text))) + "|"
    }.joined(separator: "\n")
}

/// Compares a screen with the expected one and shows both on failure.
func expectScreen(_ markdown: String, width: Int, inlineLinkURLs: Bool = false, _ expected: String,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = screen(markdown, width: width, inlineLinkURLs: inlineLinkURLs)
    #expect(actual == expected, "\n--- actual ---\n\(actual)\n--- expected ---\n\(expected)", sourceLocation: sourceLocation)
}
