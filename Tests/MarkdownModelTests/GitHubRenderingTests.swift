import Testing
@testable import MarkdownModel

/// GitHub's renderings on top of CommonMark: alerts, footnotes, HTML that reads, front matter.
@Suite struct GitHubRenderingTests {
    // MARK: alerts

    @Test func alertMarkerIsRemovedAndKindKept() {
        #expect(dump("> [!NOTE]\n> Read *this*.") == """
            Document @1-2 #0
              Alert @1-2 #1 note
                Paragraph @1-2 #2 "Read *this*."
            """)
        #expect(dump("> [!warning]  \n> Careful\n>\n> More") == """
            Document @1-4 #0
              Alert @1-4 #1 warning
                Paragraph @1-2 #2 "Careful"
                Paragraph @4-4 #3 "More"
            """)
    }

    @Test(arguments: AlertKind.allCases) func everyAlertKind(_ kind: AlertKind) {
        let md = "> [!\(kind.rawValue.uppercased())]\n> text"
        #expect(dump(md).contains("Alert @1-2 #1 \(kind.rawValue)"))
    }

    @Test func notAnAlert() {
        // Text after the marker on its line, an unknown kind, a marker later in the quote.
        #expect(dump("> [!NOTE] inline").contains("BlockQuote"))
        #expect(dump("> [!HINT]\n> x").contains("BlockQuote"))
        #expect(dump("> x\n>\n> [!NOTE]").contains("BlockQuote"))
    }

    @Test func alertWithOnlyItsMarkerHasNoParagraph() {
        #expect(dump("> [!TIP]") == """
            Document @1-1 #0
              Alert @1-1 #1 tip
            """)
    }

    // MARK: footnotes

    @Test func footnotesAreNumberedByFirstReferenceAndGatheredAtTheEnd() {
        let md = """
            See[^b] and[^a], again[^b].

            [^a]: Alpha.
            [^b]: Beta *bold*.

            After.
            """
        #expect(dump(md) == """
            Document @1-6 #0
              Paragraph @1-1 #1 "See[[1]](#user-content-fn-b) and[[2]](#user-content-fn-a), again[[1]](#user-content-fn-b)."
              Paragraph @6-6 #2 "After."
              ThematicBreak @3-3 #3
              List @3-4 #4 ordered 1 . tight
                Item @4-4 #5
                  Paragraph @4-4 #6 "Beta *bold*. [↩](#user-content-fnref-b)"
                Item @3-3 #7
                  Paragraph @3-3 #8 "Alpha. [↩](#user-content-fnref-a)"
            """)
        let document = parsed(md)
        #expect(document.anchors["user-content-fn-b"] == BlockID(6))
        #expect(document.anchors["user-content-fnref-a"] == BlockID(1))
    }

    /// `[^1]: https://x.org` is also a link reference definition: cmark consumes the line and
    /// makes `[^1]` a link. With no other definition in the document, the pass must still
    /// find it (the early exit for documents with nothing to number must not take it).
    @Test func aDefinitionThatIsALinkReferenceDefinitionAloneIsStillAFootnote() {
        let dumped = dump("See[^1] in *text*[^1].\n\n[^1]: https://x.org\n")
        #expect(dumped.contains("See[[1]](#user-content-fn-1) in *text*[[1]](#user-content-fn-1)."), "\(dumped)")
        #expect(dumped.contains("ThematicBreak"), "\(dumped)")
    }

    @Test func undefinedReferencesStayTextAndUnusedDefinitionsAreHidden() {
        let md = "A[^x] b[^ y].\n\n[^z]: Unused note."
        let document = parsed(md)
        #expect(document.dump() == """
            Document @1-3 #0
              Paragraph @1-1 #1 "A[^x] b[^ y]."

            """)
        #expect(document.hiddenLines == [SourceLines(3, 3)])
    }

    @Test func referencesInCodeAndLinksAreNotFootnotes() {
        let md = "`[^a]` [x [^a]](u) [^a]\n\n[^a]: A b."
        #expect(dump(md).contains("\"`[^a]` [x [^a]](u) [[1]](#user-content-fn-a)\""))
    }

    // MARK: HTML

    @Test func inlineTagsReadAsMarkdown() {
        #expect(inlineDump("a<br>b<br/>c<br />d") == "a⏎b⏎c⏎d")
        #expect(inlineDump("a<br>\nb <br> c") == "a⏎b ⏎c")
        #expect(inlineDump("<b>bold</b> <i>it</i> <em>e</em> <strong>s</strong>") == "**bold** *it* *e* **s**")
        #expect(inlineDump("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, <code>x</code>") == "Press `Ctrl`+`C`, `x`")
        #expect(inlineDump("x<sup>2</sup> H<sub>2</sub>O e<sup>iπ</sup>") == "x² H2O eiπ")
        #expect(inlineDump("<a href=\"https://e.com\">site</a> <a name=\"top\"></a>end") == "[site](https://e.com) end")
        #expect(inlineDump("<img src=\"logo.png\" alt=\"Logo\" width=100>") == "![Logo](logo.png)")
        #expect(inlineDump("a <img src=x.png alt='X'/> b") == "a ![X](x.png) b")
        #expect(inlineDump("a <!-- hidden --> b") == "a  b")
        // Tags inside unwrapped ones are read too; an image without alt text is named by its file.
        #expect(inlineDump("<sub>by <a href=\"https://x.org\">me</a> <sup>n<b>b</b></sup></sub>") == "by [me](https://x.org) n**b**")
        #expect(inlineDump("x <img src=\"docs/logo.png?v=2\" width=20/>") == "x ![logo.png](docs/logo.png?v=2)")
        #expect(inlineDump(String(repeating: "<span>", count: 5000) + "deep" + String(repeating: "</span>", count: 5000)) == "deep")
        #expect(inlineDump("<b>unclosed <span class=x>raw") == "<b>unclosed <span class=x>raw")
    }

    @Test func htmlBlocksOfCommentsAreHidden() {
        let document = parsed("<!--introduced_in=v0.10.0-->\n\n# Title\n\n<!--\nmulti\n-->\ntext")
        #expect(document.dump() == """
            Document @1-8 #0
              Heading @3-3 #1 level 1 "Title"
              Paragraph @8-8 #2 "text"

            """)
        #expect(document.hiddenLines == [SourceLines(1, 1), SourceLines(5, 7)])
    }

    /// Rust's release notes put `<a id="1.95-Language"></a>` before each heading: an empty
    /// paragraph and its blank rows (three blank rows under every version's title).
    @Test func htmlBlocksThatShowNothingAreHidden() {
        let document = parsed("Version\n\n<a id=\"1.95-Language\"></a>\n\nLanguage\n--------\n\n<p> </p>\n\nend")
        #expect(document.dump() == """
            Document @1-10 #0
              Paragraph @1-1 #1 "Version"
              Heading @5-6 #2 level 2 "Language"
              Paragraph @10-10 #3 "end"

            """)
        #expect(document.hiddenLines == [SourceLines(3, 3), SourceLines(8, 8)])
    }

    @Test func htmlBlocksOfInlineMarkupRenderTheirText() {
        let md = """
            <p align="center">
              <a href="https://x.org"><img src="logo.svg" alt="X logo"></a>
            </p>

            <h1 align=center>Project <b>X</b></h1>

            <div align="center">

            Inside.

            </div>

            <table><tr><td>raw</td></tr></table>
            """
        #expect(dump(md) == """
            Document @1-13 #0
              Paragraph @2-2 #1 "[![X logo](logo.svg)](https://x.org)"
              Heading @5-5 #2 level 1 "Project **X**"
              Paragraph @9-9 #3 "Inside."
              HTMLBlock @13-13 #4 "<table><tr><td>raw</td></tr></table>\\n"
            """)
    }

    @Test func detailsShowTheSummaryThenTheBody() {
        let md = "<details>\n<summary>More <i>info</i></summary>\n\nBody.\n\n</details>"
        #expect(dump(md) == """
            Document @1-6 #0
              Summary @2-2 #1 "More *info*"
              Paragraph @4-4 #2 "Body."
            """)
    }

    @Test func brInTableCells() {
        let md = "| a | b |\n|---|---|\n| one<br>two | <b>x</b> |"
        #expect(dump(md).contains("| one⏎two | **x** |"))
    }

    /// cmark reports an HTML block that interrupts a paragraph with its end line before its
    /// start line (`2:1-1:4`); a table with a `]` in a cell made the reference-definition
    /// scan walk that range and crash (found on README.md + long.md concatenated).
    @Test func tableCellsBesideAnHTMLBlockThatInterruptsAParagraph() {
        let md = "| a | b |\n|---|---|\n| [x] | y |\n\npara\n<!-- c -->\n\n[x]: /url\n"
        #expect(dump(md).contains("Table"))
    }

    // MARK: front matter

    @Test func yamlFrontMatter() {
        let md = "---\ntitle: Hello\ntags: [a, b]\n---\n# Heading\n"
        #expect(dump(md) == """
            Document @1-5 #0
              FrontMatter @1-4 #1 yaml "title: Hello\\ntags: [a, b]\\n"
              Heading @5-5 #2 level 1 "Heading"
            """)
    }

    @Test func tomlFrontMatter() {
        #expect(dump("+++\ntitle = \"x\"\n+++\n\ntext") == """
            Document @1-5 #0
              FrontMatter @1-3 #1 toml "title = "x"\\n"
              Paragraph @5-5 #2 "text"
            """)
    }

    @Test func noFrontMatterWithoutClosingFenceOrNotAtTop() {
        #expect(dump("---\ntitle: x\n").contains("ThematicBreak"))
        #expect(dump("\n---\na: b\n---\n").contains("Heading"))
    }
}

extension GitHubRenderingTests {
    /// Hostile HTML: many paragraphs in one block, deep tags, unclosed comments stay fast
    /// (linear), and every byte sequence still parses.
    @Test func hostileHTMLStaysLinear() {
        let many = "<div>\n" + String(repeating: "<p>x</p>", count: 20_000) + "\n</div>"
        #expect(parsed(many).blocks.count == 2)  // kept raw
        let some = "<div>\n" + String(repeating: "<p>x</p>\n", count: 100) + "</div>"
        #expect(parsed(some).blocks.count == 101)
        _ = parsed("<p>" + String(repeating: "<b>", count: 20_000) + "x")
        _ = parsed("<!--" + String(repeating: "<p>", count: 20_000))
        _ = parsed(String(repeating: "<a href='x'>", count: 20_000) + String(repeating: "</a>", count: 20_000))
    }
}

extension GitHubRenderingTests {
    @Test func footnoteWithIndentedParagraphs() {
        let md = "Text[^long].\n\n[^long]: First paragraph.\n\n    Second *paragraph*.\n\n    - a list\n\nAfter."
        #expect(dump(md) == """
            Document @1-9 #0
              Paragraph @1-1 #1 "Text[[1]](#user-content-fn-long)."
              Paragraph @9-9 #2 "After."
              ThematicBreak @3-3 #3
              List @3-7 #4 ordered 1 . loose
                Item @3-7 #5
                  Paragraph @3-3 #6 "First paragraph. [↩](#user-content-fnref-long)"
                  Paragraph @5-5 #7 "Second *paragraph*."
                  List @7-7 #8 bullet - tight
                    Item @7-7 #9
                      Paragraph @7-7 #10 "a list"
            """)
    }
}
