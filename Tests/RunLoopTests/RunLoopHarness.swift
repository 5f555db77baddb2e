import ByteInput
import Foundation
import LineLayout
import MarkdownModel
import Pager
import TerminalIO
import TestSupport
@testable import Session

/// folio's event loop.
typealias PagerLoop = Session.EventLoop

/// A run loop over an in-memory Markdown document (standard input, as far as reading
/// positions know: keyed by its content) and a `FakeTerminal`, with its reading positions in a
/// fresh temporary folder. No file is read, no tty opened.
struct RunLoopHarness {
    let terminal: FakeTerminal
    let stateDirectory: URL
    var loop: PagerLoop

    /// Twenty short lines, `line 1` … `line 20`, one paragraph each.
    static let twentyLines = (1...20).map { "line \($0)" }.joined(separator: "\n\n") + "\n"

    init(markdown: String = RunLoopHarness.twentyLines, terminal: FakeTerminal, config: PagerConfig = PagerConfig(),
         preview: Bool = false) throws {
        self.terminal = terminal
        stateDirectory = try ScratchDirectory.make("runloop")
        let bytes = Array(markdown.utf8)
        let loaded = [LoadedDocument(name: "stdin", path: nil, bytes: bytes)]
        let spec = DocumentSpec(name: "stdin", path: nil, document: MarkdownParser.parse(bytes).document, isPreview: preview)
        let size = terminal.size()
        let state = PagerState(documents: [spec], config: config, rows: size.rows, columns: size.columns)
        let positions = PositionsBridge(environment: ["FOLIO_STATE_DIR": stateDirectory.path], enabled: true)
        loop = PagerLoop(terminal: terminal, state: state, positions: positions,
                         inputs: [DocumentInput(doc: 0, phase: preview ? .preview : .complete, source: loaded[0], store: ByteStore())])
        loop.inputs[0].shown = true
        loop.watch = false
        // Only the script decides: no periodic save, no colour deadline passing on a busy machine.
        loop.autosaveInterval = .infinity
        loop.replyDeadline = 60_000
    }

    /// A loop over documents the test made (`specs`, with their `inputs`), in a
    /// scripted world (`scriptTheWorld`) whose mailbox the test may have handed to readers
    /// and parse workers already (`mailbox`).
    init(terminal: FakeTerminal, config: PagerConfig = PagerConfig(), specs: [DocumentSpec],
         inputs: [DocumentInput], mailbox: ScriptedMailbox) throws {
        try self.init(terminal: terminal, config: config)
        let size = terminal.size()
        loop.state = PagerState(documents: specs, config: config, rows: size.rows, columns: size.columns)
        loop.inputs = inputs
        if !inputs.isEmpty { loop.inputs[0].shown = true }  // as the first document is
        scriptTheWorld(mailbox: mailbox)
    }

    /// Puts the loop in a scripted world: its clock moves only at `.advance` and its mailbox
    /// hands over only what `.deliver` and `.release` say (no descriptor, no real time).
    @discardableResult
    mutating func scriptTheWorld(mailbox: ScriptedMailbox = ScriptedMailbox()) -> (clock: ScriptedClock, mailbox: ScriptedMailbox) {
        let clock = ScriptedClock()
        loop.clock = clock
        loop.mailbox = mailbox
        terminal.clock = clock
        terminal.mailbox = mailbox
        return (clock, mailbox)
    }

    /// Runs the loop to its end.
    mutating func run() -> PagerLoop.Ending {
        loop.run(hadErrors: false)
    }

    /// Whether the store holds a reading position for the document now.
    func hasSavedPosition() -> Bool {
        let fresh = PositionsBridge(environment: ["FOLIO_STATE_DIR": stateDirectory.path], enabled: true)
        return fresh.hasSavedPosition(loaded: loop.loaded, documentIndex: 0)
    }

    /// The top row a new run of folio on the same document would open at (nil: none saved).
    func savedTop() -> Row? {
        let size = terminal.size()
        return Self.savedTop(stateDirectory: stateDirectory, bytes: loop.loaded[0].bytes, rows: size.rows,
                             columns: size.columns, config: loop.state.config)
    }

    /// The same for a Markdown document read from standard input (`bytes`), from any thread.
    static func savedTop(stateDirectory: URL, bytes: [UInt8], rows: Int, columns: Int,
                         config: PagerConfig = PagerConfig()) -> Row? {
        let fresh = PositionsBridge(environment: ["FOLIO_STATE_DIR": stateDirectory.path], enabled: true)
        let loaded = [LoadedDocument(name: "stdin", path: nil, bytes: bytes)]
        let spec = DocumentSpec(name: "stdin", path: nil, document: MarkdownParser.parse(bytes).document)
        var state = PagerState(documents: [spec], config: config, rows: rows, columns: columns)
        if let placement = fresh.placement(in: state, loaded: loaded, documentIndex: 0) {
            _ = state.update(placement.event)
        } else if !fresh.hasSavedPosition(loaded: loaded, documentIndex: 0) {
            return nil
        }
        return state.documents[0].top
    }

    /// The row at the top of the view (0 = the first).
    var top: Row { loop.state.documents[0].top }

    func removeStateDirectory() {
        try? FileManager.default.removeItem(at: stateDirectory)
    }
}

extension PositionsBridge {
    /// Whether document `index` has a saved position (what a test asks of the store after a
    /// run; folio itself only ever places or saves one).
    func hasSavedPosition(loaded: [LoadedDocument], documentIndex index: Int) -> Bool {
        guard enabled, loaded.indices.contains(index) else { return false }
        let hash = contentHash(loaded, index)
        return store.loadEntry(key: PositionsBridge.key(for: loaded[index], hash: hash), contentHash: hash).entry != nil
    }
}
