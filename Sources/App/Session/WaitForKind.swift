import LineLayout
import Pager
import TerminalIO
import TerminalScreen

/// The pager's first moments on a stream that has not written yet (a FIFO nobody opened for
/// writing, `(sleep 9; cat x.md) | folio`): its kind (Markdown or text) is decided from its
/// first bytes, so the document cannot be laid out before they come. The terminal shows that
/// folio is waiting, and keys are read meanwhile: `q`, `Q` and Ctrl-C quit, as they would
/// in the pager; a resize redraws.
enum WaitForKind {
    enum Outcome: Equatable {
        /// The kind is decided (`doc.kind`), the document can be opened.
        case ready
        /// The reader quit while folio waited.
        case quit
        /// A signal that ends folio came (the caller ends as for it).
        case signal(Signal)
    }

    /// What the status line says meanwhile.
    static let message = "Waiting for input… (q quits)"

    static func wait(for doc: inout LoadedDocument, terminal: any TerminalBackend, config: PagerConfig) -> Outcome {
        guard let fd = doc.kindPendingFD, let store = doc.store, let reader = doc.reader else { return .ready }
        var screen = StatusScreen(message, name: doc.name, path: doc.path, config: config, terminal: terminal)
        var decoder = KeyDecoder()
        screen.draw()
        while true {
            for event in terminal.waitForInput(timeoutMilliseconds: -1, wakeFD: fd) {
                switch event {
                case .wake:
                    // The first bytes: sniffed as when they come at once.
                    guard let kind = Input.sniff(fd: fd, store: store, reader: reader, firstBytesWait: 0) else { continue }
                    doc.kind = kind
                    Input.settle(&doc)
                    return .ready
                case .bytes(let bytes):
                    for case .key(let key) in decoder.feed(bytes)
                    where key == .char("q") || key == .char("Q") || key == .ctrl("c") {
                        return .quit
                    }
                case .signal(let signal):
                    if let ending = screen.take(signal) { return .signal(ending) }
                case .timeout:
                    break
                }
            }
        }
    }
}
