import LineLayout
import MarkdownModel
import Testing

/// Inline code without colour keeps its backticks (issue 27: in one style with the prose it
/// could not be told apart under NO_COLOR, --plain or into a pipe).
@Suite struct InlineCodeMarkTests {
    static func rows(_ markdown: String, mark: Bool, width: Int = 40) -> [String] {
        var options = LayoutOptions(width: width)
        options.markInlineCode = mark
        let layout = DocumentLayout(document: MarkdownParser.parse(markdown), options: options)
        return layout.rowRange.map { row in layout.line(at: row).spans.map(\.text).joined() }
    }

    @Test func backticksOnlyWithoutColour() {
        #expect(Self.rows("Run `make install` now.", mark: true) == ["Run `make install` now."])
        #expect(Self.rows("Run `make install` now.", mark: false) == ["Run make install now."])
    }

    @Test func markedCodeWrapsLikeAnyText() {
        // The marks count in the width: no row is wider than it.
        for width in 1...12 {
            for row in Self.rows("a `bc de` f", mark: true, width: width) {
                #expect(row.count <= width, "\(row) at \(width)")
            }
        }
        #expect(Self.rows("a `bc de` f", mark: true, width: 12) == ["a `bc de` f"])
    }
}
