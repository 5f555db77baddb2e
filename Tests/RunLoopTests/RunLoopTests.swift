import Foundation
import LineLayout
import Styling
import Synchronization
import Pager
import TerminalIO
import TerminalScreen
import Testing
@testable import Session

/// The run loop over a scripted terminal: how it ends, what it does to the terminal and in
/// which order, and that no key or reply is dropped around resizes, signals and suspends.
/// (The same behaviours through a real pty live in EndToEndTests, under tmux.)
@Suite struct RunLoopTests {
    static let esc = "\u{1B}"

    @Test func qRestoresTheTerminalThenEndsWithStatusZero() throws {
        let terminal = FakeTerminal(script: [.typed("jjq")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        var savedAtRestore: Bool?
        terminal.onRestore = { [h] in savedAtRestore = h.hasSavedPosition() }

        #expect(h.run() == .quit(status: 0))
        #expect(terminal.calls.first.map { if case .write = $0 { true } else { false } } == true, "first frame first")
        #expect(terminal.calls.last == .restore)
        #expect(terminal.calls.filter { $0 == .restore }.count == 1)
        #expect(savedAtRestore == false, "the shell comes back before the save")
        #expect(h.savedTop() == 2)
    }

    /// less's `-K`: Ctrl-C quits with status 2.
    @Test func controlCWithKEndsWithStatusTwo() throws {
        var config = PagerConfig()
        config.quitOnInterrupt = true
        var h = try RunLoopHarness(terminal: FakeTerminal(script: [.typed("j\u{3}")]), config: config)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .quit(status: 2))
        #expect(h.savedTop() == 1, "the position is saved as on q")
    }

    @Test func quitWithErrorsEndsWithStatusOne() throws {
        var h = try RunLoopHarness(terminal: FakeTerminal(script: [.typed("q")]))
        defer { h.removeStateDirectory() }
        #expect(h.loop.run(hadErrors: true) == .quit(status: 1))
    }

    /// Keys typed around resizes are all applied, in order: the search typed across three
    /// answers finds `line 13`, and the screen has the last size.
    @Test func keysTypedDuringAResizeBurstAreAppliedInOrder() throws {
        let terminal = FakeTerminal(script: [
            .resize(rows: 8, columns: 40),
            .setSize(rows: 9, columns: 44), .events([.bytes(Array("/li".utf8)), .signal(.resize)]),
            .setSize(rows: 10, columns: 50), .events([.signal(.resize), .bytes(Array("ne 1".utf8))]),
            .typed("3\r"),
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }

        #expect(h.run() == .quit(status: 0))
        #expect(h.loop.state.searchHistory.last == "line 13")
        #expect(h.loop.state.screenRows == 10 && h.loop.state.screenColumns == 50)
    }

    /// A key typed right after a resize pages at the new size (issue 31: three Spaces after
    /// shrinking 30 to 15 rows landed on page 8, not 4, while the size settled), and nothing
    /// waits for a burst of resizes to end.
    @Test func keysAfterAResizeApplyAtTheNewSize() throws {
        let lines = (1...200).map { "line \($0)" }.joined(separator: "\n\n") + "\n"
        let terminal = FakeTerminal(rows: 30, columns: 40, script: [
            .setSize(rows: 15, columns: 40), .events([.signal(.resize), .bytes(Array("   ".utf8))]),
            .typed("q"),
        ])
        var h = try RunLoopHarness(markdown: lines, terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .quit(status: 0))
        // 14 content rows, pages of 13 (one row of overlap): three pages down is row 39.
        #expect(h.top == 39)
        #expect(terminal.waits.allSatisfy { $0 != 30 }, "no settling wait")
    }

    /// `q` in the same answer as a resize, before or after it, still quits.
    @Test(arguments: [true, false])
    func resizeAndQInOneChunkQuits(resizeFirst: Bool) throws {
        let events: [IOEvent] = resizeFirst ? [.signal(.resize), .bytes([0x71])] : [.bytes([0x71]), .signal(.resize)]
        let terminal = FakeTerminal(script: [.setSize(rows: 12, columns: 60), .events(events)])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .quit(status: 0))
    }

    /// `q` typed in the middle of a resize burst quits after it.
    @Test func qDuringTheResizeSettleQuits() throws {
        let terminal = FakeTerminal(script: [
            .resize(rows: 8, columns: 40),
            .events([.bytes([0x71]), .signal(.resize)]),
        ])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .quit(status: 0))
    }

