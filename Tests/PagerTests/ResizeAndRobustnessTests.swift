import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// A long document with every kind of block, deterministic.
func generatedDocument(sections: Int = 12) -> String {
    var parts: [String] = []
    for s in 1...sections {
        parts.append("## Section \(s) with a longer title")
        parts.append("Paragraph \(s) has [a link \(s)](#section-\(max(1, s - 1))-with-a-longer-title) and some words that wrap at narrow widths, **bold \(s)** and `code`.")
        parts.append("- item \(s)a with text\n- item \(s)b with more text that wraps\n  - nested \(s)")
        parts.append("> quoted \(s) text that goes on for a while")
        parts.append("```swift\nlet x\(s) = \(s)  // a comment that is rather long\n```")
        if s % 3 == 0 { parts.append("| a | b |\n|---|---|\n| \(s) | cell with words |") }
    }
    return parts.joined(separator: "\n\n")
}

@Suite struct ResizeTests {
    static let doc = generatedDocument()

    /// Re-wrapping to any width keeps the block on the top row; the edges stay edges.
    @Test func resizeKeepsTheTopBlock() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 10)
        for start in [7, 30, 55, 90] {
            for width in 10...80 {
                h.send(.resize(rows: 10, columns: 40))
                h.send("g\(start)j")
                let block = h.topBlock
                h.send(.resize(rows: 10, columns: width))
                #expect(h.topBlock == block, "start \(start) width \(width)")
                #expect(h.state.active.layout.width == width)
            }
        }
    }

    @Test func bottomStaysBottomAndTopStaysTop() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 10)
        h.send("G")
        for width in 10...80 {
            h.send(.resize(rows: 10, columns: width))
            #expect(h.top == h.state.active.viewport.maxTop(in: h.state.active.layout), "width \(width)")
            #expect(h.status.hasSuffix("(END)") || width < 20, "width \(width)")
        }
        h.send("g")
        for width in 10...80 {
            h.send(.resize(rows: 7, columns: width))
            #expect(h.top == 0)
        }
    }

    @Test func resizeChangesHeightToo() {
        var h = PagerHarness(markdown: numberedLines(20), columns: 20, rows: 6)
        h.send("5j")
        h.send(.resize(rows: 3, columns: 20))
        #expect(h.content == ["line 6              ", "line 7              "])
        h.send("<Space>")  // 2 content rows: a page moves 1
        #expect(h.top == 6)
    }
}

/// Every key the keymap knows, as notation.
let allKeys: [String] = {
    var keys = "jekyfbzwdugG<>%pm'=rRhHqQZ:/?&nNo][0123456789xa".map { $0 == "<" ? "<lt>" : String($0) }
    keys += ["<Space>", "<CR>", "<Esc>", "<Tab>", "<S-Tab>", "<BS>", "<Up>", "<Down>", "<PageUp>",
             "<PageDown>", "<Home>", "<End>", "<F1>", "<A-v>", "<A-u>", "<A-Left>", "<Left>", "<Del>"]
    keys += "nepybfvdugkrlozc".map { "<C-\($0)>" }
    return keys
}()

@Suite struct TinyScreenTests {
    static let doc = "# T\n\n[link](#t) and [x](https://e.org)\n\n" + numberedLines(8)

    @Test(arguments: [(1, 1), (2, 3), (3, 2)])
    func everyKeyOnATinyScreen(_ size: (rows: Int, columns: Int)) {
        for key in allKeys {
            var h = PagerHarness(markdown: Self.doc, columns: size.columns, rows: size.rows)
            h.send(key)
            _ = h.screen
            h.send("j" + key + "j" + key)
            _ = h.screen
        }
        // And all of them in a row, twice, in all modes they open.
        var h = PagerHarness(markdown: Self.doc, columns: size.columns, rows: size.rows)
        for key in allKeys + allKeys {
            h.send(key)
            _ = h.screen
            _ = h.status
        }
        for event in [PagerEvent.mouse(MouseEvent(kind: .press(.left), row: 0, column: 0)),
                      .mouse(MouseEvent(kind: .drag(.left), row: 5, column: 5)),
                      .mouse(MouseEvent(kind: .release(.left), row: 5, column: 5)),
                      .mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0)),
                      .resize(rows: 0, columns: 0), .resize(rows: 1, columns: 1)] {
            h.send(event)
            _ = h.screen
        }
    }

    @Test func emptyDocument() {
        for key in allKeys {
            var h = PagerHarness(markdown: "", columns: 10, rows: 3)
            h.send(key + "<CR>")
            _ = h.screen
        }
    }
}
