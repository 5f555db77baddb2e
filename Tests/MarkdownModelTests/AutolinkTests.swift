import Testing
@testable import MarkdownModel

/// GitHub bare autolinks (`Autolink`). Dump notation: `<text→destination>`, or `<destination>`
/// when the text is the destination.
@Suite struct AutolinkTests {
    @Test(arguments: [
        ("see https://example.com/path?q=1.", "see <https://example.com/path?q=1>."),
        ("www.commonmark.org/help, ok", "<www.commonmark.org/help→http://www.commonmark.org/help>, ok"),
        ("(http://a.b/c_(d))", "(<http://a.b/c_(d)>)"),
        ("http://a.b/c))", "<http://a.b/c>))"),
        ("https://e.com/a&hl; x", "<https://e.com/a>&hl; x"),
        ("https://e.com/q;", "<https://e.com/q>;"),
        ("https://e.com/q?!'\"*_~:,", "<https://e.com/q>?!'\"*_~:,"),
        ("\"https://e.com\"", "\"<https://e.com>\""),
        ("x https://e.com<b>", "x <https://e.com><b>"),
        ("http://localhost:8080/x", "<http://localhost:8080/x>"),
        ("https://例え.jp/パス", "<https://例え.jp/パス>"),
        ("_www.x.com_ fine", "*<www.x.com→http://www.x.com>* fine"),
    ])
    func links(_ markdown: String, _ expected: String) {
        #expect(inlineDump(markdown) == expected)
    }

    @Test(arguments: [
        "https:// alone",
        "www. alone",
        "xwww.x.com",
        "xhttps://x.com",
        "www.x_y.com",
        "https://a.b_c.d",
        "`https://x.y` in code",
        "[https://x.y inside](/u)",
        "![www.x.com](/i.png)",
    ])
    func notLinks(_ markdown: String) {
        let nodes = paragraphInlines(markdown)
        let bare = nodes.contains { node in
            if case .link(_, _, true) = node.kind { return true }
            return false
        }
        #expect(!bare, "\(nodes)")
    }

    @Test func structure() {
        #expect(paragraphInlines("a www.x.org b") == [
            InlineNode(.text("a ")),
            InlineNode(.link(destination: "http://www.x.org", title: "", autolink: true), descendantCount: 1),
            InlineNode(.text("www.x.org")),
            InlineNode(.text(" b")),
        ])
    }

    @Test func insideEmphasisAndHeadings() {
        #expect(dump("# See **https://x.y**") == """
            Document @1-1 #0
              Heading @1-1 #1 level 1 "See **<https://x.y>**"
            """)
    }
}
