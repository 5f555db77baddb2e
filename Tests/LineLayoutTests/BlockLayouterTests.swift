import LineLayout
import MarkdownModel
import Testing

/// Leaf blocks at widths 20 and 40. Expected screens are written by hand; `|` is the right edge.
@Suite struct BlockLayouterTests {
    @Test func paragraphWrapsAtSpaces() {
        let md = "The tide is high but I am holding on, and you will be mine."
        expectScreen(md, width: 20, """
            The tide is high but|
            I am holding on, and|
            you will be mine.   |
            """)
        expectScreen(md, width: 40, """
            The tide is high but I am holding on,   |
            and you will be mine.                   |
            """)
    }

    @Test func headingsStandOutWithoutColour() {
        let md = "# Tide tables\n\n## Harbours\n\n### Brest and the Atlantic coast\n\n###### Six"
        expectScreen(md, width: 20, """
            Tide tables         |
            ════════════════════|
                                |
            Harbours            |
            ────────────────────|
                                |
            ### Brest and the   |
                Atlantic coast  |
                                |
            ###### Six          |
            """)
        expectScreen(md, width: 40, """
            Tide tables                             |
            ════════════════════════════════════════|
                                                    |
            Harbours                                |
            ────────────────────────────────────────|
                                                    |
            ### Brest and the Atlantic coast        |
                                                    |
            ###### Six                              |
            """)
    }

    @Test func codeKeepsSpacesExpandsTabsAndMarksContinuations() {
        let md = "```swift\nlet x = 1\n\tlet long = \"abcdefghijklmnop\"\n```"
        expectScreen(md, width: 20, """
              [swift]           |
              let x = 1         |
                  let long = "ab|
            ↪ cdefghijklmnop"   |
            """)
        expectScreen(md, width: 40, """
              [swift]                               |
              let x = 1                             |
                  let long = "abcdefghijklmnop"     |
            """)
        // No margin below 12 columns: the mark takes a column of the code.
        expectScreen("    abcdefghijklmnop", width: 8, """
            abcdefgh|
            ↪ijklmno|
            ↪p      |
            """)
    }

    @Test func ruleImageAndLinks() {
        let md = "Before\n\n---\n\n![A chart](chart.png)\n\nSee [the docs](https://example.org/docs) and <https://example.org>."
        expectScreen(md, width: 40, inlineLinkURLs: true, """
            Before                                  |
                                                    |
            ────────────────────────────────────────|
                                                    |
            [image: A chart] (chart.png)            |
                                                    |
            See the docs (https://example.org/docs) |
            and https://example.org.                |
            """)
        expectScreen(md, width: 20, """
            Before              |
                                |
            ────────────────────|
                                |
            [image: A chart]    |
                                |
            See the docs and    |
            https://example.org.|
            """)
    }

    @Test func htmlControlsAndHardBreaks() {
        let md = "<table>\n<b>hi</b>\n</table>\n\nbell\u{7}here and esc \u{1B}[2J\\\nnext line"
        expectScreen(md, width: 20, """
            <table>             |
            <b>hi</b>           |
            </table>            |
                                |
            bell^Ghere and esc  |
            ^[[2J               |
            next line           |
            """)
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 20))
        #expect(layout.allUnits[1].text == "bell^Ghere and esc ^[[2J\nnext line")
        #expect(layout.line(at: 0).spans.map(\.style.role) == [.html])
        // C1 controls as cat -v shows them.
        expectScreen("csi \u{9B}31m", width: 20, """
            csi M-^[31m         |
            """)
    }

    @Test func wideCharactersAndEmoji() {
        expectScreen("日本語の文章を表示します 👍🏽 done", width: 20, """
            日本語の文章を表示し|
            ます 👍🏽 done        |
            """)
        // One column: a wide character cannot fit and is shown as U+FFFD.
        expectScreen("# 日本", width: 1, """
            �|
            �|
            ═|
            """)
    }

    @Test func spansCarryStylesOffsetsAndLinks() {
        let md = "Plain *em* **strong** `code` ~~gone~~ [link](https://x.org)"
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 80))
        let block = layout.allUnits[0]
        #expect(block.text == "Plain em strong code gone link")
        let spans = layout.line(at: 0).spans
        func span(_ text: String) -> Span? { spans.first { $0.text == text } }
        #expect(span("em")?.style.emphasis == .emphasis)
        #expect(span("strong")?.style.emphasis == .strong)
        #expect(span("code")?.style.emphasis == .code)
        #expect(span("gone")?.style.emphasis == .strikethrough)
        #expect(span("link")?.style.link == "https://x.org")
        #expect(span("link")?.contentOffset == 26)
        #expect(block.links == [LinkTarget(destination: "https://x.org", range: 26..<30)])
        let heading = DocumentLayout(document: MarkdownParser.parse("## Two"), options: LayoutOptions(width: 10))
        #expect(heading.line(at: 0).spans.map(\.style.role) == [.heading(2)])
        #expect(heading.line(at: 1).spans.map(\.style.role) == [.rule])
        #expect(heading.line(at: 1).range == 3..<3)
    }

    @Test func sourceLinesFollowSoftBreaks() {
        let md = "first line\nsecond line\nthird"
        let layout = DocumentLayout(document: MarkdownParser.parse(md), options: LayoutOptions(width: 11))
        #expect(layout.rowRange.map { layout.line(at: $0).sourceLine } == [1, 2, 3])
        let code = DocumentLayout(document: MarkdownParser.parse("text\n\n```\na\nb\n```"), options: LayoutOptions(width: 20))
        #expect(code.rowRange.map { code.line(at: $0).sourceLine } == [1, 1, 4, 5])
    }

    @Test func urlEqualToTextIsNotRepeated() {
        expectScreen("<a@b.org> [x.org](http://x.org)", width: 20, inlineLinkURLs: true, """
            a@b.org x.org       |
            """)
    }
}

/// Plain output keeps `~~` around struck-out words (decoration, not content), so they do not
/// read as current text; with escapes available the attribute shows it instead.
@Suite struct PlainStrikethroughTests {
    @Test func plainOutputKeepsTheMarkers() {
        expectScreen("now ~~old~~ new", width: 20, inlineLinkURLs: true, """
            now ~~old~~ new     |
            """)
        expectScreen("now ~~old~~ new", width: 20, """
            now old new         |
            """)
    }

    @Test func markersAreNotContent() {
        let layout = DocumentLayout(document: MarkdownParser.parse("now ~~old~~ new"),
                                    options: LayoutOptions(width: 20, inlineLinkURLs: true))
        #expect(layout.allUnits[0].text == "now old new")
    }
}
