import Testing
@testable import MarkdownModel

/// Every CommonMark inline type, the flat pre-order encoding and `plainText`.
@Suite struct InlineTests {
    @Test func everyInlineType() {
        let markdown = """
            *em* **strong** `co de` [link](/u "T") ![alt *x*](/i.png)
            <x-y>raw</x-y> <https://a.b> <me@x.org> a\\
            hard\("  ")
            two
            """
        #expect(inlineDump(markdown)
            == "*em* **strong** `co de` [link](/u \"T\") ![alt *x*](/i.png)↵<x-y>raw</x-y> <https://a.b> <me@x.org→mailto:me@x.org> a⏎hard⏎two")
    }

    @Test func flatPreOrderWithDescendantCounts() {
        #expect(paragraphInlines("*a **b** c*") == [
            InlineNode(.emphasis, descendantCount: 4),
            InlineNode(.text("a ")),
            InlineNode(.strong, descendantCount: 1),
            InlineNode(.text("b")),
            InlineNode(.text(" c")),
        ])
    }

    @Test func adjacentTextNodesAreMerged() {
        // cmark splits text at `[`, `]`, `!` and entities; the model keeps one text node.
        #expect(paragraphInlines("a [b] c! &amp; d") == [InlineNode(.text("a [b] c! & d"))])
    }

    @Test func autolinkFlagOnlyForPointyBraces() {
        #expect(paragraphInlines("<https://x.y>") == [
            InlineNode(.link(destination: "https://x.y", title: "", autolink: true), descendantCount: 1),
            InlineNode(.text("https://x.y")),
        ])
        #expect(paragraphInlines("[here](https://x.y)") == [
            InlineNode(.link(destination: "https://x.y", title: "", autolink: false), descendantCount: 1),
            InlineNode(.text("here")),
        ])
    }

    @Test func plainTextIsWhatAReaderSees() {
        let document = parsed("*a* `b` [c](/u) ![d](/i)\ne  \nf<x-y>")
        guard case .paragraph(let inlines) = document.blocks[1].kind else { Issue.record("no paragraph"); return }
        #expect(inlines.plainText == "a b c d e\nf<x-y>")
    }

    @Test func noSmartPunctuation() {
        #expect(inlineDump("\"quotes\" -- and...") == "\"quotes\" -- and...")
    }
}
