import LineLayout
import Pager
import TerminalIO
import TerminalScreen

/// A screen of nothing but a status line, for the questions asked before the session's pager
/// exists (`WaitForKind`'s "Waiting for input…", `BinaryQuestion`'s "may be a binary file"):
/// drawn from a throwaway `PagerState` holding one empty document, never the session's (the
/// event loop is the one caller of `update` on that).
enum StatusScreen {
    static func draw(_ message: String, name: String, path: String?, config: PagerConfig,
                     terminal: any TerminalBackend, renderer: inout FrameRenderer) {
        let size = terminal.size()
        var screen = PagerState(documents: [DocumentSpec(name: name, path: path, text: TextContent(store: ByteStore()))],
                                config: config, rows: size.rows, columns: size.columns)
        _ = screen.update(.notice(message))
        try? terminal.write(renderer.render(screen.frame(), depth: config.theme.depth, scrollRows: 0..<screen.contentRows))
    }
}
