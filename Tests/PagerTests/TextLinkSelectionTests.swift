@testable import Pager
import Testing

/// Tab / Shift-Tab / Enter on the OSC 8 links of a text document (`ls --hyperlink`, gcc).
@Suite struct TextLinkSelectionTests {
    static func link(_ url: String, _ text: String) -> String { "\u{1B}]8;;\(url)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\" }

    static var document: String {
        var lines = ["plain top line", "see \(link("https://a.example/", "alpha")) and \(link("https://b.example/", "beta"))"]
        lines += (1...30).map { "filler \($0)" }
        lines.append("far \(link("https://c.example/", "gamma"))")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func tabWalksTheLinksOfALineThenFindsOneBelowTheScreen() {
        var h = PagerHarness(text: Self.document, columns: 40, rows: 6)
        h.send("<Tab>")
        #expect(h.state.selection?.element.kind == .link("https://a.example/"))
        #expect(h.state.selection?.element.range == 4..<9)  // "alpha" in the visible text
        h.send("<Tab>")
        #expect(h.state.selection?.element.kind == .link("https://b.example/"))
        h.send("<Tab>")
        #expect(h.state.selection?.element.kind == .link("https://c.example/"))
        #expect(h.content.contains { $0.hasPrefix("far gamma") })  // scrolled to show it
        h.send("<Tab>")
        #expect(h.state.selection?.element.kind == .link("https://c.example/"))
        #expect(h.state.message == "No more links")
        h.send("<S-Tab>")
        #expect(h.state.selection?.element.kind == .link("https://b.example/"))
    }

    @Test func enterOpensTheSelectedLink() {
        var h = PagerHarness(text: Self.document, columns: 40, rows: 6)
        h.send("<Tab><CR>")
        #expect(h.effects.contains { if case .openURL("https://a.example/") = $0 { return true }; return false })
    }

    @Test func aDocumentWithoutLinksSaysSo() {
        var h = PagerHarness(text: "one\ntwo\n", columns: 20, rows: 4)
        h.send("<Tab>")
        #expect(h.state.selection == nil)
        #expect(h.state.message == "No more links")
    }
}
