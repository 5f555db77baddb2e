import MarkdownModel
import Testing

@Suite struct PrefixCutTests {
    let source = Array("# A\n\npara\nmore\n\n- item\n\n".utf8)

    @Test func cutsJustAfterABlankLine() {
        #expect(PrefixCut.last(in: source) == source.count)
        #expect(PrefixCut.first(in: source, atOrAfter: 0) == 5)
        #expect(PrefixCut.first(in: source, atOrAfter: 5) == 5)
        #expect(PrefixCut.first(in: source, atOrAfter: 6) == 16)
        #expect(PrefixCut.first(in: source, atOrAfter: 17) == source.count)
        #expect(PrefixCut.first(in: source, atOrAfter: source.count + 1) == nil)
        #expect(PrefixCut.last(in: Array("one line\n".utf8)) == nil)
        #expect(PrefixCut.last(in: []) == nil)
    }

    /// Every cut is a boundary of the full parse: the blocks of the prefix are the first
    /// blocks of the whole (the preview's first screen is the document's first screen).
    @Test func aPrefixParsesToTheFirstBlocksOfTheWhole() {
        let whole = MarkdownParser.parse(source).document
        for offset in 0...source.count {
            guard let cut = PrefixCut.first(in: source, atOrAfter: offset) else { continue }
            let prefix = MarkdownParser.parse(Array(source[..<cut])).document
            let n = prefix.blocks.count
            #expect(n <= whole.blocks.count)
            for i in 0..<n { #expect(prefix.blocks[i].kind == whole.blocks[i].kind) }
        }
    }
}

/// `PrefixCut.end(estimatingRows:width:in:)`, the preview's size: what it counts and skips.
@Suite struct PreviewEstimateTests {
    func end(_ text: String, rows: Int, width: Int = 20) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { PrefixCut.end(estimatingRows: rows, width: width, in: $0) }
    }

    @Test func endsAtTheLineWhereTheEstimateReachesTheRows() {
        let text = (1...30).map { "- item \($0)\n" }.joined()
        let lineEnds = text.utf8.indices.filter { text.utf8[$0] == 0x0A }.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) + 1 }
        for rows in 1...30 { #expect(end(text, rows: rows) == lineEnds[rows - 1]) }
        #expect(end(text, rows: 31) == text.utf8.count)
        #expect(end("", rows: 5) == 0)
    }

    @Test func aParagraphIsJoinedAndWrappedByCharacters() {
        // Ten lines of 9 characters and a space: 100 characters, five rows of 20.
        let paragraph = String(repeating: "ééééééééé\n", count: 10)
        #expect(end(paragraph + "\n- next\n", rows: 6) == paragraph.utf8.count + 1)  // 5 rows, a separator
        #expect(end(paragraph + "\n- next\n", rows: 7) == paragraph.utf8.count + 1 + 7)
    }

    @Test func codeLinesAndBlocksTakeARowEach() {
        let code = "```\n" + String(repeating: "a\n", count: 5) + "```\n"
        #expect(end(code + "x\n", rows: 7) == code.utf8.count)        // fences and five lines
        #expect(end("# H\n## I\n| a |\n> q\n1. x\n", rows: 5) == 24)
        #expect(end("# H\n## I\n| a |\n> q\n1. x\n", rows: 4) == 19, "a quote is a block of its own")
        #expect(end("A paragraph.\n> A quote.\nIts lazy line.\nA paragraph.\n", rows: 2) == 24)
        #expect(end(String(repeating: "a", count: 45) + "\n", rows: 3) == 46)  // wrapped: 3 rows
    }

    @Test func whatTakesNoRowIsSkipped() {
        let skipped = "<!-- a\ncomment -->\n[a]: https://example.com\n[^n]: A footnote.\n<!-- one line -->\n"
        #expect(end(skipped + "- x\n", rows: 1) == skipped.utf8.count + 4)
        // A link counts its text, not its target.
        #expect(end("[t](" + String(repeating: "u", count: 100) + ")\n- x\n", rows: 2) > 100)
    }

    @Test func moreRowsNeverEndSooner() {
        let text = "# T\n\n" + String(repeating: "Some prose that wraps.\nAnd more of it.\n\n- a\n- b\n\n```\ncode\n```\n\n", count: 20)
        var previous = 0
        for rows in 1...200 {
            let e = end(text, rows: rows)
            #expect(e >= previous)
            #expect(e == text.utf8.count || Array(text.utf8)[e - 1] == 0x0A)
            previous = e
        }
    }
}

/// `PrefixCut.definitions(in:)`: the link reference definitions at a document's end, which a
/// preview of its beginning is parsed with.
@Suite struct PreviewDefinitionsTests {
    func definitions(_ text: String) -> String {
        String(decoding: PrefixCut.definitions(in: Array(text.utf8)), as: UTF8.self)
    }

    @Test func blocksOfDefinitionsOutsideCode() {
        let tail = "ial line]: cut\n\n## [1.0.0]\n\n[1.0.0]: https://example.com/v1\n[0.9.0]: https://example.com/v0.9\n"
            + "   [spaced]: <https://example.com/s>\n  \"A title\"\n\nText [not]: a definition? It is one, at a line's start.\n"
            + "```\n[in code]: https://example.com/code\n```\n    [indented]: https://example.com/code\n"
            + "[^note]: A footnote.\n[empty]:\n[last]: https://example.com/last"
        #expect(definitions(tail) == "[1.0.0]: https://example.com/v1\n[0.9.0]: https://example.com/v0.9\n"
            + "   [spaced]: <https://example.com/s>\n  \"A title\"\n\n")
        #expect(definitions("[first line]: https://example.com/\n") == "", "the first line may be cut")
        #expect(definitions("…\r\n[a]: https://example.com/a\r\nNot a title.\r\n\r\n") == "[a]: https://example.com/a\r\n\n", "CRLF")
        #expect(definitions("…\n[a]: https://example.com/a\n## A heading after it\n") == "[a]: https://example.com/a\n\n")
        #expect(definitions("") == "")
    }

    @Test func aFenceOpenAtTheEndIsSeen() {
        #expect(PrefixCut.endsInFence(Array("Text\n\n```\ncode\n\n".utf8)))
        #expect(!PrefixCut.endsInFence(Array("```\ncode\n```\n\n".utf8)))
        #expect(PrefixCut.endsInFence(Array("~~~\n```\n".utf8)), "another fence's marks are its code")
        #expect(!PrefixCut.endsInFence(Array("    ```\nindented code\n".utf8)))
        #expect(!PrefixCut.endsInFence([]))
    }

    /// Parsed after a beginning that uses them, they make its links.
    @Test func aBeginningParsedWithThemHasItsLinks() {
        let beginning = "# Changelog\n\n## [1.0.0] - 2026-01-01\n\nSee the [docs][].\n\n"
        let end = "…\n\n[1.0.0]: https://example.com/v1\n[docs]: https://example.com/docs\n"
        let without = MarkdownParser.parse(Array(beginning.utf8)).document.dump()
        let with = MarkdownParser.parse(Array((beginning + "\n" + definitions(end)).utf8)).document.dump()
        #expect(!without.contains("example.com"))
        #expect(with.contains("https://example.com/v1") && with.contains("https://example.com/docs"))
    }
}
