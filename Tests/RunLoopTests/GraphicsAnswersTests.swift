import LineLayout
import TerminalScreen
import Testing
@testable import Session

/// What the terminal's answers to the picture questions choose (`--images=auto`), for the
/// pager and print mode alike.
@Suite struct GraphicsAnswersTests {
    @Test func eachTerminalGetsTheBestItSays() {
        let da1 = TerminalReply.deviceAttributes
        #expect(GraphicsAnswers([da1]).mode == nil)
        #expect(GraphicsAnswers([.sixelGraphics, da1]).mode == .sixel)
        #expect(GraphicsAnswers([.kittyGraphics(ok: true), .sixelGraphics, da1]).mode == .kitty)
        #expect(GraphicsAnswers([.kittyGraphics(ok: false), .sixelGraphics, da1]).mode == .sixel)
        // iTerm2 and WezTerm list sixel too: their own images win.
        #expect(GraphicsAnswers([.terminalName("iTerm2 3.5.0"), .sixelGraphics, da1]).mode == .iterm)
        #expect(GraphicsAnswers([.terminalName("WezTerm 20240203-110809-5046fc22"), .sixelGraphics]).mode == .iterm)
        // Other names change nothing; kitty's answer still wins over a name.
        #expect(GraphicsAnswers([.terminalName("foot(1.16.2)"), .sixelGraphics]).mode == .sixel)
        #expect(GraphicsAnswers([.terminalName("tmux 3.4")]).mode == nil)
        #expect(GraphicsAnswers([.terminalName("iTerm2 3.5.0"), .kittyGraphics(ok: true)]).mode == .kitty)
    }

    @Test func theCellSizeIsKeptWhenSaid() {
        #expect(GraphicsAnswers([.sixelGraphics]).cell == nil)
        let answers = GraphicsAnswers([.cellSize(width: 9, height: 19), .deviceAttributes])
        #expect(answers.cell?.width == 9 && answers.cell?.height == 19)
        let show = PictureShow(cellWidth: 8, cellHeight: 16, maxRows: 10, deferred: true)
        let sized = show.with(mode: .sixel, cell: answers.cell)
        #expect(sized.cellWidth == 9 && sized.cellHeight == 19 && sized.mode == .sixel && sized.maxRows == 10)
        #expect(show.with(mode: .kitty).cellWidth == 8)
    }
}
