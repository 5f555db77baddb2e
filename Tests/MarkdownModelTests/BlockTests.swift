import Testing
@testable import MarkdownModel

/// Every CommonMark block type, with IDs and source lines (`DocumentBuilder`, `CmarkBridge`).
@Suite struct BlockTests {
    @Test func everyBlockType() {
        let markdown = """
            # Title

            Some *emph* text
            continues here.

                code

            > quoted

            - one
            - two

            1) first

            ~~~ sh
            echo
            ~~~

            <!-- note -->

            ***
            Setext
            ---

            """
        #expect(dump(markdown) == """
            Document @1-23 #0
              Heading @1-1 #1 level 1 "Title"
              Paragraph @3-4 #2 "Some *emph* text↵continues here."
              CodeBlock @6-6 #3 indented "" "code\\n"
              BlockQuote @8-8 #4
                Paragraph @8-8 #5 "quoted"
              List @10-11 #6 bullet - tight
                Item @10-10 #7
                  Paragraph @10-10 #8 "one"
                Item @11-11 #9
                  Paragraph @11-11 #10 "two"
              List @13-13 #11 ordered 1 ) tight
                Item @13-13 #12
                  Paragraph @13-13 #13 "first"
              CodeBlock @15-17 #14 fenced "sh" "echo\\n"
              ThematicBreak @21-21 #15
              Heading @22-23 #16 level 2 "Setext"
            """)
    }

    @Test func nestedContainersAndLooseLists() {
        let markdown = """
            > - a
            >   > b
            >
            > c

            10. x

                y
            11. z
            """
        #expect(dump(markdown) == """
            Document @1-9 #0
              BlockQuote @1-4 #1
                List @1-2 #2 bullet - tight
                  Item @1-2 #3
                    Paragraph @1-1 #4 "a"
                    BlockQuote @2-2 #5
                      Paragraph @2-2 #6 "b"
                Paragraph @4-4 #7 "c"
              List @6-9 #8 ordered 10 . loose
                Item @6-8 #9
                  Paragraph @6-6 #10 "x"
                  Paragraph @8-8 #11 "y"
                Item @9-9 #12
                  Paragraph @9-9 #13 "z"
            """)
    }

    @Test func listsEndingAtBlankLinesDoNotOwnThem() {
        let markdown = "* a\n* b\n\n\npara\n\n+ c\n"
        #expect(dump(markdown) == """
            Document @1-7 #0
              List @1-2 #1 bullet * tight
                Item @1-1 #2
                  Paragraph @1-1 #3 "a"
                Item @2-2 #4
                  Paragraph @2-2 #5 "b"
              Paragraph @5-5 #6 "para"
              List @7-7 #7 bullet + tight
                Item @7-7 #8
                  Paragraph @7-7 #9 "c"
            """)
    }

    @Test func fencedAndIndentedCodeAreTold() {
        let markdown = """
                ```
                x

            ```
            ```

            ~~~
            ~~~a
            ~~~

            ```
            unclosed
            """
        #expect(dump(markdown) == """
            Document @1-12 #0
              CodeBlock @1-2 #1 indented "" "```\\nx\\n"
              CodeBlock @4-5 #2 fenced "" ""
              CodeBlock @7-9 #3 fenced "" "~~~a\\n"
              CodeBlock @11-12 #4 fenced "" "unclosed\\n"
            """)
    }

    @Test func unclosedFenceInAnItemEndsWithTheItem() {
        // cmark reports the code block as ending on line 2, the line that closed the list.
        #expect(dump("1. ```x\ny") == """
            Document @1-2 #0
              List @1-1 #1 ordered 1 . tight
                Item @1-1 #2
                  CodeBlock @1-1 #3 fenced "x" ""
              Paragraph @2-2 #4 "y"
            """)
    }

    @Test func emptyAndBlankDocuments() {
        #expect(dump("") == "Document @1-1 #0")
        #expect(parsed("").sourceLineCount == 0)
        #expect(dump("\n\n  \n") == "Document @1-3 #0")
        #expect(parsed("a\r\nb\rc").sourceLineCount == 3)
        #expect(dump("a\r\nb\rc") == "Document @1-3 #0\n  Paragraph @1-3 #1 \"a↵b↵c\"")
    }

    @Test func headingsAndLeafBlocks() {
        let document = parsed("# A\n\n> ## B\n\n- c\n\n---\n")
        #expect(document.headings == [BlockID(1), BlockID(3)])
        #expect(document.leafBlocks == [BlockID(1), BlockID(3), BlockID(6), BlockID(7)])
    }

    @Test func dumpCutsLongTexts() {
        let document = parsed("abcdefghij")
        #expect(document.dump(maxTextLength: 4) == "Document @1-1 #0\n  Paragraph @1-1 #1 \"abcd…\"\n")
    }

    /// cmark 0.30 reports HTML blocks closed by their end marker as ending a line early.
    @Test func htmlBlocksKeepAllTheirSourceLines() {
        // (Comment-only blocks are hidden; their lines are in `hiddenLines`.)
        #expect(dump("<script a\nb\n</script>\n\n<table>\nx\n</table>\n\n> <pre>\n> y\n> </pre>\n\n<?one?>\ntext") == """
        Document @1-14 #0
          HTMLBlock @1-3 #1 "<script a\\nb\\n</script>\\n"
          HTMLBlock @5-7 #2 "<table>\\nx\\n</table>\\n"
          BlockQuote @9-11 #3
            HTMLBlock @9-11 #4 "<pre>\\ny\\n</pre>\\n"
          HTMLBlock @13-13 #5 "<?one?>\\n"
          Paragraph @14-14 #6 "text"
        """)
        #expect(parsed("<!-- a\nb\n-->\ntext").hiddenLines == [SourceLines(1, 3)])
    }
}
