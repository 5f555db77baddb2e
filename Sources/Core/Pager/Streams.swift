import LessOptions
import LineLayout
import TextSearch
import Viewport

/// `Esc F`'s pattern, and the first text not yet looked at for it (of the texts of all the
/// units, unfiltered: text i is unit i).
public struct FollowUntil: Sendable {
    let pattern: SearchPattern
    var nextText: TextIndex
}

/// A place the reader asked for on input still being read (`PagerState.seeking`).
public enum Seeking: Sendable, Equatable {
    /// `G`: the end, as it moves.
    case end
    /// `Ng`: source line N, once it has arrived.
    case line(Int)
    /// `N%`: a share of the whole, once the whole is known.
    case percent(Int)
    /// `s FILE`: the whole input saved to the file, once it has all arrived.
    case save(path: String)
    /// A forward search: the `remaining`-th match from `from` (the pattern is `search`'s),
    /// looked for a slice of texts at a time; once the whole input is in and its end was
    /// passed, it wraps round to the top (`wrapped`) up to `origin`, where it began.
    case match(from: SearchPosition, remaining: Int, origin: SearchPosition, wrapped: Bool)

    var statusText: String {
        switch self {
        case .end, .percent: return "reading to the end (^C stops)"
        case .save: return "reading to the end to save it (^C stops)"
        case .line(let n): return "reading to line \(n) (^C stops)"
        case .match: return "searching… (^C stops)"
        }
    }
}

/// Input that is still arriving, following its end, and sideways scrolling of chopped text.
///
/// The run loop reads input off the pager's thread and reports it as events (a text's new
/// snapshot, `.textGrew`, then `.inputArrived` or `.inputEnded`; `.documentReady`); the pager
/// asks for more with effects (`.readToEnd`, `.stopReading`). Nothing here blocks: the state
/// only takes in what has arrived.
extension PagerState {
    /// A text's new snapshot (`.textGrew`): its new lines taken in; a snapshot of other lines
    /// (the input started over) replaces the document.
    mutating func textGrew(document index: Int, content: TextContent) {
        guard documents.indices.contains(index) else { return }
        guard documents[index].content.asText?.sharesLines(with: content) == true else {
            let doc = documents[index]
            replaceDocument(at: index, with: DocumentSpec(name: doc.name, path: doc.path, text: content))
            return
        }
        documents[index].textGrew(content)
    }

    mutating func inputArrived(document index: Int) -> [PagerEffect] {
        guard documents.indices.contains(index) else { return [] }
        guard index == current else { return [] }
        if following { active.jump(to: .bottom) }
        if followUntil != nil, let stop = followUntilMatch() { return stop }
        return continueSeeking(ended: false)
    }

    mutating func inputEnded(document index: Int, error: String?) -> [PagerEffect] {
        guard documents.indices.contains(index) else { return [] }
        if let error {
            documents[index].readError = error
            if index == current { message = error }
        }
        guard index == current else { return [] }
        return continueSeeking(ended: true)
    }

    /// Starts going to `goal` on input still being read: there at once if it has arrived,
    /// else reading on (`.readToEnd`) until it does.
    mutating func seek(_ goal: Seeking) -> [PagerEffect] {
        seeking = goal
        _ = continueSeeking(ended: !active.isGrowing)
        return seeking != nil && active.isGrowing ? [.readToEnd(document: current)] : []
    }

    /// Goes as far towards `seeking` as what has arrived allows; done, it stops the reading.
    mutating func continueSeeking(ended: Bool) -> [PagerEffect] {
        guard let goal = seeking else { return [] }
        let stop: [PagerEffect] = ended ? [] : [.stopReading(document: current)]
        switch goal {
        case .end:
            active.jump(to: .bottom)
            if ended { seeking = nil }
            return []
        case .line(let n):
            // Line N is whole once a later one has begun (or the input ended).
            guard ended || active.content.sourceLineCount > n else { return [] }
            seeking = nil
            goToSourceLine(n)
            return stop
        case .percent(let p):
            guard ended else { return [] }
            seeking = nil
            jump(toPercent: p)
            return []
        case .save(let path):
            guard ended else { return [] }
            seeking = nil
            return [.saveInput(document: current, path: path, mode: .create, complete: true)]
        case .match(let from, let remaining, let origin, let wrapped):
            guard let over = seekMatch(from: from, remaining: remaining, origin: origin, wrapped: wrapped, ended: ended) else {
                return []
            }
            return stop + over
        }
    }

