import Pager
import TerminalIO
import TerminalScreen

/// A screen of nothing but a status line, for the questions asked before the session's pager
/// exists (`WaitForKind`'s "Waiting for input…", `BinaryQuestion`'s "may be a binary file"):
/// the frame is the pager's (`PagerState.statusOnlyFrame`), drawn anew when the terminal's
/// size changes or it comes back from a suspend.
struct StatusScreen {
    let message: String
    let name: String
    let path: String?
    let config: PagerConfig
    let terminal: any TerminalBackend
    private var renderer = FrameRenderer()

    init(_ message: String, name: String, path: String?, config: PagerConfig, terminal: any TerminalBackend) {
        (self.message, self.name, self.path, self.config, self.terminal) = (message, name, path, config, terminal)
    }

    mutating func draw() {
        let size = terminal.size()
        let (frame, contentRows) = PagerState.statusOnlyFrame(message, name: name, path: path, config: config,
                                                              rows: size.rows, columns: size.columns)
        try? terminal.write(renderer.render(frame, depth: config.theme.depth, scrollRows: 0..<contentRows))
    }

    /// A signal while the question is up: a resize or a continue draws the screen again, a
    /// suspend request suspends first; any other signal ends folio and is returned.
    mutating func take(_ signal: Signal) -> Signal? {
        switch signal {
        case .resize, .continued:
            break
        case .suspendRequest:
            try? terminal.suspend()
        default:
            return signal
        }
        renderer.invalidate()
        draw()
        return nil
    }
}
