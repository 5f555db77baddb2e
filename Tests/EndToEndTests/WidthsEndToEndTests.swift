import Foundation
import Testing

/// Widths as the terminal draws them: text whose clusters tmux draws code point by code point
/// (Devanagari conjuncts, Arabic number signs joined to the letter after them) shows in folio
/// exactly as `cat` shows it in the same pane. Counted narrower than drawn, a cluster's last
/// columns were overwritten by what folio placed after it ("हिन्दी में संयुक्ताक्षर" came out
/// as "हिन्दीमें संयुक्तक्र", `a؀؀؀؀b|end` as `a؀؀|end`).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct WidthsEndToEndTests {
    /// One paragraph per line (blank lines between), so Markdown and text show the same rows;
    /// each ends in `|`, which tmux's capture keeps where folio and cat put it.
    static let lines = [
        "हिन्दी में संयुक्ताक्षर|",
        "क्ष त्र ज्ञ श्र स्त्री द्ध्र्य|",
        "a\u{600}\u{600}\u{600}\u{600}b|end",
        "\u{601}\u{662}\u{663} \u{6DD}\u{661}\u{662} \u{70F}x \u{8E2}y|",
        "कि की क्षि न्दी|",
    ]

    @Test(arguments: ["widths.md", "widths.txt"])
    func clustersShowAsCatShowsThem(name: String) throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.lines.joined(separator: "\n\n") + "\n", to: name, in: dir)
        // cat first, then (on Enter) folio in the same pane.
        let pane = try FolioPane.shell(
            "cat \"$T/\(name)\"; echo CAT-DONE; read _; exec \"$FOLIO_EXE\" --no-scrollbar \"$T/\(name)\"",
            columns: 60, rows: 16, dir: dir)
        let catScreen = try #require(pane.wait(text: "CAT-DONE"))
        let shownByCat = Array(catScreen.prefix(2 * Self.lines.count - 1))
        #expect(shownByCat.filter { !$0.isEmpty }.count == Self.lines.count, "\(shownByCat)")
        try pane.type("\r")
        let folioScreen = try #require(pane.waitForPager(name: name))
        let shownByFolio = Array(folioScreen.prefix(shownByCat.count))
        #expect(shownByFolio == shownByCat, "folio:\n\(shownByFolio.joined(separator: "\n"))\ncat:\n\(shownByCat.joined(separator: "\n"))")
    }
}
