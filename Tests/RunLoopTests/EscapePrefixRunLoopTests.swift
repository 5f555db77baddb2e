import LineLayout
import Pager
import TerminalIO
import TerminalScreen
import Testing
@testable import Session

/// The run loop times a lone Esc on the monotonic clock: `u` typed soon after it is `Esc u`
/// (the highlight toggle: "No search to highlight" with no search), `u` typed after the
/// decoder's window is `u` (half a page up). The fake terminal answers at once; `.pause`
/// sleeps for real between the Esc and the `u`.
@Suite(.serialized) struct EscapePrefixRunLoopTests {
    static func run(pause: Int?) throws -> (message: String?, top: Row) {
        var script: [FakeTerminal.Step] = [.typed("jjjj"), .bytes([0x1B]), .timeout]
        if let pause { script.append(.pause(milliseconds: pause)) }
        script.append(.typed("u"))
        var h = try RunLoopHarness(terminal: FakeTerminal(rows: 6, script: script))
        defer { h.removeStateDirectory() }
        _ = h.run()
        return (h.loop.state.message, h.top)
    }

    @Test func uSoonAfterEscIsEscU() throws {
        let (message, top) = try Self.run(pause: nil)
        #expect(message == "No search to highlight")
        #expect(top == 4, "the view did not move")
    }

    @Test func uLongAfterEscIsU() throws {
        let (message, top) = try Self.run(pause: KeyDecoder.escapePrefixWindow + 150)
        #expect(message == nil)
        #expect(top == 2, "u: half a page (2 rows) up")
    }

    /// The same on the scripted clock: the loop reads time from its clock, not the system's
    /// (no sleeping: 500 ms later is still Esc u, 501 ms later is u).
    @Test(arguments: [(0, true), (KeyDecoder.escapePrefixWindow, true), (KeyDecoder.escapePrefixWindow + 1, false),
                      (60_000, false)])
    func theWindowIsOnTheLoopsClock(milliseconds: Int, escU: Bool) throws {
        let script: [FakeTerminal.Step] = [.typed("jjjj"), .bytes([0x1B]), .timeout,
                                              .advance(milliseconds: milliseconds), .typed("u")]
        var h = try RunLoopHarness(terminal: FakeTerminal(rows: 6, script: script))
        defer { h.removeStateDirectory() }
        h.scriptTheWorld()
        _ = h.run()
        #expect(h.loop.state.message == (escU ? "No search to highlight" : nil))
        #expect(h.top == (escU ? 4 : 2))
    }
}
