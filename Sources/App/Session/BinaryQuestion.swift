import LineLayout
import Pager
import TerminalIO
import TerminalScreen
import TextModel

/// less's question before it shows a file that looks binary (`BinaryFile`'s rule): the status
/// line says `"NAME" may be a binary file.  See it anyway? `, and `y` (or `Y`) shows it; any
/// other key leaves it out, as less does: with no file left folio quits (status 1), otherwise
/// it shows the others. Asked for the files folio reads itself (`LoadedDocument.asksIfBinary`:
/// not standard input, a FIFO or a preprocessor's output), never in print mode, never with
/// `-f`. folio asks about every such file when it starts, in order, where less asks about
/// each when it first opens it (`:n`).
enum BinaryQuestion {
    enum Outcome: Equatable {
        /// The documents left (maybe none); `replies`: what the terminal answered meanwhile
        /// (its colours), for the pager.
        case answered(replies: [TerminalReply])
        /// A signal that ends folio came (the caller ends as for it).
        case signal(Signal)
    }

    /// less's words.
    static func question(name: String) -> String {
        "\"\(name)\" may be a binary file.  See it anyway? "
    }

    /// Whether `doc` is asked about: its first bytes look binary. A decompressed file or a
    /// replacement file that has not brought `BinaryFile.prefixLength` bytes yet is read that
    /// far now (a regular file behind it: it comes); any other stream (/proc) is judged by
    /// what it has brought, since a read could wait for ever (`/proc/kmsg`).
    static func applies(to doc: LoadedDocument) -> Bool {
        guard doc.asksIfBinary, let store = doc.store else { return false }
        if store.count < BinaryFile.prefixLength, doc.filter != nil, let reader = doc.reader, !reader.finished {
            _ = reader.readSynchronously(maxBytes: BinaryFile.prefixLength)
        }
        return BinaryFile.looksBinary(store.bytes(0..<min(store.count, BinaryFile.prefixLength)))
    }

    /// Asks about each document that looks binary and leaves out those not wanted; the
    /// readers of the documents kept are renumbered to their new places.
    static func ask(_ documents: inout [LoadedDocument], terminal: any TerminalBackend, config: PagerConfig) -> Outcome {
        var replies: [TerminalReply] = []
        var kept: [LoadedDocument] = []
        for doc in documents {
            guard applies(to: doc) else { kept.append(doc); continue }
            switch answer(question(name: doc.name), terminal: terminal, config: config, replies: &replies) {
            case .yes: kept.append(doc)
            case .no: continue
            case .signal(let signal): return .signal(signal)
            }
        }
        if kept.count != documents.count {
            for (i, doc) in kept.enumerated() { doc.reader?.renumber(i) }
            documents = kept
        }
        return .answered(replies: replies)
    }

    private enum Answer { case yes, no, signal(Signal) }

    /// Shows `question` on the status line of an empty screen and waits for a key.
    private static func answer(_ question: String, terminal: any TerminalBackend, config: PagerConfig,
                               replies: inout [TerminalReply]) -> Answer {
        var screen = StatusScreen(question, name: "", path: nil, config: config, terminal: terminal)
        var decoder = KeyDecoder()
        func take(_ inputs: [InputEvent]) -> Answer? {
            for input in inputs {
                switch input {
                case .key(.char("y")), .key(.char("Y")): return .yes
                case .key: return .no
                case .reply(let reply): replies.append(reply)
                case .mouse, .paste: continue
                }
            }
            return nil
        }
        screen.draw()
        while true {
            // (A lone ESC is the Escape key once no more bytes follow it.)
            let timeout = decoder.hasPending ? EventLoop.escapeTimeout : -1
            for event in terminal.waitForInput(timeoutMilliseconds: timeout) {
                switch event {
                case .bytes(let bytes):
                    if let answer = take(decoder.feed(bytes)) { return answer }
                case .timeout:
                    if let answer = take(decoder.flushTimeout()) { return answer }
                case .signal(let signal):
                    if let ending = screen.take(signal) { return .signal(ending) }
                case .wake:
                    break
                }
            }
        }
    }
}
