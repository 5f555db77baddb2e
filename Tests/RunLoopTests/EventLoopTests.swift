import ByteInput
import Foundation
import LineLayout
import MarkdownModel
import Pager
import Synchronization
import TerminalIO
import Testing
@testable import Session

/// The event loop in a scripted world (issue 29): the test says when input arrives, when a
/// parse, a count or a reload thread's result reaches the loop (`ScriptedMailbox` holds what
/// the threads post until `.release`), and when time passes (`ScriptedClock`), and reads the
/// frames the loop wrote. No tmux, no tty, no sleeping for a deadline.
@Suite(.serialized) struct EventLoopTests {
    static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        return (fds[0], fds[1])
    }

    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    static func store(_ bytes: [UInt8]) -> ByteStore {
        let store = ByteStore()
        bytes.withUnsafeBytes { store.append($0) }
        return store
    }

    /// `count` short paragraphs, `para 1` … (one row each at 20 columns and more).
    static func paragraphs(_ count: Int, filler: Int = 0) -> String {
        (1...count).map { "para \($0)" + (filler > 0 ? " " + String(repeating: "x", count: filler) : "") }
            .joined(separator: "\n\n") + "\n"
    }

    /// A large Markdown document shown from a preview of its beginning: keys move the view
    /// while the full parse runs; when the parse is delivered it replaces the preview (every
    /// paragraph, no longer a preview) and the view stays on the same text.
    @Test func thePreviewIsReplacedByTheFullParseWithTheViewKept() throws {
        let bytes = Array(Self.paragraphs(300).utf8)
        let prefix = Array(Self.paragraphs(40).utf8)
        #expect(bytes.starts(with: prefix))
        let mailbox = ScriptedMailbox()
        let store = Self.store(bytes)
        var slot = DocumentInput(doc: 0, phase: .preview,
                                 source: LoadedDocument(name: "big.md", path: nil, bytes: [], kind: .markdown, store: store),
                                 store: store)
        slot.parser = ParseWorker(doc: 0, store: store, mailbox: mailbox, alreadyParsed: prefix.count)
        let spec = DocumentSpec(name: "big.md", path: nil, document: MarkdownParser.parse(prefix).document, isPreview: true)
        let terminal = FakeTerminal(rows: 5, columns: 20, script: [
            .typed("jjjjjj"), .mark("preview"),
            .release(count: 1), .mark("parsed"),
            .typed("j"),
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal, specs: [spec], inputs: [slot], mailbox: mailbox)
        defer { h.removeStateDirectory() }
        #expect(h.loop.state.documents[0].layout.content.unitCount == 40)

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        terminal.expectScreen(at: "preview", """
            para 4             ┃|
                               │|
            para 5             │|
                               │|
            big.md          p3/…|
            """)
        terminal.expectScreen(at: "parsed", """
            para 4             ┃|
                               │|
            para 5             │|
                               │|
            big.md    p3/200  1%|
            """)
        #expect(h.loop.state.documents[0].layout.content.unitCount == 300)
        #expect(!h.loop.state.documents[0].isGrowing)
        #expect(h.loop.inputs[0].phase == .complete)
        #expect(h.top == 7)
    }

    /// A watched Markdown file rewritten with two paragraphs more at its top is reloaded on a
    /// thread (it is large) while keys arrive: the keys move the old version, the reload
    /// keeps the text on top, and the keys after it move the new version from there.
    @Test func aReloadWhileKeysArriveKeepsTheViewAndTheKeys() throws {
        let filler = 40
        let old = Self.paragraphs(3_000, filler: filler)
        let new = "new A\n\nnew B\n\n" + old
        let mailbox = ScriptedMailbox()
        var h = try RunLoopHarness(terminal: FakeTerminal(script: []), specs: [], inputs: [], mailbox: mailbox)
        let path = h.stateDirectory.appendingPathComponent("doc.md").path
        try old.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(Reload.isLarge(path: path))
        let bytes = Array(old.utf8)
        let terminal = FakeTerminal(rows: 5, columns: 60, script: [
            .typed("jjjj"), .mark("before"),
            .run { try? new.write(toFile: path, atomically: false, encoding: .utf8) },
            .advance(milliseconds: 300), .timeout,   // the look at watched files: a reload thread starts
            .typed("j"),                             // a key while it runs
            .release(count: 1), .mark("reloaded"),   // the new version arrives
            .typed("j"), .mark("after"),
            .typed("q"),
        ])
        h = try RunLoopHarness(terminal: terminal,
                               specs: [DocumentSpec(name: "doc.md", path: path, document: MarkdownParser.parse(bytes).document)],
                               inputs: [DocumentInput(doc: 0, phase: .complete, source: LoadedDocument(name: "doc.md", path: path, bytes: bytes),
                                                      store: ByteStore())],
                               mailbox: mailbox)
        defer { h.removeStateDirectory() }
        h.loop.watch = true

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        #expect(terminal.screen(at: "before").first?.hasPrefix("para 3 ") == true)
        #expect(terminal.screen(at: "reloaded").first?.hasPrefix("para 3 ") == false, "the key during the reload moved on")
        #expect(terminal.screen(at: "reloaded")[1].hasPrefix("para 4 "))
        #expect(terminal.screen(at: "after").first?.hasPrefix("para 4 ") == true)
        #expect(h.loop.state.documents[0].layout.content.unitCount == 3_002)
    }

    /// The periodic save comes exactly when its interval has passed on the loop's clock
    /// (not at 4,999 ms, at 5,000), of the position at that moment, and again 5 s later.
    @Test func theSaveDeadlineIsOnTheLoopsClock() throws {
        let seen = Mutex<[Row?]>([])
        let folder = Mutex<URL?>(nil)
        let bytes = Array(RunLoopHarness.twentyLines.utf8)
        let look: FakeTerminal.Step = .run {
            let top = folder.withLock { $0 }.flatMap { RunLoopHarness.savedTop(stateDirectory: $0, bytes: bytes, rows: 6, columns: 30) }
            seen.withLock { $0.append(top) }
        }
        let terminal = FakeTerminal(script: [
            .typed("jj"), .advance(milliseconds: 4_999), .timeout, look,
            .advance(milliseconds: 1), .timeout, look,
            .typed("j"), .advance(milliseconds: 4_999), .timeout, look,
            .advance(milliseconds: 1), .timeout, look,
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        h.scriptTheWorld()
        h.loop.autosaveInterval = 5
        folder.withLock { $0 = h.stateDirectory }

        #expect(h.run() == .quit(status: 0))
        #expect(seen.withLock { $0 } == [nil, 2, 2, 3])
    }

    /// A resize while a large document's rows are counted at the last width: the count
    /// for a width no longer wanted arrives and is dropped, the count for the new width
    /// starts then, and keys move the view meanwhile; at the end the counts are exact.
    @Test func aResizeDuringABackgroundCount() throws {
        let markdown = Self.paragraphs(5_000)
        let terminal = FakeTerminal(rows: 6, columns: 30, script: [
            .resize(rows: 6, columns: 40),        // a new width: estimates, a count starts
            .typed("jjj"),                        // keys meanwhile
            .resize(rows: 6, columns: 50),        // and another, while the count is out
            .release(count: 1), .mark("stale"),   // the count for 40: not wanted any more
            .release(count: 1), .mark("counted"), // the count for 50
            .typed("q"),
        ])
        var h = try RunLoopHarness(markdown: markdown, terminal: terminal)
        defer { h.removeStateDirectory() }
        let (_, mailbox) = h.scriptTheWorld()

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        #expect(mailbox.held == 0)
        let doc = h.loop.state.documents[0]
        #expect(doc.countsWanted == nil)
        #expect(doc.layout.isExact)
        #expect(h.loop.state.screenColumns == 50)
        #expect(doc.layout.options == h.loop.state.layoutOptions(isText: false), "counted for the last width")
        #expect(h.loop.counting == nil)
        #expect(h.top == 3)
    }

    /// Keys in the same answer as a resize, before and after it: each is applied in order
    /// at the size of its moment, and the effects they return are all carried out — `^Z`
    /// suspends (the terminal hears it) and `:e` opens its file — whatever the resize.
    @Test func keysDuringAResizeDropNoEffect() throws {
        var h = try RunLoopHarness(terminal: FakeTerminal(script: []))
        let path = h.stateDirectory.appendingPathComponent("other.md").path
        try "# Other\n".write(toFile: path, atomically: false, encoding: .utf8)
        let terminal = FakeTerminal(rows: 6, columns: 30, script: [
            .setSize(rows: 8, columns: 40),
            .events([.bytes([0x1A]), .signal(.resize), .bytes(Array("jj".utf8))]),
            .setSize(rows: 7, columns: 36),
            .events([.bytes(Array(":e \(path)".utf8)), .signal(.resize), .bytes([0x0D])]),
            .typed("q"),
        ])
        h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        h.scriptTheWorld()

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.calls.filter { $0 == .suspend }.count == 1)
        #expect(h.top == 2, "jj after the resize moved the first document")
        #expect(h.loop.state.documents.count == 2)
        #expect(h.loop.state.current == 1)
        #expect(h.loop.state.screenRows == 7 && h.loop.state.screenColumns == 36)
    }

    /// Pictures follow the screen: a resize to another height lets them take at most half of
    /// it, and a change of the cell's pixels (the font's size) lays them out at the new shape;
    /// a resize that changes neither keeps the same show (and every picture's layout).
    @Test func picturesFollowTheHeightAndTheCell() throws {
        let terminal = FakeTerminal(rows: 20, columns: 30, script: [
            .resize(rows: 20, columns: 40), .mark("wider"),
            .resize(rows: 10, columns: 40), .mark("lower"),
            .setCell(width: 12, height: 24), .resize(rows: 10, columns: 40), .mark("font"),
            .typed("q"),
        ])
        var config = PagerConfig()
        config.pictures = PictureShow(cellWidth: 8, cellHeight: 16, maxRows: PictureShow.maxRows(screenRows: 20), deferred: true)
        var h = try RunLoopHarness(terminal: terminal, config: config)
        defer { h.removeStateDirectory() }
        h.scriptTheWorld()
        let first = try #require(h.loop.state.config.pictures)
        #expect(h.run() == .quit(status: 0))
        let last = try #require(h.loop.state.config.pictures)
        #expect(last !== first)
        #expect(last.maxRows == 5 && last.cellWidth == 12 && last.cellHeight == 24)
        #expect(first.fitting(screenRows: 21) === first, "half of 21 rows is still 10: the same show")
        #expect(first.fitting(screenRows: 20, cell: (8, 16)) === first)
        #expect(first.fitting(screenRows: 10).maxRows == 5 && first.fitting(screenRows: 2).maxRows == 4)
    }
}
