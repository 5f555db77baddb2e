import ByteInput
import Foundation
import LineLayout
import MarkdownModel
import Pager
import Testing
@testable import Session

/// The event loop's inputs in a scripted world (see `EventLoopTests`): pipes arriving in
/// pieces (text, Markdown), a followed file, a large file indexed between keys, a text's row
/// counts made off the loop.
@Suite(.serialized) struct InputEventLoopTests {
    /// A text piped in arrives in three pieces, the second ending inside a line: each piece is
    /// on screen once the reader's delivery reaches the loop, the half line once the input
    /// has ended; meanwhile the status line says how much was read.
    @Test func aPipedDocumentArrivesInPieces() throws {
        let (r, w) = EventLoopTests.makePipe()
        let mailbox = ScriptedMailbox()
        let store = ByteStore()
        let reader = StreamReader(fd: r, doc: 0, store: store, unbounded: false, tell: mailbox.readerNews)
        var slot = DocumentInput(doc: 0, phase: .streaming,
                                 source: LoadedDocument(name: "stdin", path: nil, bytes: [], kind: .text, store: store, reader: reader),
                                 store: store, reader: reader)
        slot.openText(tabWidth: 8, ended: false)
        let content = slot.text!
        EventLoopTests.write(w, "one\ntwo\n")
        let terminal = FakeTerminal(rows: 5, columns: 20, script: [
            .mark("nothing yet"),
            .release(count: 1), .mark("two lines"),
            .run { EventLoopTests.write(w, "three\nfo") }, .release(count: 1), .mark("a line and a half"),
            .run { EventLoopTests.write(w, "ur\n"); close(w) }, .release(count: 2), .mark("ended"),
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal,
                                   specs: [DocumentSpec(name: "stdin", path: nil, text: content)], inputs: [slot], mailbox: mailbox)
        defer { h.removeStateDirectory() }

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        terminal.expectScreen(at: "nothing yet", """
                                |
                                |
                                |
                                |
            stdin           p1/…|
            """)
        terminal.expectScreen(at: "two lines", """
            one                 |
            two                 |
                                |
                                |
            reading… 8 B  p1/…  |
            """)
        terminal.expectScreen(at: "a line and a half", """
            one                 |
            two                 |
            three               |
                                |
            reading… 16 B  p1/… |
            """)
        terminal.expectScreen(at: "ended", """
            one                 |
            two                 |
            three               |
            four                |
            p1/1  (END)         |
            """)
        #expect(h.loop.state.documents[0].content.isComplete)
        #expect(h.loop.inputs[0].phase == .complete)
    }

    /// Each piece of a piped text reaches the pager as a new snapshot of its lines
    /// (`.textGrew`), made by the loop, which owns the line index: the snapshot the pager held
    /// before is unchanged (the loop never writes into it), the new one has the same first
    /// lines and more, the view stays on its line, and the units laid out before keep their
    /// exact counts (a wide line whose estimate from its length is two rows stays one row,
    /// though the view has moved away from it: nothing is laid out or counted again).
    @Test func aPipedTextGivesThePagerASnapshotPerPiece() throws {
        let store = ByteStore()
        func arrive(_ text: String) { Array(text.utf8).withUnsafeBytes { store.append($0) } }
        func lines(_ range: ClosedRange<Int>) -> String { range.map { "line \($0)\n" }.joined() }
        var slot = DocumentInput(doc: 0, phase: .streaming,
                                 source: LoadedDocument(name: "stdin", path: nil, bytes: [], kind: .text, store: store),
                                 store: store)
        arrive("一二三四五六七八九十\n" + lines(2...40))  // 30 bytes, 20 columns: estimated 2 rows at width 20
        slot.openText(tabWidth: 8, ended: false)
        let mailbox = ScriptedMailbox()
        var h = try RunLoopHarness(terminal: FakeTerminal(rows: 6, columns: 20, script: []),
                                   specs: [DocumentSpec(name: "stdin", path: nil, text: slot.text!)], inputs: [slot],
                                   mailbox: mailbox)
        defer { h.removeStateDirectory() }
        var doc: DocumentState { h.loop.state.documents[0] }
        guard let first = doc.content.asText else { Issue.record("not text"); return }
        #expect(first.unitCount == 40)
        #expect(doc.layout.index.count(ofUnit: 0) == 1 && doc.layout.index.isExact(unit: 0), "laid out for the first screen")
        for key in "30j" { _ = h.loop.apply(.key(.char(key))) }
        let view = doc.viewport.position
        #expect(doc.layout.line(at: doc.top).plainText == "line 31")

        arrive(lines(41...300))
        mailbox.deliver([.grew(doc: 0)])
        _ = h.loop.takeDeliveries()
        guard let second = doc.content.asText else { Issue.record("not text"); return }
        #expect(second !== first && second.sharesLines(with: first))
        #expect(first.unitCount == 40, "the snapshot the pager had is unchanged")
        #expect(second.unitCount == 300 && !second.isComplete)
        #expect(doc.layout.unitCount == 300)
        #expect(doc.viewport.position == view && doc.layout.line(at: doc.top).plainText == "line 31")
        #expect(doc.layout.index.count(ofUnit: 0) == 1 && doc.layout.index.isExact(unit: 0),
                "a unit laid out before is not estimated again")

        arrive("the last line, without its end")
        mailbox.deliver([.grew(doc: 0), .ended(doc: 0, error: nil)])
        _ = h.loop.takeDeliveries()
        guard let last = doc.content.asText else { Issue.record("not text"); return }
        #expect(last !== second && last.sharesLines(with: first))
        #expect(second.unitCount == 300 && !second.isComplete)
        #expect(last.unitCount == 301 && last.isComplete)
        #expect(doc.viewport.position == view)
        #expect(doc.layout.index.count(ofUnit: 0) == 1 && doc.layout.index.isExact(unit: 0))
        #expect(h.loop.inputs[0].phase == .complete)
    }

