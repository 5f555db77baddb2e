import LineLayout
import MarkdownModel
import Testing

/// GitHub's renderings on screen: alerts, footnotes, HTML that reads, front matter.
@Suite struct GitHubRenderingLayoutTests {
    /// The role of the span that shows `text` on the row showing it first.
    func role(of text: String, in markdown: String, width: Int) -> SpanStyle.Role? {
        let layout = DocumentLayout(document: MarkdownParser.parse(markdown), options: LayoutOptions(width: width))
        for r in layout.rowRange {
            for span in layout.line(at: r).spans where span.text.contains(text) { return span.style.role }
        }
        return nil
    }

    static let alerts = "> [!NOTE]\n> Useful information that users should know.\n\n> [!CAUTION]\n> - one\n> - two"

    @Test func alertsHaveATitleRowAndAColouredBar() {
        expectScreen(Self.alerts, width: 20, """
            │ ℹ Note            |
            │ Useful information|
            │ that users should |
            │ know.             |
                                |
            │ ✖ Caution         |
            │ • one             |
            │ • two             |
            """)
        expectScreen(Self.alerts, width: 40, """
            │ ℹ Note                                |
            │ Useful information that users should  |
            │ know.                                 |
                                                    |
            │ ✖ Caution                             |
            │ • one                                 |
            │ • two                                 |
            """)
        #expect(role(of: "Note", in: Self.alerts, width: 40) == .alertTitle(.note))
        #expect(role(of: "│", in: Self.alerts, width: 40) == .alertBar(.note))
        #expect(role(of: "Caution", in: Self.alerts, width: 80) == .alertTitle(.caution))
    }

    @Test func alertInAListItemAndAlertWithoutText() {
        expectScreen("- > [!TIP]\n  > Tip in a list.", width: 20, """
            • │ ★ Tip           |
              │ Tip in a list.  |
            """)
        expectScreen("> [!WARNING]", width: 20, """
            │ ⚠ Warning         |
            """)
        // Narrower than the title: it is cut, never wider than the column.
        expectScreen("> [!IMPORTANT]\n> x", width: 6, """
            │ ‼ Im|
            │ x   |
            """)
    }

    static let footnotes = "Text[^1] and more[^n].\n\n[^1]: First note.\n[^n]: Second note is longer than the width."

    @Test func footnotesShowMarksAndDefinitionsAtTheEnd() {
        expectScreen(Self.footnotes, width: 20, """
            Text[1] and more[2].|
                                |
            ────────────────────|
                                |
            1. First note. ↩    |
            2. Second note is   |
               longer than the  |
               width. ↩         |
            """)
        expectScreen(Self.footnotes, width: 40, """
            Text[1] and more[2].                    |
                                                    |
            ────────────────────────────────────────|
                                                    |
            1. First note. ↩                        |
            2. Second note is longer than the width.|
               ↩                                    |
            """)
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.footnotes), options: LayoutOptions(width: 80))
        let mark = layout.line(at: 0).spans.first { $0.text == "[1]" }
        #expect(mark?.style.link == "#user-content-fn-1")
    }

    static let details = "<!-- hidden -->\n\n<details>\n<summary>Show the <b>details</b> of it all</summary>\n\nBody.\n\n</details>"

    @Test func detailsShowTheirSummaryMarked() {
        expectScreen(Self.details, width: 20, """
            ▼ Show the details  |
              of it all         |
                                |
            Body.               |
            """)
        expectScreen(Self.details, width: 40, """
            ▼ Show the details of it all            |
                                                    |
            Body.                                   |
            """)
        #expect(role(of: "▼", in: Self.details, width: 80) == .summary)
    }

    static let frontMatter = "---\ntitle: Folio tour\ntags: [pager, markdown]\n---\n\n# Tour"

    @Test func frontMatterIsACompactDimBlock() {
        expectScreen(Self.frontMatter, width: 20, """
            title: Folio tour   |
            tags: [pager, markdo|
            ↪wn]                |
                                |
            Tour                |
            ════════════════════|
            """)
        expectScreen(Self.frontMatter, width: 40, """
            title: Folio tour                       |
            tags: [pager, markdown]                 |
                                                    |
            Tour                                    |
            ════════════════════════════════════════|
            """)
        #expect(role(of: "title", in: Self.frontMatter, width: 80) == .frontMatter)
    }

    @Test func htmlInTablesAndCentredParagraphs() {
        let table = "| Key | Action |\n|-----|--------|\n| <kbd>q</kbd> | quit<br>the pager |"
        expectScreen(table, width: 20, """
            ┌─────┬───────────┐ |
            │ Key │ Action    │ |
            ├─────┼───────────┤ |
            │ q   │ quit      │ |
            │     │ the pager │ |
            └─────┴───────────┘ |
            """)
        expectScreen("<p align=\"center\">\n  <img src=\"logo.svg\" alt=\"Folio\">\n</p>", width: 40, """
            [image: Folio]                          |
            """)
    }
}
