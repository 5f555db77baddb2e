import ByteInput
import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

extension PagerHarness {
    /// Rows the selected element covers, in the current row map.
    var selectedRows: Range<Row>? { state.selection.map { state.rows(of: $0.element) } }
}

@Suite struct SelectionTests {
    /// 20 rows; links on rows 2, 4, 9 and 15 (source lines), in a 24×6 screen.
    static let doc = rowsWithWords([2: "[l2](https://e.org/2)", 4: "[l4](https://e.org/4)",
                                    9: "[l9](https://e.org/9)", 15: "[l15](https://e.org/15)"])

    @Test func tabMovesTheViewOnlyWhenNeededAndMinimally() {
        var h = PagerHarness(markdown: Self.doc, columns: 24, rows: 6)
        h.send("<Tab>")
        #expect(h.selectedRows == 1..<2)
        #expect(h.top == 0)
        #expect(h.status == "https://e.org/2")
        h.send("<Tab>")
        #expect(h.selectedRows == 3..<4)
        #expect(h.top == 0)
        h.send("<Tab>")
        // Row 8 was below the view: it is now the last content row.
        #expect(h.selectedRows == 8..<9)
        #expect(h.top == 4)
        #expect(h.content.last == "row 9 l9                ")
        // The selection is drawn in reverse video.
        #expect(h.isHighlighted(row: 4, column: 6))
        #expect(!h.isHighlighted(row: 4, column: 0))
        h.send("<S-Tab>")
        #expect(h.selectedRows == 3..<4)
        #expect(h.top == 3)  // above: its row becomes the top
    }

