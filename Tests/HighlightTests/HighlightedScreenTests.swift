import LineLayout
import MarkdownModel
import Styling
import Testing

/// Highlighted code on screen: each row as text with a visible right edge, and under it the
/// role of each column (letters of `TestGrammars.letter`, blank: no role). Expected roles come
/// from Python's meaning (`def`/`return` keywords, the comment, the string), not from output.
@Suite(.enabled(if: TestGrammars.available, "grammars not built: run `make grammars`"))
struct HighlightedScreenTests {
    static let doc = "```py\ndef f(x):\n    return \"ab\" # note\n```\n"

    func screen(width: Int, highlighter: CodeHighlighter?) -> String {
        let layout = DocumentLayout(document: MarkdownParser.parse(Self.doc),
                                    options: LayoutOptions(width: width, highlighter: highlighter))
        var out: [String] = []
        for u in layout.unitRange {
            for line in layout.lines(ofUnit: u) {
                var text = "", roles = ""
                for span in line.spans {
                    text += span.text
                    let isCode = span.style.role == .codeBlock
                    for _ in 0..<span.width { roles.append(isCode ? TestGrammars.letter(span.style.syntax) : " ") }
                }
                let pad = String(repeating: " ", count: width - line.width)
                out.append(text + pad + "|")
                out.append(roles + pad + "|")
            }
        }
        return out.joined(separator: "\n")
    }

    /// Rows at `width`: text then roles, padded to the edge.
    func expected(_ rows: [String], width: Int) -> String {
        rows.map { $0 + String(repeating: " ", count: width - $0.count) + "|" }.joined(separator: "\n")
    }

    static let rows40 = [
        "  [py]", "",
        "  def f(x):", "  kkk f v",
        "      return \"ab\" # note", "      kkkkkk ssss cccccc",
    ]

    @Test(arguments: [40, 80])
    func wideScreens(width: Int) {
        #expect(screen(width: width, highlighter: TestGrammars.codeHighlighter) == expected(Self.rows40, width: width))
    }

    @Test(arguments: [20, 40, 80])
    func highlightingNeverChangesRows(width: Int) {
        let plain = DocumentLayout(document: MarkdownParser.parse(Self.doc), options: LayoutOptions(width: width))
        let lit = DocumentLayout(document: MarkdownParser.parse(Self.doc),
                                 options: LayoutOptions(width: width, highlighter: TestGrammars.codeHighlighter))
        let plainRows = plain.rowRange.map(plain.line(at:)), litRows = lit.rowRange.map(lit.line(at:))
        #expect(plainRows.map(\.plainText) == litRows.map(\.plainText))
        #expect(plainRows.map(\.width) == litRows.map(\.width))
    }

    /// At width 20 the comment wraps onto a continuation row: its role follows the text.
    @Test func width20WrapsWithRoles() {
        #expect(screen(width: 20, highlighter: TestGrammars.codeHighlighter) == expected([
            "  [py]", "",
            "  def f(x):", "  kkk f v",
            "      return \"ab\" # ", "      kkkkkk ssss cc",
            "↪ note", "  cccc",
        ], width: 20))
    }

    @Test func withoutHighlighterNoRoles() {
        let s = screen(width: 40, highlighter: nil)
        #expect(!s.contains("k"))
    }
}