    /// A signal that ends folio: the terminal restored, then the position saved, then the
    /// loop ends with the signal (the caller exits with its status). Every signal whose
    /// default action ends the process and that folio does not drop ends it this way
    /// (SIGUSR1, SIGALRM, SIGPWR, a real-time signal, …: `Signal.other`).
    @Test(arguments: [Signal.terminate, .hangup, .interrupt, .quit, .other(SIGUSR1), .other(SIGALRM),
                      .other(SIGPWR), .other(__libc_current_sigrtmin() + 3)])
    func endingSignalRestoresSavesAndEnds(signal: Signal) throws {
        let terminal = FakeTerminal(script: [.typed("jjj"), .signal(signal), .typed("q")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        var savedAtRestore: Bool?
        terminal.onRestore = { [h] in savedAtRestore = h.hasSavedPosition() }

        #expect(h.run() == .signal(signal))
        #expect(terminal.calls.last == .restore)
        #expect(savedAtRestore == false)
        #expect(h.savedTop() == 3)
    }

    /// SIGTERM (or SIGUSR1) arriving amid resizes is not lost; keys typed before it are saved.
    @Test(arguments: [Signal.terminate, .other(SIGUSR1)])
    func endingSignalDuringAResizeBurst(signal: Signal) throws {
        let terminal = FakeTerminal(script: [
            .resize(rows: 8, columns: 40),
            .events([.bytes(Array("jj".utf8)), .signal(signal), .signal(.resize)]),
            .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .signal(signal))
        #expect(terminal.calls.last == .restore)
        #expect(h.savedTop() == 2)
    }

    /// SIGTERM (or SIGPWR) while the first frame waits for the colour reply ends as
    /// everywhere else.
    @Test(arguments: [Signal.terminate, .other(SIGPWR)])
    func endingSignalWhileWaitingForTheColourReply(signal: Signal) throws {
        var config = PagerConfig()
        config.themeChoice = .auto
        config.queriesTerminal = true
        let terminal = FakeTerminal(script: [.signal(signal), .typed("q")])
        var h = try RunLoopHarness(terminal: terminal, config: config)
        defer { h.removeStateDirectory() }
        #expect(h.loop.state.awaitingTerminal)
        #expect(h.run() == .signal(signal))
        #expect(terminal.calls == [.restore], "no frame drawn")
    }

    /// An OSC 11 reply in the middle of typed keys: every key applied, the palette follows the
    /// reply — before the first frame (the loop waits for it) and later (the terminal changed).
    @Test(arguments: [true, false])
    func colourReplyMixedWithKeys(whileWaitingForIt: Bool) throws {
        var config = PagerConfig()
        config.theme = Theme(depth: .trueColor, palette: .dark)
        config.themeChoice = .auto
        config.queriesTerminal = whileWaitingForIt
        let da1 = whileWaitingForIt ? "\(Self.esc)[?62;22c" : ""
        let chunk = "jj\(Self.esc)]11;rgb:ffff/ffff/ffff\(Self.esc)\\j" + da1
        let terminal = FakeTerminal(script: [.typed(chunk), .typed("q")])
        var h = try RunLoopHarness(terminal: terminal, config: config)
        defer { h.removeStateDirectory() }

        #expect(h.run() == .quit(status: 0))
        #expect(h.top == 3)
        #expect(h.loop.state.config.theme.palette.appearance == .light)
        #expect(!h.loop.state.awaitingTerminal)
        // One answer each: the chunk (before the first frame when asked, else in the loop), then `q`.
        #expect(terminal.waits.count == 2)
    }

    /// A terminal that cannot be written to any more ends folio as SIGHUP does: restored,
    /// saved, `.signal(.hangup)` — and the `q` after it is never read.
    @Test func writeFailureEndsLikeSighup() throws {
        let terminal = FakeTerminal(script: [.typed("jj"), .terminalGone, .typed("j"), .typed("q")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        var savedAtRestore: Bool?
        terminal.onRestore = { [h] in savedAtRestore = h.hasSavedPosition() }

        #expect(h.run() == .signal(.hangup))
        #expect(terminal.calls.last == .restore)
        #expect(savedAtRestore == false)
        #expect(h.savedTop() == 3, "the key before the failed frame counts")
    }

    /// Ctrl-Z (a byte in raw mode) or SIGTSTP: the position saved, `suspend()`, then the size
    /// asked again (it may have changed while stopped) and the whole screen drawn anew.
    /// (Without a new size too: a grid of another size is redrawn whole anyway.)
    @Test(arguments: [FakeTerminal.Step.bytes([0x1A]), .signal(.suspendRequest)], [false, true])
    func suspendThenFullRedraw(request: FakeTerminal.Step, resizedWhileStopped: Bool) throws {
        let size = resizedWhileStopped ? (rows: 7, columns: 32) : (rows: 6, columns: 30)
        let terminal = FakeTerminal(rows: 6, columns: 30, script: [
            .typed("jj"), .setSize(rows: size.rows, columns: size.columns), request, .typed("q"),
        ])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        var savedAtSuspend: Bool?
        terminal.onSuspend = { [h] in savedAtSuspend = h.hasSavedPosition() }

        #expect(h.run() == .quit(status: 0))
        let suspend = try #require(terminal.calls.firstIndex(of: .suspend))
        #expect(savedAtSuspend == true)
        guard case .write(let frame) = terminal.calls[suspend + 1] else {
            Issue.record("no frame after the resume: \(terminal.calls[(suspend + 1)...])")
            return
        }
        // A full redraw is what a fresh renderer sends for that screen (`q` changes nothing).
        var fresh = FrameRenderer()
        let state = h.loop.state
        #expect(frame == fresh.render(state.frame(), depth: state.config.theme.depth, scrollRows: 0..<state.contentRows))
        #expect(frame.firstRange(of: ANSI.clearScreen) != nil)
        let before = terminal.calls[1..<suspend].compactMap { if case .write(let b) = $0 { b } else { nil } }
        #expect(!before.contains { $0.firstRange(of: ANSI.clearScreen) != nil }, "frames before are diffs")
        #expect(h.loop.state.screenRows == size.rows && h.loop.state.screenColumns == size.columns)
        #expect(h.top == 2)
    }
}

/// Code is highlighted off the run loop: the loop hands the blocks its frame laid out plain to
/// a thread (`SyntaxJobs`) and draws them again when their runs are in, with no key pressed.
@Suite struct SyntaxJobsTests {
    final class Threads: Sendable {
        let seen = Mutex<[pthread_t]>([])
    }

    @Test func blocksAreHighlightedOnAnotherThreadAndDrawnWithoutAKey() throws {
        let threads = Threads()
        var config = PagerConfig()
        config.highlighter = CodeHighlighter(deferred: true) { _, code in
            threads.seen.withLock { $0.append(pthread_self()) }
            return Highlighting(runs: [SyntaxRun(range: 0..<min(4, code.utf8.count), role: .keyword)])
        }
        let terminal = FakeTerminal(script: [.mailbox, .typed("q")])
        var h = try RunLoopHarness(markdown: "# T\n\n```sh\necho hi\n```\n", terminal: terminal, config: config)
        defer { h.removeStateDirectory() }
        h.loop.mailbox = PipeMailbox()
        let loopThread = pthread_self()

        #expect(h.run() == .quit(status: 0))
        let seen = threads.seen.withLock { $0 }
        #expect(seen.count == 1, "the block is highlighted once")
        #expect(seen.allSatisfy { pthread_equal($0, loopThread) == 0 }, "never on the loop's thread")
        let layout = h.loop.state.documents[0].layout
        let roles = layout.rowRange.flatMap { layout.line(at: $0).spans.compactMap(\.style.syntax) }
        #expect(roles == [.keyword])
        // Two frames: the first plain, the second (after the mailbox, before `q`) coloured.
        #expect(terminal.writes.count >= 2)
    }
}

/// An idle pager writes nothing: the loop wakes to look at files and inputs, never the
/// terminal (issue 27: an empty synchronized update went out at every poll, four times a
/// second, forever).
@Suite struct IdleTests {
    @Test func wakingWithNothingChangedWritesNothing() throws {
        let terminal = FakeTerminal(script: [.timeout, .timeout, .timeout, .timeout, .typed("q")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(h.run() == .quit(status: 0))
        #expect(terminal.writes.count == 1, "the first frame, then nothing: \(terminal.writes.count) writes")
    }
}
