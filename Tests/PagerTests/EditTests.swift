import MarkdownModel
import Testing
import TerminalScreen
@testable import Pager

@Suite struct EditTests {
    func state(path: String?) -> PagerState {
        let markdown = (1...40).map { "Line \($0) of text." }.joined(separator: "\n\n")
        var config = PagerConfig()
        config.scrollbar = .never
        config.theme = Theme(depth: .none)
        let spec = DocumentSpec(name: "doc.md", path: path, document: MarkdownParser.parse(markdown))
        return PagerState(documents: [spec], config: config, rows: 6, columns: 30)
    }

    @Test func vEditsTheFileAtTheSourceLineOnTop() {
        var s = state(path: "/docs/doc.md")
        _ = s.update(.key(.char("1")))
        _ = s.update(.key(.char("1")))
        _ = s.update(.key(.char("g")))  // source line 11: "Line 6 of text." (paragraphs on odd lines)
        let effects = s.update(.key(.char("v")))
        #expect(effects == [.edit(path: "/docs/doc.md", line: 11, document: 0)])
    }

    @Test func standardInputCannotBeEdited() {
        var s = state(path: nil)
        #expect(s.update(.key(.char("v"))).isEmpty)
        #expect(s.message == "Cannot edit standard input")
    }
}