    /// The compact element list reads back as the headings and links of each unit, in order:
    /// a unit's heading, then its links by position, with their destinations; and
    /// `indices(inUnit:)` finds exactly each unit's elements.
    @Test func elementsAreEachUnitsHeadingThenLinks() {
        let markdown = """
            # Top [in](https://h.example/é)

            Para [b](https://e.org/b) and [a](<https://e.org/a b>) and <https://auto.example>.

            - [x](x.md) ü [日本](https://e.org/日本)
            - no links

            ## Second

            | h | [c](https://e.org/c) |
            |---|---|
            | [d](https://e.org/d) | e |
            """
        let h = PagerHarness(markdown: markdown, columns: 30, rows: 8)
        let elements = h.state.active.elements
        guard let content = h.state.active.content as? MarkdownContent else { Issue.record("not Markdown"); return }
        var expected: [SelectableElement] = []
        for u in content.unitRange {
            if let level = content.headingLevel(ofUnit: u) {
                expected.append(SelectableElement(unit: u, range: 0..<content.text(ofUnit: u).utf8.count,
                                                  kind: .heading(level: level)))
            }
            for link in content.links[u.index].sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                expected.append(SelectableElement(unit: u, range: link.range, kind: .link(link.destination)))
            }
        }
        #expect(Array(elements) == expected)
        for i in elements.indices {
            #expect(elements.unit(at: i) == expected[i].unit && elements.range(at: i) == expected[i].range)
        }
        #expect(expected.count == 10)  // 2 headings; 1 + 3 + 2 + 2 links
        #expect(expected.contains { $0.kind == .link("https://e.org/a b") })
        #expect(expected.contains { $0.kind == .link("https://e.org/日本") })
        for u in Unit(-1)...Unit(content.unitCount + 1) {
            #expect(Array(elements.indices(inUnit: u)) == expected.indices.filter { expected[$0].unit == u })
        }
    }

    @Test func tabAfterTheLastStaysAndSays() {
        var h = PagerHarness(markdown: Self.doc, columns: 24, rows: 6)
        h.send("<Tab><Tab><Tab><Tab>")
        #expect(h.selectedRows == 14..<15)
        h.send("<Tab>")
        #expect(h.selectedRows == 14..<15)
        #expect(h.status == "Last link or heading")
    }

    @Test func countedTabAndControlO() {
        var h = PagerHarness(markdown: Self.doc, columns: 24, rows: 6)
        h.send("3<Tab>")
        #expect(h.selectedRows == 8..<9)
        h.send("<C-o><C-p>")
        #expect(h.selectedRows == 3..<4)
        h.send("<C-o><C-n>")
        #expect(h.selectedRows == 8..<9)
        h.send("<Esc>")
        #expect(h.state.selection == nil)
    }

    /// The law on generated documents at several small sizes: after every Tab the element is
    /// fully visible (or starts on the top row when taller than the view), and the top moved
    /// by the least amount that achieves it; every element is reached, in order; Shift-Tab
    /// undoes Tab.
    @Test(arguments: [(14, 4), (20, 6), (33, 9), (50, 3)])
    func tabLaw(_ size: (columns: Int, rows: Int)) {
        var h = PagerHarness(markdown: generatedDocument(sections: 6), columns: size.columns, rows: size.rows)
        let elements = h.state.active.elements
        let contentRows = size.rows - 1
        var reached: [Int] = []
        var moved = false
        for step in 0..<(elements.count + 2) {
            let oldTop = h.top
            h.send("<Tab>")
            guard let sel = h.state.selection, let r = h.selectedRows else { Issue.record("no selection"); return }
            if reached.last != sel.index { reached.append(sel.index) }
            let maxTop = h.state.active.viewport.maxTop(in: h.state.active.layout)
            let expectedTop: Row
            if r.lowerBound >= oldTop && r.upperBound <= oldTop + contentRows {
                expectedTop = oldTop
            } else if r.lowerBound < oldTop || r.count > contentRows {
                expectedTop = min(r.lowerBound, maxTop)
            } else {
                expectedTop = min(r.upperBound - contentRows, maxTop)
            }
            #expect(h.top == expectedTop, "step \(step) rows \(r) old top \(oldTop)")
            if !moved && h.top != oldTop {
                moved = true
                // The first move: the element's last row is the last content row.
                if r.count <= contentRows { #expect(r.upperBound - 1 == h.top + contentRows - 1) }
            }
            // Tab then Shift-Tab returns to the same element (from the second one on).
            if sel.index > 0 {
                var back = h
                back.send("<S-Tab><Tab>")
                #expect(back.state.selection?.index == sel.index)
            }
        }
        #expect(reached == Array(elements.indices))
    }

    @Test func followingAFragmentLinkAndComingBack() {
        let doc = "# Top\n\nSee [the install notes](#installation) now.\n\n" + numberedLines(12) +
            "\n\n## Installation\n\nRun it.\n\n" + numberedLines(12, prefix: "more ")
        var h = PagerHarness(markdown: doc, columns: 30, rows: 6)
        h.send("<Tab><Tab>")
        #expect(h.status == "#installation")
        h.send("<CR>")
        #expect(h.content.first == "Installation                  ")
        #expect(h.state.backStack.count == 1)
        #expect(h.state.selection == nil)
        h.send("<BS>")
        #expect(h.top == 0)
        #expect(h.state.backStack.isEmpty)
        h.send("<BS>")
        #expect(h.status == "Nothing to go back to")
        // '' after following a link returns too.
        h.send("<Tab><Tab><CR>''")
        #expect(h.top == 0)
        // Enter on a selected heading jumps to it.
        h.send("g<Tab><Tab><Tab>")
        #expect(h.state.selection.map { if case .heading = $0.element.kind { true } else { false } } == true)
        #expect(h.content.last == "Installation                  ")
        let before = h.top
        h.send("<CR>")
        #expect(h.content.first == "Installation                  ")
        #expect(h.state.backStack.count == 2)  // '' does not pop the back stack
        h.send("<BS>")
        #expect(h.top == before)
    }

    @Test func enterWithoutSelectionIsLineDown() {
        var h = PagerHarness(markdown: Self.doc, columns: 24, rows: 6)
        h.send("<CR><CR>")
        #expect(h.top == 2)
    }

    @Test func slugsFollowGitHub() {
        #expect(DocumentState.slug("Hello, World!") == "hello-world")
        #expect(DocumentState.slug("C++ & Rust") == "c--rust")
        #expect(DocumentState.slug("Café Ünïcode 日本") == "café-ünïcode-日本")
        #expect(DocumentState.slug("snake_case and-dash") == "snake_case-and-dash")
        #expect(DocumentState.slug("Version 2.0") == "version-20")
        let doc = "# Intro\n\n# Intro\n\n# Intro\n\n# Other"
        let state = PagerHarness(markdown: doc, columns: 20, rows: 5).state.active
        #expect(Set(state.slugs.keys) == ["intro", "intro-1", "intro-2", "other"])
        #expect(state.slugs["intro-2"]?.unit == 2)
        #expect(state.heading(slug: "intro-2")?.unit == 2 && state.heading(slug: "intro")?.unit == 0)
        #expect(state.heading(slug: "nope") == nil)
    }

    @Test func followingDuplicateHeadingAnchors() {
        let doc = "[second](#intro-1)\n\n# Intro\n\n" + numberedLines(10) + "\n\n# Intro\n\n" + numberedLines(10, prefix: "x ")
        var h = PagerHarness(markdown: doc, columns: 20, rows: 5)
        h.send("<Tab><CR>")
        #expect(h.content.first == "Intro               ")
        #expect(h.content[2] == "                    ")
        #expect(h.content[3] == "x 1                 ")
    }

    /// An image's caption is selectable: its path on the status line, Enter opens the picture
    /// with the system's viewer; a badge's label opens its link; a remote image's URL is shown.
    @Test func imagesAreSelectableAndOpenInTheViewer() {
        let doc = "![A sun](img/sun.png)\n\n[![CI](https://x.org/ci.svg)](https://x.org/actions) [![PyPI](https://x.org/v.svg)](https://pypi.org/x)\n\nSee ![far](https://x.org/far.png)."
        var h = PagerHarness(markdown: doc, columns: 60, rows: 8, path: "/docs/readme.md")
        #expect(h.content.prefix(5).map { $0.trimmingCharacters(in: .whitespaces) }
                == ["[image: A sun]", "", "[CI] [PyPI]", "", "See [image: far]."])
        h.send("<Tab>")
        #expect(h.status == "img/sun.png")
        h.send("<CR>")
        #expect(h.effects == [.openURL("/docs/img/sun.png")])
        h.effects = []
        h.send("<Tab><CR>")
        #expect(h.effects == [.openURL("https://x.org/actions")])
        h.effects = []
        h.send("<Tab><Tab>")
        #expect(h.status == "https://x.org/far.png")
    }

    @Test func relativeMarkdownLinkOpensAFileAndURLsOpenTheBrowser() {
        let doc = "[other](other.md#setup) [web](https://example.org/x) [up](../notes.md) [sp](a%20b.md)"
        var h = PagerHarness(markdown: doc, columns: 60, rows: 3, path: "/docs/guide/readme.md")
        h.send("<Tab><CR>")
        #expect(h.effects == [.openFile(path: "/docs/guide/other.md", fragment: "setup")])
        h.effects = []
        h.send("<Tab><CR>")
        #expect(h.effects == [.openURL("https://example.org/x")])
        h.effects = []
        h.send("<Tab><CR>")
        #expect(h.effects == [.openFile(path: "/docs/guide/../notes.md", fragment: nil)])
        h.effects = []
        h.send("<Tab><CR>")
        #expect(h.effects == [.openFile(path: "/docs/guide/a b.md", fragment: nil)])
    }

    @Test func openLinkedPushesBackAndBackspaceReturns() {
        var h = PagerHarness(markdown: numberedLines(20), columns: 20, rows: 5, path: "/d/a.md")
        h.send("5j")
        let spec = DocumentSpec(name: "b.md", path: "/d/b.md",
                                document: MarkdownParser.parse("# B\n\n" + numberedLines(10) + "\n\n## Setup\n\nhere\n\n" + numberedLines(10)))
        h.effects += h.state.update(.linkedFileLoaded(spec: spec, fragment: "setup"))
        #expect(h.state.current == 1)
        #expect(h.content.first == "Setup               ")
        h.send("<BS>")
        #expect(h.state.current == 0)
        #expect(h.top == 5)
        #expect(h.effects == [.leftDocument(0), .leftDocument(1)])
    }
}

