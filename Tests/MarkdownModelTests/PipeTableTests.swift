import Testing
@testable import MarkdownModel

/// GitHub pipe tables (`PipeTable`, `TableCells`).
@Suite struct PipeTableTests {
    @Test func alignments() {
        let markdown = """
            | Left | Center | Right | None |
            |:-----|:------:|------:|------|
            | a | b | c | d |
            """
        #expect(dump(markdown) == """
            Document @1-3 #0
              Table @1-3 #1 cols 4 [left,center,right,none] rows 1
                | Left | Center | Right | None |
                | a | b | c | d |
            """)
    }

    @Test func escapedPipesAndInlineCells() {
        let markdown = #"""
            a | b
            --|--
            `x\|y` | **z** \| w
            """#
        #expect(dump(markdown) == #"""
            Document @1-3 #0
              Table @1-3 #1 cols 2 [none,none] rows 1
                | a | b |
                | `x\|y` | **z** \| w |
            """#)
        guard case .table(let table) = parsed(markdown).blocks[1].kind else { Issue.record("no table"); return }
        #expect(table.rows[0][0].nodes == [InlineNode(.code("x|y"))])
    }

    @Test func raggedRowsArePaddedOrCut() {
        let markdown = """
            | h1 | h2 | h3 |
            | --- | --- | --- |
            | one |
            | 1 | 2 | 3 | 4 |
            no pipes here
            """
        #expect(dump(markdown) == """
            Document @1-5 #0
              Table @1-5 #1 cols 3 [none,none,none] rows 3
                | h1 | h2 | h3 |
                | one |  |  |
                | 1 | 2 | 3 |
                | no pipes here |  |  |
            """)
    }

    @Test func paragraphThenTableSplitsWithPreOrderIDs() {
        let markdown = """
            intro *line*
            second
            a | b
            --- | ---
            x | y

            after
            """
        #expect(dump(markdown) == """
            Document @1-7 #0
              Paragraph @1-2 #1 "intro *line*↵second"
              Table @3-5 #2 cols 2 [none,none] rows 1
                | a | b |
                | x | y |
              Paragraph @7-7 #3 "after"
            """)
    }

    @Test func tableInsideABlockQuote() {
        let markdown = """
            > intro
            > | a | b |
            > | - | - |
            >| 1 | 2 |
            """
        #expect(dump(markdown) == """
            Document @1-4 #0
              BlockQuote @1-4 #1
                Paragraph @1-1 #2 "intro"
                Table @2-4 #3 cols 2 [none,none] rows 1
                  | a | b |
                  | 1 | 2 |
            """)
    }

    @Test func tableInsideAListItem() {
        let markdown = """
            1. item text
               | a | b |
               |:-:|--:|
               | 1 | 2 |
            2. next
            """
        #expect(dump(markdown) == """
            Document @1-5 #0
              List @1-5 #1 ordered 1 . tight
                Item @1-4 #2
                  Paragraph @1-1 #3 "item text"
                  Table @2-4 #4 cols 2 [center,right] rows 1
                    | a | b |
                    | 1 | 2 |
                Item @5-5 #5
                  Paragraph @5-5 #6 "next"
            """)
    }

    @Test func tableInQuotedListItem() {
        let markdown = """
            > - | a |
            >   | --- |
            >   | b |
            """
        #expect(dump(markdown) == """
            Document @1-3 #0
              BlockQuote @1-3 #1
                List @1-3 #2 bullet - tight
                  Item @1-3 #3
                    Table @1-3 #4 cols 1 [none] rows 1
                      | a |
                      | b |
            """)
    }

    @Test(arguments: [
        "| a | b |\n| --- |",          // header and delimiter differ in cells
        "| a | b |\n| -x- | --- |",    // not a delimiter row
        "| a | b |",                   // one line
        "abc\n:--",                    // no pipe anywhere (known limit)
        "| a |\n| :: |",               // a delimiter cell needs a dash
    ])
    func notATable(_ markdown: String) {
        let document = parsed(markdown)
        #expect(document.blocks.count == 2)
        if case .paragraph = document.blocks[1].kind {} else { Issue.record("not a paragraph: \(document.dump())") }
    }

    @Test func cellsThatLookLikeBlocksStayInline() {
        let markdown = """
            | # h | - x | 1. y | > q | *** | <!-- c --> | [r]: /u |
            |-----|-----|------|-----|-----|------------|---------|
            """
        #expect(dump(markdown) == """
            Document @1-2 #0
              Table @1-2 #1 cols 7 [none,none,none,none,none,none,none] rows 0
                | # h | - x | 1. y | > q | *** | <!-- c --> | [r]: /u |
            """)
    }

    @Test func anOddCellDoesNotSpoilOtherTables() {
        // All cells of a document are parsed in one cmark run; the unclosed comment would
        // swallow every later cell, so its table is retried alone.
        let markdown = """
            | <!-- open | b |
            |---|---|

            | *e* | c |
            |---|---|
            """
        #expect(dump(markdown) == """
            Document @1-5 #0
              Table @1-2 #1 cols 2 [none,none] rows 0
                | <!-- open | b |
              Table @4-5 #2 cols 2 [none,none] rows 0
                | *e* | c |
            """)
        guard case .table(let table) = parsed(markdown).blocks[2].kind else { Issue.record("no table"); return }
        #expect(table.header[0].nodes.first?.kind == .emphasis)
    }

    @Test func cellsGetStrikethroughAndAutolinks() {
        let markdown = """
            | ~~old~~ | www.x.org |
            |---|---|
            """
        #expect(dump(markdown) == """
            Document @1-2 #0
              Table @1-2 #1 cols 2 [none,none] rows 0
                | ~~old~~ | <www.x.org→http://www.x.org> |
            """)
    }

    @Test func splitRowRules() {
        func cells(_ line: String) -> [String] {
            PipeTable.splitRow(ArraySlice(Array(line.utf8))).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(cells("| a | b |") == ["a", "b"])
        #expect(cells("a | b") == ["a", "b"])
        #expect(cells("|a|b") == ["a", "b"])
        #expect(cells("| a |  ") == ["a"])
        #expect(cells("| |") == [""])
        #expect(cells(#"a \| b | c"#) == ["a | b", "c"])
        #expect(cells(#"a \\| b"#) == [#"a \\"#, "b"])
        #expect(cells(#"\*a\* | b"#) == [#"\*a\*"#, "b"])
    }
}
