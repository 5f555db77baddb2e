import LineLayout
import TerminalScreen

extension PagerState {
    /// A screen of nothing but a status line saying `message` over an empty document named
    /// `name`: what folio shows while it asks something before its pager exists (waiting for a
    /// stream's first bytes, whether to show a binary file). Pure: a state made and dropped
    /// here, never the session's. `contentRows`: the rows above the status line.
    public static func statusOnlyFrame(_ message: String, name: String, path: String?, config: PagerConfig,
                                       rows: Int, columns: Int) -> (frame: Grid, contentRows: Int) {
        var screen = PagerState(documents: [DocumentSpec(name: name, path: path, text: TextContent(store: FixedBytes()))],
                                config: config, rows: rows, columns: columns)
        _ = screen.update(.notice(message))
        return (screen.frame(), screen.contentRows)
    }
}