/// A link to a local text file (a README's `src/main.c#L42`, `LICENSE`) opens it as text in
/// folio, at the line GitHub's `#L42` anchor names; Backspace comes back.
@Suite struct LinkedTextFileTests {
    static func textSpec(lines: Int, path: String) -> DocumentSpec {
        let store = ByteStore()
        Array((1...lines).map { "source line \($0)" }.joined(separator: "\n").utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        return DocumentSpec(name: "main.c", path: path, text: content)
    }

    @Test(arguments: [("L42", 42), ("L42-L50", 42), ("L7C3", 7)])
    func aLineAnchorOpensAtThatLine(fragment: String, line: Int) {
        var h = PagerHarness(markdown: numberedLines(20), columns: 30, rows: 6, path: "/d/README.md")
        h.send(.linkedFileLoaded(spec: Self.textSpec(lines: 100, path: "/d/src/main.c"), fragment: fragment))
        #expect(h.state.current == 1)
        #expect(h.content.first?.hasPrefix("source line \(line)") == true, "\(h.content)")
        h.send("<BS>")
        #expect(h.state.current == 0)
        #expect(h.top == 0)
    }

    @Test func anotherFragmentOrNoneOpensAtTheTop() {
        for fragment in [nil, "section", "L", "L0"] as [String?] {
            var h = PagerHarness(markdown: numberedLines(20), columns: 30, rows: 6, path: "/d/README.md")
            h.send(.linkedFileLoaded(spec: Self.textSpec(lines: 100, path: "/d/LICENSE"), fragment: fragment))
            #expect(h.content.first?.hasPrefix("source line 1") == true, "\(String(describing: fragment)): \(h.content)")
        }
    }

    @Test func lineFragments() {
        #expect(LinkTarget.line(fragment: "L42") == 42)
        #expect(LinkTarget.line(fragment: "L42-L50") == 42)
        #expect(LinkTarget.line(fragment: "L0") == nil)
        #expect(LinkTarget.line(fragment: "l42") == nil)
        #expect(LinkTarget.line(fragment: "L99999999999") == nil)
        #expect(LinkTarget.line(fragment: "usage") == nil)
        #expect(LinkTarget.line(fragment: nil) == nil)
    }
}

@Suite struct FootnoteSelectionTests {
    @Test func enterFollowsAFootnoteAndBackspaceReturns() {
        let doc = "Claim[^src] made.\n\n" + numberedLines(12) + "\n\n[^src]: The source."
        var h = PagerHarness(markdown: doc, columns: 30, rows: 6)
        h.send("<Tab>")
        #expect(h.status == "#user-content-fn-src")
        h.send("<CR>")
        // At the end of the document: the view is clamped, the definition on screen.
        #expect(h.top > 0)
        #expect(h.row(of: "1. The source. ↩") != nil)
        #expect(h.state.backStack.count == 1)
        // The definition's way back is a link too: Tab selects it, Enter goes to the reference.
        h.send("<Tab>")
        #expect(h.status == "#user-content-fnref-src")
        h.send("<CR>")
        #expect(h.content.first == "Claim[1] made.                ")
        h.send("<BS>")
        #expect(h.row(of: "1. The source. ↩") != nil)
        h.send("<BS>")
        #expect(h.top == 0)
    }
}
