import Foundation
import Testing

/// `--theme=auto` against a real terminal: tmux answers OSC 11 from its pane's colours, so
/// a pane given a white or a black background must get the light or the dark palette.
@Suite(.serialized) struct ThemeEndToEndTests {
    static let document = "# Title\n\nSome text and `code`.\n"

    /// The heading's colour as tmux shows it (`capture-pane -e`): 256 colours in the pane
    /// (`TERM=xterm-256color`), the palettes' heading 1: light #af5f00 = 130, dark #ffaf5f = 215.
    static let lightHeading = "38;5;130m"
    static let darkHeading = "38;5;215m"

    func run(background: String, arguments: [String]) throws -> (pane: FolioPane, screen: [String]?) {
        let dir = try E2E.temporaryDirectory()
        _ = try E2E.write(Self.document, to: "doc.md", in: dir)
        // The pane sets its own colours on its own server (TMUX is set inside the pane), then
        // folio starts and asks.
        let script = "tmux select-pane -P 'bg=\(background)' && exec \"$FOLIO_EXE\" "
            + arguments.map(\.shellQuoted).joined(separator: " ") + " \"$T/doc.md\""
        let pane = try FolioPane.shell(script, columns: 40, rows: 6, dir: dir, environment: ["COLORFGBG": "", "NO_COLOR": ""])
        let screen = pane.wait { _ in
            pane.tmux.capture(escapes: true).contains { $0.contains("Title") && $0.contains("38;5;") }
        }
        return (pane, screen)
    }

    func headingRow(_ pane: FolioPane) -> String {
        pane.tmux.capture(escapes: true).first { $0.contains("Title") } ?? pane.screen.joined(separator: "\n")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aWhitePaneGetsTheLightPalette() throws {
        let (pane, screen) = try run(background: "#ffffff,fg=#000000", arguments: ["--theme=auto"])
        #expect(screen != nil, "folio never drew its heading in colour")
        #expect(pane.wait { _ in headingRow(pane).contains(Self.lightHeading) } != nil, "\(headingRow(pane).debugDescription)")
        // Keys still work after the reply (none of it was taken as keys): q quits.
        try pane.keys("q")
        #expect(pane.wait { !$0.joined().contains("Title") } != nil)
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aBlackPaneGetsTheDarkPalette() throws {
        let (pane, _) = try run(background: "#000000,fg=#ffffff", arguments: ["--theme=auto"])
        #expect(pane.wait { _ in headingRow(pane).contains(Self.darkHeading) } != nil, "\(headingRow(pane).debugDescription)")
    }

    /// Print mode to a terminal asks too; into a pipe it never does (colour forced: the
    /// fallback, dark).
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func printModeToATerminalAsksAndToAPipeDoesNot() throws {
        let dir = try E2E.temporaryDirectory()
        _ = try E2E.write(Self.document, to: "doc.md", in: dir)
        let script = "tmux select-pane -P 'bg=#ffffff,fg=#000000' && \"$FOLIO_EXE\" --print \"$T/doc.md\" && "
            + "\"$FOLIO_EXE\" --color=always \"$T/doc.md\" | sed -n 1p | sed 's/^/piped /'; sleep 30"
        let pane = try FolioPane.shell(script, columns: 40, rows: 8, dir: dir, environment: ["COLORFGBG": "", "NO_COLOR": ""])
        #expect(pane.wait { $0.contains { $0.hasPrefix("piped") } } != nil)
        let rows = pane.tmux.capture(escapes: true)
        let printed = rows.first { $0.contains("Title") && !$0.contains("piped") } ?? ""
        let piped = rows.first { $0.contains("piped") } ?? ""
        #expect(printed.contains(Self.lightHeading), "\(printed.debugDescription)")
        #expect(piped.contains(Self.darkHeading), "\(piped.debugDescription)")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aNamedThemeIsNotAskedAbout() throws {
        let (pane, _) = try run(background: "#ffffff,fg=#000000", arguments: ["--theme=dark"])
        #expect(pane.wait { _ in headingRow(pane).contains(Self.darkHeading) } != nil, "\(headingRow(pane).debugDescription)")
    }
}
