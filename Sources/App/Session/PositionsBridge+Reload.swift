import LessOptions
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import Viewport

/// A document read again, and `--forget`.
extension PositionsBridge {
    /// Replaces document `index` with a new version of its file (after `v`), keeping the
    /// reader on the same text: the position is captured in the old version and resolved in
    /// the new one by the same rules as reopening (fingerprint, heading path, line, fraction).
    ///
    /// `prepared`: the new version already parsed and built, with its content hash, facts and
    /// changed units (`Reload`, off the run loop); else it is parsed here, and its changed
    /// units found when `markChanges` (a watched file: the margin cue).
    ///
    /// In two steps, each an event the event loop sends (`EventLoop.reload`): `.reloaded`
    /// (returned with the captured places), then the `.placed` that `placing` makes from the
    /// state and the documents with the new version in. `loaded`: the documents before (the
    /// caller puts `newDocument` in their place).
    func reload(_ newDocument: LoadedDocument, in state: PagerState, loaded: [LoadedDocument], index: Int,
                markChanges: Bool,
                prepared: (spec: DocumentSpec, hash: StableHash, facts: DocumentFacts, changedUnits: Set<Unit>)? = nil)
        -> (reloaded: PagerEvent, placing: (PagerState, [LoadedDocument]) -> PagerEvent)? {
        guard loaded.indices.contains(index), state.documents.indices.contains(index) else { return nil }
        let oldDoc = state.documents[index]
        let oldHash = contentHash(loaded, index)
        let oldFacts = Facts.leaves(facts(state, loaded, index))
        func captured(_ p: ScrollPosition) -> ReadingPosition? {
            p == .top ? nil : capturePosition(p, doc: oldDoc, facts: oldFacts)
        }
        let position = captured(oldDoc.viewport.position)
        let marks = oldDoc.marks.mapValues { ($0, captured($0)) }
        let previous = oldDoc.previousPosition.map { ($0, captured($0)) }
        hashCache[index] = nil
        factsCache[index] = nil
        let reloaded: PagerEvent
        if var prepared {
            adopt(prepared.facts, hash: prepared.hash, documentIndex: index)
            prepared.spec.name = oldDoc.name
            reloaded = .reloaded(document: index, spec: prepared.spec, changedUnits: prepared.changedUnits)
        } else {
            var spec = DocumentSpec(name: oldDoc.name, path: newDocument.path, document: MarkdownParser.parse(newDocument.bytes).document)
            var changed: Set<Unit> = []
            if markChanges {
                // Built here for the pager's options (a small file: `Reload` takes the large
                // ones), so the changes are known before it replaces the old version.
                spec.prebuild(for: state.layoutOptions(isText: false))
                if let built = spec.prebuilt { changed = PositionFacts.changedUnits(from: oldDoc.layout.content, to: built.content) }
            }
            reloaded = .reloaded(document: index, spec: spec, changedUnits: changed)
        }
        return (reloaded, { [self] state, loaded in
            let newFacts = facts(state, loaded, index)
            func resolved(_ original: ScrollPosition, _ p: ReadingPosition?) -> ScrollPosition {
                guard let p else { return original == .top ? .top : original }
                return .anchor(resolve(p, storedContentHash: oldHash, in: newFacts).anchor)
            }
            // Following (`F`), the view is at the new end (`.reloaded` put it there).
            let follows = state.following && index == state.current
            return .placed(
                document: index,
                position: follows ? nil : position.map { .anchor(resolve($0, storedContentHash: oldHash, in: newFacts).anchor) },
                previous: previous.map { resolved($0.0, $0.1) },
                marks: marks.mapValues { resolved($0.0, $0.1) })
        })
    }

    /// `--forget`: removes the documents' entries. Returns a warning, if any.
    static func forget(_ documents: [LoadedDocument], environment: [String: String]) -> String? {
        let store = PositionStore(environment: environment)
        var warning: String?
        for d in documents {
            let hash = StableHash(bytes: d.bytes)
            warning = store.forget(key: key(for: d, hash: hash), contentHash: hash) ?? warning
        }
        return warning
    }
}

/// Which documents open where the reader left them (`--restore`). Documents are what one
/// comes back to: files (Markdown or text) and Markdown from a pipe (`curl … | folio`, known
/// by its content). Text from a pipe is a command's output (`git log`, `man ls`, a build): run
/// again, it is new output that starts at the top, as less shows it; the place it was left
/// is kept and is one `''` away, said on the status line.
extension RestorePolicy {
    enum Mode: Equatable { case resume, offer, none }

    func mode(isFile: Bool, isMarkdown: Bool) -> Mode {
        switch self {
        case .never: return .none
        case .all: return .resume
        case .documents: return isFile || isMarkdown ? .resume : .offer
        }
    }
}
