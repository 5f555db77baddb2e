import ByteInput
import Testing
import LineLayout
import Pager
import Print

/// Text printed whole (print mode to a terminal, `-F`): every row of every line, whatever the
/// estimates from byte lengths said before the lines were laid out.
@Suite struct TextPrintTests {
    static func printed(_ text: String, width: Int) -> String {
        let store = ByteStore()
        Array(text.utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        let layout = DocumentLayout(content: content, options: LayoutOptions(width: width))
        return String(decoding: PrintRenderer.render(layout, theme: nil), as: UTF8.self)
    }

    /// 15 NULs are 30 columns (`^@` each): three rows at width 10, not the two that 15 bytes
    /// suggest.
    @Test func controlsTakeTheirShownWidth() {
        #expect(Self.printed(String(repeating: "\u{0}", count: 15) + "\n", width: 10)
                == "^@^@^@^@^@\n^@^@^@^@^@\n^@^@^@^@^@\n")
    }

    /// Nine CJK characters are 18 columns in 27 bytes: two rows at width 10, no blank third.
    @Test func wideTextIsNotPadded() {
        #expect(Self.printed("日本語日本語日本語\nend\n", width: 10) == "日本語日本\n語日本語\nend\n")
    }

    /// A tab is 8 columns in one byte: three are 24 columns, so `x` is the fifth column of
    /// the third row (blank rows print empty: trailing blanks are dropped).
    @Test func tabsTakeTheirExpandedWidth() {
        #expect(Self.printed("\t\t\tx\n", width: 10) == "\n\n    x\n")
    }
}
