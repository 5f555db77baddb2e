import Testing
@testable import MarkdownModel

/// GitHub strikethrough (`Strikethrough`). The dump prints every strikethrough as `~~…~~`.
@Suite struct StrikethroughTests {
    @Test(arguments: [
        ("~~a~~ and ~b~", "~~a~~ and ~~b~~"),
        ("x ~~~c~~~ stays", "x ~~~c~~~ stays"),           // three tildes are text
        ("~~d~ mismatched", "~~d~ mismatched"),           // lengths must agree
        ("`~~code~~` x", "`~~code~~` x"),                 // not inside code
        ("~~ a~~ b ~~", "~~ a~~ b ~~"),                   // an opener must be left-flanking
        ("a~~b~~c", "a~~b~~c"),                           // intraword is fine
        ("*~~a~~*", "*~~a~~*"),
        ("[~~x~~](/u)", "[~~x~~](/u)"),
        ("~~a\nb~~", "~~a↵b~~"),
        ("~~unclosed", "~~unclosed"),
    ])
    func cases(_ markdown: String, _ expected: String) {
        #expect(inlineDump(markdown) == expected)
    }

    @Test func wrapsSiblingsOfTheSameContainer() {
        #expect(paragraphInlines("~~a *b* c~~") == [
            InlineNode(.strikethrough, descendantCount: 4),
            InlineNode(.text("a ")),
            InlineNode(.emphasis, descendantCount: 1),
            InlineNode(.text("b")),
            InlineNode(.text(" c")),
        ])
    }

    @Test func nestsByLength() {
        #expect(paragraphInlines("~~a ~b~ c~~") == [
            InlineNode(.strikethrough, descendantCount: 4),
            InlineNode(.text("a ")),
            InlineNode(.strikethrough, descendantCount: 1),
            InlineNode(.text("b")),
            InlineNode(.text(" c")),
        ])
    }

    @Test func doesNotCrossContainers() {
        #expect(inlineDump("*a ~~b* c~~") == "*a ~~b* c~~")
    }
}
