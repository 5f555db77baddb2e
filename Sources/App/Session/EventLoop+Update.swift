import ByteInput
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
        let effects = state.update(event)
        adoptDocuments()
        return effects
    }

    /// Documents the pager made itself (the help) get an input slot too, so that `inputs[i]`
    /// stays document i's: nothing to read, watch or reload, no reading position, and
    /// nothing to restore when it is first shown.
    mutating func adoptDocuments() {
        while inputs.count < state.documents.count {
            let doc = state.documents[inputs.count]
            var source = LoadedDocument(name: doc.name, path: nil, bytes: [])
            source.keepsPosition = false
            var slot = DocumentInput(doc: inputs.count, phase: .complete, source: source, store: ByteStore())
            slot.shown = true
            inputs.append(slot)
        }
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

    /// Sends an event that only places (a saved position, a reload, the history, a text's new
    /// snapshot): it has no effects to carry out, and this says so instead of dropping any.
    mutating func place(_ event: PagerEvent) {
        let effects = apply(event)
        assert(effects.isEmpty, "placing a position, a reload or the history has no effects")
    }
}