    /// Markdown piped in is parsed off the loop: a little that arrives is only counted (a
    /// partial parse waits for 16 KB more), and when the input ends the whole is parsed and
    /// replaces the empty first screen; the input is complete once that parse is delivered.
    @Test func aPipedMarkdownDocumentIsParsedWhenItsInputEnds() throws {
        let (r, w) = EventLoopTests.makePipe()
        let mailbox = ScriptedMailbox()
        let store = ByteStore()
        let reader = StreamReader(fd: r, doc: 0, store: store, unbounded: true, tell: mailbox.readerNews)
        var slot = DocumentInput(doc: 0, phase: .streaming,
                                 source: LoadedDocument(name: "stdin", path: nil, bytes: [], kind: .markdown, store: store, reader: reader),
                                 store: store, reader: reader)
        slot.parser = ParseWorker(doc: 0, store: store, mailbox: mailbox, alreadyParsed: 0)
        let spec = DocumentSpec(name: "stdin", path: nil, document: MarkdownParser.parse([]).document, isPreview: true)
        EventLoopTests.write(w, "# Notes\n\nfirst paragraph\n\n")
        let terminal = FakeTerminal(rows: 6, columns: 24, script: [
            .release(count: 1), .mark("arrived"),
            .run { EventLoopTests.write(w, "second paragraph\n"); close(w) },
            .release(count: 2), .mark("ended"),     // bytes, then the end: the full parse starts
            .release(count: 1), .mark("parsed"),    // and is delivered
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal, specs: [spec], inputs: [slot], mailbox: mailbox)
        defer { h.removeStateDirectory() }

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.releasesMissed == 0)
        terminal.expectScreen(at: "arrived", """
                                    |
                                    |
                                    |
                                    |
                                    |
            reading… 26 B  p1/…     |
            """)
        #expect(terminal.screen(at: "ended") == terminal.screen(at: "arrived"), "nothing shown before the parse")
        terminal.expectScreen(at: "parsed", """
            Notes                  ┃|
            ═══════════════════════┃|
                                   ┃|
            first paragraph        ┃|
                                   │|
            stdin · Notes  p1/2  83%|
            """)
        #expect(h.loop.inputs[0].phase == .complete)
        #expect(h.loop.state.documents[0].layout.content.unitCount == 3)
    }

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
        slot.openText(tabWidth: 8, ended: true)
        let content = slot.text!
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
        #expect(h.loop.state.documents[0].content.unitCount == 3)
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
        slot.openText(tabWidth: 8, ended: true)
        let content = slot.text!
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
        #expect(h.loop.state.documents[0].content.isComplete)
        #expect(h.loop.state.documents[0].content.unitCount == 100_001)
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
        slot.openText(tabWidth: 8, ended: true)
        _ = slot.indexText(inputEnded: true)  // (all of it: `openText` finds the first 64 KB)
        let content = slot.text!
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
