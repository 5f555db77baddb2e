import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import TextModel
import TerminalIO
import TerminalScreen
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// The terminal's side of the event loop: decoded input to events, the colour query's replies
/// awaited before the first frame and after `q`.
extension EventLoop {
    mutating func handle(_ input: InputEvent) -> [PagerEffect] {
        switch input {
        case .key(let key): return apply(.key(key))
        case .mouse(let m): return apply(.mouse(m))
        case .paste(let text): return apply(.paste(text))
        case .reply(let reply):
            var effects: [PagerEffect] = []
            switch reply {
            case .kittyGraphics, .sixelGraphics, .cellSize, .terminalName: graphicsAnswers?.take(reply)
            case .deviceAttributes:
                replyExpectedSince = nil
                effects += graphicsAnswered()
            default: break
            }
            return effects + apply(.terminalReply(reply))
        }
    }

    /// DA1 ended the replies to the graphics query: pictures are drawn as the answers choose
    /// (`GraphicsAnswers.mode`; blocks stay otherwise), at the cell size the terminal said
    /// when `TIOCGWINSZ` did not. Once.
    mutating func graphicsAnswered() -> [PagerEffect] {
        guard let answers = graphicsAnswers, !answers.done else { return [] }
        graphicsAnswers?.done = true
        guard let show = state.config.pictures else { return [] }
        let cell = terminal.cellPixels() == nil ? answers.cell : nil
        guard answers.mode != nil || cell != nil else { return [] }
        return apply(.picturesReady(show.with(mode: answers.mode ?? show.mode, cell: cell)))
    }

    /// After a resize: pictures laid out again when the cell's pixels changed (the font's size
    /// did: kitty's Ctrl+Shift+= and its kin send a resize), so that they keep their shape.
    mutating func picturesFollowTheCell() -> [PagerEffect] {
        guard let show = state.config.pictures, let cell = terminal.cellPixels(),
              cell.width != show.cellWidth || cell.height != show.cellHeight else { return [] }
        return apply(.picturesReady(show.fitting(screenRows: state.screenRows, cell: cell)))
    }

    /// Before the first frame: reads the terminal's replies to the colour query until DA1
    /// answers or `replyDeadline` passes (then the pager hears `.terminalQueryTimedOut`).
    /// Keys typed meanwhile are decoded and applied in order; their effects are returned.
    mutating func waitForTerminalReply() throws(Leaving) -> [PagerEffect] {
        var effects: [PagerEffect] = []
        let start = queried ?? clock.now()
        while state.awaitingTerminal {
            let elapsed = Int(((clock.now() - start) * 1000).rounded(.down))
            guard elapsed < replyDeadline else { break }
            for event in terminal.waitForInput(timeoutMilliseconds: Int32(replyDeadline - elapsed)) {
                switch event {
                case .bytes(let bytes):
                    for input in decoder.feed(bytes, at: clock.milliseconds()) { effects += handle(input) }
                case .signal(.resize):
                    let size = terminal.size()
                    effects += apply(.resize(rows: size.rows, columns: size.columns)) + picturesFollowTheCell()
                case .signal(let signal) where signal != .suspendRequest && signal != .continued:
                    throw leave(dueTo: signal)
                case .signal, .wake, .timeout:
                    break
                }
            }
        }
        if state.awaitingTerminal { effects += apply(.terminalQueryTimedOut) }
        return effects
    }

    /// On quitting just after asking the terminal (a reply may be on its way): read its
    /// replies up to DA1 for a moment, so they reach folio and not the shell.
    mutating func finishReplies() {
        guard let since = replyExpectedSince, clock.now() - since < 0.5 else { return }
        let deadline = min(since + 0.5, clock.now() + 0.15)
        while replyExpectedSince != nil {
            let left = Int32((deadline - clock.now()) * 1000)
            guard left > 0 else { break }
            for case .bytes(let bytes) in terminal.waitForInput(timeoutMilliseconds: min(left, 100)) {
                for case .reply(let r) in decoder.feed(bytes) where r == .deviceAttributes { replyExpectedSince = nil }
            }
        }
    }
}
