import Dispatch
import FoundationEssentials
import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import TextModel
import TerminalIO
import TerminalScreen
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// The one way into the pager: every event goes through `apply`.
extension EventLoop {
    /// Puts an outside result on the status line, through `update` like every other event
    /// (its effects, if any, carried out).
    mutating func say(_ text: String) {
        send(.notice(text))
    }

    /// The only call of the pager's `update` (the one place where the session's state changes):
    /// every key, reply, resize, arrival, parse, count, reload and notice comes through here.
    /// Returns the effects, for the caller to carry out: the loop after its batch of input,
    /// `send` at once.
    mutating func apply(_ event: PagerEvent) -> [PagerEffect] {
        state.update(event)
    }

    /// Sends `event` and carries out its effects now (depth first, each effect's answer
    /// before the next effect), for work that reads the state after it (a position restored
    /// into a document just opened). A `.quit` among them is ignored, as it always was away
    /// from the loop's batch.
    mutating func send(_ event: PagerEvent) {
        for effect in apply(event) { send(perform(effect)) }
    }

    mutating func send(_ events: [PagerEvent]) {
        for event in events { send(event) }
    }

    /// Sends an event that only places (a saved position, a reload, the history): it has no
    /// effects to carry out, and this says so instead of dropping any.
    mutating func place(_ event: PagerEvent) {
        let effects = apply(event)
        assert(effects.isEmpty, "placing a position, a reload or the history has no effects")
    }
}
