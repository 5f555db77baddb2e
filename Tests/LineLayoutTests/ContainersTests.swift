import LineLayout
import MarkdownModel
import Testing

@Suite struct ContainersTests {
    @Test func listsHangBulletsByDepthTasks() {
        let md = """
            - one
            - two is a longer item that wraps
              - nested item
                1. first
                2. second
            - [ ] todo
            - [x] done
            """
        expectScreen(md, width: 20, """
            • one               |
            • two is a longer   |
              item that wraps   |
              ◦ nested item     |
                1. first        |
                2. second       |
            • ☐ todo            |
            • ☑ done            |
            """)
        expectScreen(md, width: 40, """
            • one                                   |
            • two is a longer item that wraps       |
              ◦ nested item                         |
                1. first                            |
                2. second                           |
            • ☐ todo                                |
            • ☑ done                                |
            """)
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 40))
        #expect(layout.line(at: 5).spans.map(\.style.role).prefix(2) == [.listMarker, .taskBox(checked: false)])
    }

    @Test func orderedListsRightAlignFromTheirStart() {
        expectScreen("8. eight\n9. nine\n10. ten", width: 20, """
             8. eight           |
             9. nine            |
            10. ten             |
            """)
        // A loose list has blank rows between its items and its blocks; the tight inner one not.
        expectScreen("- a\n\n- b\n  - ▪ c\n    - d", width: 20, """
            • a                 |
                                |
            • b                 |
                                |
              ◦ ▪ c             |
                ▪ d             |
            """)
    }

    @Test func quotesHaveABarOnEveryRowIncludingSeparators() {
        let md = "> The sea is calm tonight, the tide is full.\n>\n> > Nested"
        expectScreen(md, width: 20, """
            │ The sea is calm   |
            │ tonight, the tide |
            │ is full.          |
            │                   |
            │ │ Nested          |
            """)
        expectScreen(md, width: 40, """
            │ The sea is calm tonight, the tide is  |
            │ full.                                 |
            │                                       |
            │ │ Nested                              |
            """)
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 20))
        #expect(layout.line(at: 0).spans.first?.style.role == .quoteBar)
    }

    @Test func decorationsGiveWayAtNarrowWidths() {
        // Decoration takes at most half the width: outer bars go first.
        expectScreen("> > > > deep", width: 6, """
            │ deep|
            """)
        expectScreen("- ab", width: 1, """
            a|
            b|
            """)
        // The innermost marker alone is too wide: it is cut to the 2 columns decoration may have.
        expectScreen("10. x", width: 4, """
            10x |
            """)
    }

    @Test func emptyItemsStillShowTheirMarker() {
        expectScreen("- a\n-\n- c", width: 10, """
            • a       |
            •         |
            • c       |
            """)
    }
}

extension ContainersTests {
    /// Thousands of nested quotes and lists neither overflow the stack nor take quadratic
    /// time: only the innermost decoration that fits is drawn.
    @Test func deepNestingIsCheap() {
        let quotes = String(repeating: "> ", count: 5_000) + "deep"
        expectScreen(quotes, width: 10, """
            │ │ deep  |
            """)
        let lists = (0..<2_000).map { String(repeating: "  ", count: $0) + "- x" }.joined(separator: "\n")
        let layout = DocumentLayout(document: MarkdownParser.parse(lists), options: LayoutOptions(width: 12))
        #expect(layout.rowCount == 2_000)
        // 1,999 levels down the bullet is ◦ (1999 % 3 == 1); decoration keeps 6 of 12 columns.
        #expect(layout.line(at: 1_999).plainText == "    ◦ x")
    }
}