    /// A search has texts to look at now, not only once more input arrives: the next step
    /// runs in the time between keys. (On input still arriving, the last text may grow: the
    /// search waits there for `.inputArrived`.)
    var searchCanStep: Bool {
        guard case .match(let from, _, _, let wrapped) = seeking else { return false }
        return wrapped || !active.isGrowing || from.textIndex < SearchTexts(active).endText - 1
    }

    /// Texts a forward search looks at per step (a few tens of milliseconds of a long log);
    /// between steps the run loop reads keys, so `Ctrl-C` stops a search through a 1 GB file.
    static let searchSliceTexts = 65_536

    /// Whether a forward search goes in steps (`.match`): on input still arriving (it reads
    /// on), or on a document longer than a step.
    var searchesInSteps: Bool {
        active.isGrowing || SearchTexts(active).count > Self.searchSliceTexts
    }

    /// The forward search of `.match`, over what has arrived, one slice of texts per call;
    /// the effects of its end when it is over (nil while it goes on). Once the input has
    /// ended the search wraps round to the top, as on any finished document (when it wraps);
    /// found nowhere, it goes on in the other files when it crosses them (`notFound`).
    private mutating func seekMatch(from: SearchPosition, remaining: Int, origin: SearchPosition, wrapped: Bool,
                                    ended: Bool) -> [PagerEffect]? {
        guard let s = search else { seeking = nil; return [] }
        let pattern = s.pattern
        let texts = SearchTexts(active)
        // After wrapping, only the texts up to the origin's are left.
        let end = wrapped ? min(texts.count, origin.textIndex.index + 1) : texts.count
        let searcher = DocumentSearcher(pattern: pattern, texts: texts[0..<end], nonMatching: s.nonMatching)
        var position = from
        var resume = from  // after the last match taken
        var left = remaining
        var budget = Self.searchSliceTexts
        while left > 0 && budget > 0 && position.textIndex.index < end {
            let slice = min(budget, end - position.textIndex.index)
            switch searcher.find(.forward, from: position, wrapAround: false, textLimit: slice) {
            case .found(let hit):
                if wrapped && hit.textIndex == origin.textIndex && hit.range.lowerBound >= origin.utf8Offset {
                    position = SearchPosition(textIndex: TextIndex(end), utf8Offset: 0)  // back where it began
                    continue
                }
                left -= 1
                budget -= hit.textIndex - position.textIndex + 1
                if left == 0 {
                    seeking = nil
                    showMatch(hit, texts: texts, pattern: pattern, forward: s.forward)
                    if wrapped { message = "Search hit BOTTOM, continuing at TOP" }
                    return []
                }
                position = hit.positionAfter
                if hit.range.isEmpty { position.utf8Offset += 1 }
                resume = position
            case .notFound, .gaveUp:
                position = SearchPosition(textIndex: position.textIndex + slice, utf8Offset: 0)
                budget -= slice
            }
        }
        if position.textIndex.index < end {
            // The slice ran out: the next one in the time between keys.
            seeking = .match(from: position, remaining: left, origin: origin, wrapped: wrapped)
            return nil
        }
        if wrapped {
            seeking = nil
            return notFound(forward: true, count: left)
        }
        guard ended else {
            // Not there yet: go on from the start of the last text, which may still grow.
            if !texts.isEmpty {
                position = max(resume, SearchPosition(textIndex: texts.endText - 1, utf8Offset: 0))
            }
            seeking = .match(from: position, remaining: left, origin: origin, wrapped: false)
            return nil
        }
        // The end: on from the top, up to where the search began, when it wraps.
        guard wraps(s) else {
            seeking = nil
            return notFound(forward: true, count: left)
        }
        seeking = .match(from: SearchPosition(textIndex: 0, utf8Offset: 0), remaining: left, origin: origin, wrapped: true)
        return nil
    }

    /// `F`: go to the end and stay there as input arrives (less's `F`, `tail -f`). Any key
    /// stops it.
    mutating func followEnd() -> [PagerEffect] {
        guard !active.isHelp else { return [] }  // it has no input
        active.jump(to: .bottom)
        following = true
        message = nil
        return [.readToEnd(document: current)]
    }

