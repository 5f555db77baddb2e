import Foundation
import LineLayout
import Pager
import Testing
@testable import Session

/// The event loop's text inputs in a scripted world (see `EventLoopTests`): a followed file,
/// a large file indexed between keys, row counts made off the loop.
@Suite(.serialized) struct TextInputEventLoopTests {
    /// `F` on a text file: the input's phase is `following`, so the look at files every
    /// 250 ms (on the loop's clock) takes in the lines the file gains; a key stops it and
    /// the input is complete again.
    @Test func aFollowedFileTakesInWhatItGains() throws {
        var h = try RunLoopHarness(terminal: FakeTerminal(script: []))
        let path = h.stateDirectory.appendingPathComponent("app.log").path
        try "one\ntwo\n".write(toFile: path, atomically: false, encoding: .utf8)
        guard case .success(let doc) = Input.openStream(path, forced: .text, mailbox: ScriptedMailbox(), doc: 0),
              let store = doc.store else { Issue.record("not opened"); return }
        var slot = DocumentInput(doc: 0, phase: .parsing, source: doc, store: store)
        let content = PagerLoop.textContent(store, tabWidth: 8, ended: true)
        slot.text = content
        slot.settleTextFile()
        #expect(slot.phase == .complete)
        let grow: @Sendable () -> Void = {
            let fd = open(path, O_WRONLY | O_APPEND)
            EventLoopTests.write(fd, "three\n")
            close(fd)
        }
        let terminal = FakeTerminal(rows: 5, columns: 20, script: [
            .typed("F"), .advance(milliseconds: 300), .timeout, .mark("following"),
            .run(grow), .advance(milliseconds: 300), .timeout, .mark("grown"),
            .typed("j"),
            .typed("q"),
        ])
        h = try RunLoopHarness(terminal: terminal,
                               specs: [DocumentSpec(name: "app.log", path: path, text: content)], inputs: [slot],
                               mailbox: ScriptedMailbox())
        defer { h.removeStateDirectory() }
        h.loop.followName = false

        #expect(h.run() == .quit(status: 0))
        #expect(Array(terminal.screen(at: "following").prefix(3)) == ["one", "two", ""].map { $0.padding(toLength: 20, withPad: " ", startingAt: 0) })
        #expect(Array(terminal.screen(at: "grown").prefix(3)) == ["one", "two", "three"].map { $0.padding(toLength: 20, withPad: " ", startingAt: 0) })
        #expect(h.loop.inputs[0].phase == .complete, "a key stopped following")
        #expect(content.unitCount == 3)
    }

    /// A text file larger than what is indexed at opening (1 MB) is indexed a slice (8 MB)
    /// at a time when the loop has nothing else to do, and keys apply in between: the input
    /// is `parsing` until its last line is indexed, then `complete`, and `G` finds that line.
    @Test func aLargeTextFileIsIndexedInSlicesBetweenKeys() throws {
        var h = try RunLoopHarness(terminal: FakeTerminal(script: []))
        let path = h.stateDirectory.appendingPathComponent("big.log").path
        let line = String(repeating: "y", count: 99) + "\n"
        try (String(repeating: line, count: 100_000) + "the last line\n").write(toFile: path, atomically: false, encoding: .utf8)
        guard case .success(let doc) = Input.openStream(path, forced: .text, mailbox: ScriptedMailbox(), doc: 0),
              let store = doc.store else { Issue.record("not opened"); return }
        var slot = DocumentInput(doc: 0, phase: .parsing, source: doc, store: store)
        let content = PagerLoop.textContent(store, tabWidth: 8, ended: true)
        slot.text = content
        slot.settleTextFile()
        #expect(slot.phase == .parsing, "10 MB: more than the first MB to index")
        let terminal = FakeTerminal(rows: 5, columns: 20, script: [
            .typed("j"), .timeout, .mark("one slice"),
            .typed("j"), .timeout, .mark("indexed"),
            .typed("G"),
            .typed("q"),
        ])
        h = try RunLoopHarness(terminal: terminal, specs: [DocumentSpec(name: "big.log", path: path, text: content)],
                               inputs: [slot], mailbox: ScriptedMailbox())
        defer { h.removeStateDirectory() }
        h.loop.watch = false

        #expect(h.run() == .quit(status: 0))
        #expect(content.isComplete)
        #expect(content.unitCount == 100_001)
        #expect(h.loop.inputs[0].phase == .complete)
        #expect(terminal.screen().dropLast().last(where: { !$0.allSatisfy { $0 == " " } })?.hasPrefix("the last line") == true)
    }

    /// A text's exact row counts come from a thread (`RowCounter`) while the view shows
    /// estimates: delivered, they make the layout exact; after a resize the counts at the new
    /// width are made the same way, and keys apply meanwhile.
    @Test func aTextsRowsAreCountedOffTheLoopAgainAfterAResize() throws {
        let text = (1...3_000).map { "line \($0) " + String(repeating: "z", count: $0 % 90) }.joined(separator: "\n") + "\n"
        let store = EventLoopTests.store(Array(text.utf8))
        var slot = DocumentInput(doc: 0, phase: .complete,
                                 source: LoadedDocument(name: "stdin", path: nil, bytes: [], kind: .text, store: store), store: store)
        let content = PagerLoop.textContent(store, tabWidth: 8, ended: true)
        slot.text = content
        let terminal = FakeTerminal(rows: 6, columns: 30, script: [
            .release(count: 1), .mark("counted"),
            .resize(rows: 6, columns: 45), .typed("jj"),
            .release(count: 1), .mark("counted again"),
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal, specs: [DocumentSpec(name: "stdin", path: nil, text: content)],
                                   inputs: [slot], mailbox: ScriptedMailbox())
        defer { h.removeStateDirectory() }
        #expect(!h.loop.state.documents[0].layout.isExact, "estimates at first")

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        let doc = h.loop.state.documents[0]
        #expect(doc.layout.isExact)
        #expect(doc.layout.options == h.loop.state.layoutOptions(isText: true))
        #expect(h.top == 2)
    }
}
