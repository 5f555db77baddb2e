import Testing
@testable import MarkdownModel

/// The extension examples of GitHub's spec (GitHub Flavored Markdown 0.29-gfm, as cmark-gfm
/// 0.29.0.gfm.6 implements it), each input with the structure the spec's own HTML gives,
/// translated by hand into folio's dump notation. The spec is the oracle, not folio's output.
@Suite struct GFMSpecTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var number: Int
        var markdown: String
        /// Dump lines after the `Document` line, without source positions and ids.
        var expected: String
        var testDescription: String { "example \(number)" }
    }

    /// The dump without `@first-last #id`, root line dropped, indentation kept.
    static func structure(_ markdown: String) -> String {
        let lines = MarkdownParser.parse(markdown).dump().split(separator: "\n").dropFirst()
        return lines.map { line -> String in
            var words = line.split(separator: " ", omittingEmptySubsequences: false)
            words.removeAll { $0.hasPrefix("@") || ($0.hasPrefix("#") && $0.dropFirst().allSatisfy(\.isNumber) && $0.count > 1) }
            return words.joined(separator: " ")
        }.joined(separator: "\n")
    }

    static let tables: [Example] = [
        Example(number: 198, markdown: "| foo | bar |\n| --- | --- |\n| baz | bim |", expected: """
              Table cols 2 [none,none] rows 1
                | foo | bar |
                | baz | bim |
            """),
        Example(number: 199, markdown: "| abc | defghi |\n:-: | -----------:\nbar | baz", expected: """
              Table cols 2 [center,right] rows 1
                | abc | defghi |
                | bar | baz |
            """),
        Example(number: 200, markdown: "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |", expected: """
              Table cols 1 [none] rows 2
                | f\\|oo |
                | b `\\|` az |
                | b **\\|** im |
            """),
        Example(number: 201, markdown: "| abc | def |\n| --- | --- |\n| bar | baz |\n> bar", expected: """
              Table cols 2 [none,none] rows 1
                | abc | def |
                | bar | baz |
              BlockQuote
                Paragraph "bar"
            """),
        Example(number: 202, markdown: "| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar", expected: """
              Table cols 2 [none,none] rows 2
                | abc | def |
                | bar | baz |
                | bar |  |
              Paragraph "bar"
            """),
        Example(number: 203, markdown: "| abc | def |\n| --- |\n| bar |", expected: """
              Paragraph "| abc | def |↵| --- |↵| bar |"
            """),
        Example(number: 204, markdown: "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |", expected: """
              Table cols 2 [none,none] rows 2
                | abc | def |
                | bar |  |
                | bar | baz |
            """),
        Example(number: 205, markdown: "| abc | def |\n| --- | --- |", expected: """
              Table cols 2 [none,none] rows 0
                | abc | def |
            """),
    ]

    static let taskLists: [Example] = [
        Example(number: 279, markdown: "- [ ] foo\n- [x] bar", expected: """
              List bullet - tight
                Item task unchecked
                  Paragraph "foo"
                Item task checked
                  Paragraph "bar"
            """),
        Example(number: 280, markdown: "- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim", expected: """
              List bullet - tight
                Item task checked
                  Paragraph "foo"
                  List bullet - tight
                    Item task unchecked
                      Paragraph "bar"
                    Item task checked
                      Paragraph "baz"
                Item task unchecked
                  Paragraph "bim"
            """),
    ]

    static let strikethrough: [Example] = [
        Example(number: 491, markdown: "~~Hi~~ Hello, world!", expected: """
              Paragraph "~~Hi~~ Hello, world!"
            """),
        Example(number: 492, markdown: "This ~~has a\n\nnew paragraph~~.", expected: """
              Paragraph "This ~~has a"
              Paragraph "new paragraph~~."
            """),
    ]

    static let autolinks: [Example] = [
        Example(number: 621, markdown: "www.commonmark.org", expected: """
              Paragraph "<www.commonmark.org→http://www.commonmark.org>"
            """),
        Example(number: 622, markdown: "Visit www.commonmark.org/help for more information.", expected: """
              Paragraph "Visit <www.commonmark.org/help→http://www.commonmark.org/help> for more information."
            """),
        Example(number: 623, markdown: "Visit www.commonmark.org.\n\nVisit www.commonmark.org/a.b.", expected: """
              Paragraph "Visit <www.commonmark.org→http://www.commonmark.org>."
              Paragraph "Visit <www.commonmark.org/a.b→http://www.commonmark.org/a.b>."
            """),
        Example(number: 624, markdown: """
            www.google.com/search?q=Markup+(business)

            www.google.com/search?q=Markup+(business)))

            (www.google.com/search?q=Markup+(business))

            (www.google.com/search?q=Markup+(business)
            """, expected: """
              Paragraph "<www.google.com/search?q=Markup+(business)→http://www.google.com/search?q=Markup+(business)>"
              Paragraph "<www.google.com/search?q=Markup+(business)→http://www.google.com/search?q=Markup+(business)>))"
              Paragraph "(<www.google.com/search?q=Markup+(business)→http://www.google.com/search?q=Markup+(business)>)"
              Paragraph "(<www.google.com/search?q=Markup+(business)→http://www.google.com/search?q=Markup+(business)>"
            """),
        Example(number: 625, markdown: "www.google.com/search?q=(business))+ok", expected: """
              Paragraph "<www.google.com/search?q=(business))+ok→http://www.google.com/search?q=(business))+ok>"
            """),
        Example(number: 626, markdown: "www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;", expected: """
              Paragraph "<www.google.com/search?q=commonmark&hl=en→http://www.google.com/search?q=commonmark&hl=en>"
              Paragraph "<www.google.com/search?q=commonmark→http://www.google.com/search?q=commonmark>&hl;"
            """),
        Example(number: 627, markdown: "www.commonmark.org/he<lp", expected: """
              Paragraph "<www.commonmark.org/he→http://www.commonmark.org/he><lp"
            """),
        Example(number: 628, markdown: """
            http://commonmark.org

            (Visit https://encrypted.google.com/search?q=Markup+(business))

            Anonymous FTP is available at ftp://foo.bar.baz.
            """, expected: """
              Paragraph "<http://commonmark.org>"
              Paragraph "(Visit <https://encrypted.google.com/search?q=Markup+(business)>)"
              Paragraph "Anonymous FTP is available at <ftp://foo.bar.baz>."
            """),
        Example(number: 629, markdown: "foo@bar.baz", expected: """
              Paragraph "<foo@bar.baz→mailto:foo@bar.baz>"
            """),
        Example(number: 630, markdown: "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.", expected: """
              Paragraph "hello@mail+xyz.example isn't valid, but <hello+xyz@mail.example→mailto:hello+xyz@mail.example> is."
            """),
        Example(number: 631, markdown: "a.b-c_d@a.b\n\na.b-c_d@a.b.\n\na.b-c_d@a.b-\n\na.b-c_d@a.b_", expected: """
              Paragraph "<a.b-c_d@a.b→mailto:a.b-c_d@a.b>"
              Paragraph "<a.b-c_d@a.b→mailto:a.b-c_d@a.b>."
              Paragraph "a.b-c_d@a.b-"
              Paragraph "a.b-c_d@a.b_"
            """),
        // The protocol autolinks of later GFM versions.
        Example(number: 632, markdown: "mailto:foo@bar.baz\n\nmailto:a.b-c_d@a.b.\n\nmailto:a.b-c_d@a.b/\n\nxmpp:foo@bar.baz", expected: """
              Paragraph "<mailto:foo@bar.baz>"
              Paragraph "<mailto:a.b-c_d@a.b>."
              Paragraph "<mailto:a.b-c_d@a.b>/"
              Paragraph "<xmpp:foo@bar.baz>"
            """),
    ]

    @Test(arguments: tables + taskLists + strikethrough + autolinks)
    func example(_ example: Example) {
        #expect(Self.structure(example.markdown) == example.expected)
    }

    /// The gaps the issue found, against GitHub's rendering.
    @Test func issueGaps() {
        // A table followed by `---`: a table and a thematic break, not a setext heading.
        #expect(Self.structure("| a | b |\n|---|---|\n| 1 | 2 |\n---") == """
              Table cols 2 [none,none] rows 1
                | a | b |
                | 1 | 2 |
              ThematicBreak
            """)
        // An escaped tilde delimits nothing.
        #expect(MarkdownParser.parse("\\~~x~~ and more").blocks[1].kind == .paragraph(Inlines([InlineNode(.text("~~x~~ and more"))])))
        #expect(MarkdownParser.parse("a `\\~` ~~x~~").blocks[1].kind == .paragraph(Inlines([
            InlineNode(.text("a ")), InlineNode(.code("\\~")), InlineNode(.text(" ")),
            InlineNode(.strikethrough, descendantCount: 1), InlineNode(.text("x")),
        ])))
        // A bare URL runs over emphasis markup (cmark-gfm links before `*` pairs up).
        #expect(Self.structure("See http://e.com/*a* now.") == "  Paragraph \"See <http://e.com/*a>* now.\"")
        #expect(Self.structure("See www.e.com/**b**x y *c*") == "  Paragraph \"See <www.e.com/**b**x→http://www.e.com/**b**x> y *c*\"")
        #expect(Self.structure("See http://e.com/ *a*") == "  Paragraph \"See <http://e.com/> *a*\"")
        // Reference links in table cells resolve (badge tables).
        #expect(Self.structure("| CI |\n|----|\n| [![CI][b]][ci] |\n\n[b]: https://b.svg\n[ci]: https://ci.org") == """
              Table cols 1 [none] rows 1
                | CI |
                | [![CI](https://b.svg)](https://ci.org) |
            """)
    }
}