    /// `Esc F`: `F` until a line matching the search's pattern arrives. With no pattern,
    /// `F` (as less: nothing can stop it but a key).
    mutating func followToMatch() -> [PagerEffect] {
        guard !active.isHelp else { return [] }
        let pattern = search?.pattern ?? (searchForgotten ? nil : searchHistory.last.flatMap {
            if case .success(let p) = compile($0, literal: config.literalSearch) { return p }
            return nil
        })
        let effects = followEnd()
        // Only lines that arrive from now on count, as in less.
        followUntil = pattern.map { FollowUntil(pattern: $0, nextText: SearchTexts(content: active.content, shown: nil).endText) }
        return effects
    }

    /// The lines arrived since the last look, searched for `followUntil`'s pattern (only
    /// those: the work grows with what arrives). At a match, following stops with the
    /// matching line on the bottom row, highlighted as the search's current match; returns
    /// the effects then (nil: follow on).
    mutating func followUntilMatch() -> [PagerEffect]? {
        guard var until = followUntil else { return nil }
        let texts = SearchTexts(content: active.content, shown: nil)
        until.nextText = min(until.nextText, texts.endText)
        let searcher = DocumentSearcher(pattern: until.pattern, texts: texts)
        guard until.nextText < texts.endText,
              let hit = searcher.find(.forward, from: SearchPosition(textIndex: until.nextText, utf8Offset: 0),
                                      wrapAround: false) else {
            until.nextText = texts.endText
            followUntil = until
            return nil
        }
        following = false
        followUntil = nil
        var state = SearchState(pattern: until.pattern, forward: true, modifiers: search?.modifiers ?? [])
        let unit = texts.unit(ofText: hit.textIndex)
        state.current = SearchMatch(unit: unit, range: hit.range)
        search = state
        active.prepare(aroundUnit: unit)
        let rows = active.layout.rows(showing: hit.range, inUnit: unit)
        if !rows.isEmpty { active.jump(toRow: max(0, rows.upperBound - contentRows)) }
        message = "Pattern found: following stopped"
        return [.stopReading(document: current)]
    }

    /// `→`/`←`: half a screen sideways (less's `-#` sets it; a count sets it too, as in
    /// less): chopped text lines, and in Markdown the tables too wide for the screen (prose
    /// is always wrapped).
    mutating func shiftHorizontally(right: Bool, count: Int?) {
        guard config.chopLongLines else {
            message = active.isText ? "Lines are wrapped (start with -S to chop them)"
                                    : "Markdown is wrapped to the width (-S chops wide tables instead)"
            return
        }
        if let count { config.horizontalShift = .columns(min(count, Options.rowRange.upperBound)) }
        let delta = config.horizontalShift.columns(width: layoutOptions.width)
        let shift = max(0, horizontalShift + (right ? delta : -delta))
        guard shift != horizontalShift else { return }
        horizontalShift = shift
        relayoutAll()
    }

    /// `Esc }` / `^→`: sideways just far enough that the longest line on screen ends at the
    /// right edge (less's `rrshift`). Only the units on screen are laid out again, unshifted
    /// and at an unlimited width, to find how wide their cut rows are: a unit with as many
    /// rows there as on screen was cut at the edge (a chopped line, a wide table's grid), one
    /// with fewer was wrapped (Markdown prose), which never moves sideways.
    mutating func shiftToLineEnd() {
        guard config.chopLongLines else { shiftHorizontally(right: true, count: nil); return }
        var cut = layoutOptions
        cut.horizontalShift = 0
        var whole = cut
        whole.width = Self.unlimitedWidth
        let doc = active
        let top = doc.top, bottom = min(doc.layout.endRow, top + contentRows)
        var longest = 0
        var unit = Unit(-1)
        for row in top..<max(top, bottom) {
            let (u, _) = doc.layout.locate(row)
            guard u != unit else { continue }
            unit = u
            let wide = doc.content.layout(unit: u, options: whole).lines
            guard wide.count == doc.content.layout(unit: u, options: cut).lines.count else { continue }
            longest = max(longest, wide.map(\.width).max() ?? 0)
        }
        let shift = max(0, longest - cut.width)
        guard shift != horizontalShift else { return }
        horizontalShift = shift
        relayoutAll()
    }

    /// Wide enough that no line or table is cut (`shiftToLineEnd`).
    static let unlimitedWidth = 1 << 20

    /// `Esc {` / `^←`: back to the first column.
    mutating func shiftToStart() {
        guard config.chopLongLines else { shiftHorizontally(right: false, count: nil); return }
        guard horizontalShift != 0 else { return }
        horizontalShift = 0
        relayoutAll()
    }

    mutating func relayoutAll() {
        documents[current].relayout(options: layoutOptions, contentRows: contentRows)
    }
}
