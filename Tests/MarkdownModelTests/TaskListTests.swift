import Testing
@testable import MarkdownModel

/// GitHub task list items (`TaskList`).
@Suite struct TaskListTests {
    @Test func markersAndNonMarkers() {
        let markdown = """
            - [ ] todo
            - [x] done
            - [X] Done *too*
            - [ ]not a task
            - [-] not a task
            -  [ ] spaced
            1. [x] ordered
            - [ ]
              continued
            """
        #expect(dump(markdown) == """
            Document @1-9 #0
              List @1-6 #1 bullet - tight
                Item @1-1 #2 task unchecked
                  Paragraph @1-1 #3 "todo"
                Item @2-2 #4 task checked
                  Paragraph @2-2 #5 "done"
                Item @3-3 #6 task checked
                  Paragraph @3-3 #7 "Done *too*"
                Item @4-4 #8
                  Paragraph @4-4 #9 "[ ]not a task"
                Item @5-5 #10
                  Paragraph @5-5 #11 "[-] not a task"
                Item @6-6 #12 task unchecked
                  Paragraph @6-6 #13 "spaced"
              List @7-7 #14 ordered 1 . tight
                Item @7-7 #15 task checked
                  Paragraph @7-7 #16 "ordered"
              List @8-9 #17 bullet - tight
                Item @8-9 #18 task unchecked
                  Paragraph @8-9 #19 "continued"
            """)
    }

    @Test func onlyTheFirstParagraphOfAnItemCounts() {
        let markdown = """
            - text

              [x] later
            - > [x] quoted

            [ ] outside a list
            """
        #expect(dump(markdown) == """
            Document @1-6 #0
              List @1-4 #1 bullet - loose
                Item @1-3 #2
                  Paragraph @1-1 #3 "text"
                  Paragraph @3-3 #4 "[x] later"
                Item @4-4 #5
                  BlockQuote @4-4 #6
                    Paragraph @4-4 #7 "[x] quoted"
              Paragraph @6-6 #8 "[ ] outside a list"
            """)
    }

    @Test func emptyTask() {
        #expect(dump("- [ ]") == """
            Document @1-1 #0
              List @1-1 #1 bullet - tight
                Item @1-1 #2 task unchecked
                  Paragraph @1-1 #3 ""
            """)
    }
}
