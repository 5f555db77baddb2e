import LineLayout
import TextSearch
import Viewport

/// A place the reader asked for on input still being read (`PagerState.seeking`).
public enum Seeking: Sendable, Equatable {
    /// `G`: the end, as it moves.
    case end
    /// `Ng`: source line N, once it has arrived.
    case line(Int)
    /// `N%`: a share of the whole, once the whole is known.
    case percent(Int)
    /// A forward search: the `remaining`-th match from `from` (the pattern is `search`'s).
    case match(from: SearchPosition, remaining: Int)

    var statusText: String {
        switch self {
        case .end, .percent: return "reading to the end (^C stops)"
        case .line(let n): return "reading to line \(n) (^C stops)"
        case .match: return "searching… (^C stops)"
        }
    }
}

/// Input that is still arriving, following its end, and sideways scrolling of chopped text.
///
/// The run loop reads input off the pager's thread and reports it as events
/// (`.inputArrived`, `.inputEnded`, `.documentReady`); the pager asks for more with effects
/// (`.readToEnd`, `.stopReading`). Nothing here blocks: the state only takes in what has
/// arrived.
extension PagerState {
    mutating func inputArrived(document index: Int) -> [PagerEffect] {
        guard documents.indices.contains(index) else { return [] }
        documents[index].syncUnits()
        guard index == current, help == nil else { return [] }
        if following { active.jump(to: .bottom) }
        return continueSeeking(ended: false)
    }

    mutating func inputEnded(document index: Int, error: String?) -> [PagerEffect] {
        guard documents.indices.contains(index) else { return [] }
        documents[index].syncUnits()
        if let error {
            documents[index].readError = error
            if index == current { message = error }
        }
        guard index == current, help == nil else { return [] }
        return continueSeeking(ended: true)
    }

    /// Starts going to `goal` on input still being read: there at once if it has arrived,
    /// else reading on (`.readToEnd`) until it does.
    mutating func seek(_ goal: Seeking) -> [PagerEffect] {
        seeking = goal
        _ = continueSeeking(ended: !active.isGrowing)
        return seeking == nil ? [] : [.readToEnd(document: current)]
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
        case .match(let from, let remaining):
            return seekMatch(from: from, remaining: remaining, ended: ended) ? stop : []
        }
    }

    /// The forward search of `.match`, over what has arrived; true when it is over. Once the
    /// input has ended the search wraps round to the top, as on any finished document.
    private mutating func seekMatch(from: SearchPosition, remaining: Int, ended: Bool) -> Bool {
        guard let pattern = search?.pattern else { seeking = nil; return true }
        let texts = SearchTexts(active)
        let searcher = DocumentSearcher(pattern: pattern, texts: texts)
        var position = from
        var left = remaining
        while left > 0, let hit = searcher.find(.forward, from: position, wrapAround: false) {
            left -= 1
            if left == 0 {
                seeking = nil
                showMatch(hit, texts: texts, pattern: pattern, forward: true)
                return true
            }
            position = hit.positionAfter
            if hit.range.isEmpty { position.utf8Offset += 1 }
        }
        guard !ended else {
            seeking = nil
            let (hit, _) = Self.find(searcher, forward: true, from: position, count: left)
            if let hit {
                showMatch(hit, texts: texts, pattern: pattern, forward: true)
                message = "Search hit BOTTOM, continuing at TOP"
            } else {
                message = "Pattern not found"
            }
            return true
        }
        // Not there yet: go on from the start of the last text, which may still grow.
        if !texts.isEmpty { position = max(position, SearchPosition(textIndex: texts.count - 1, utf8Offset: 0)) }
        seeking = .match(from: position, remaining: left)
        return false
    }

    /// `F`: go to the end and stay there as input arrives (less's `F`, `tail -f`). Any key
    /// stops it.
    mutating func followEnd() -> [PagerEffect] {
        guard help == nil else { return [] }
        active.jump(to: .bottom)
        following = true
        message = nil
        return [.readToEnd(document: current)]
    }

    /// Marks the units a reload changed (a cue in the margin until the next key).
    public mutating func markChanged(document index: Int, units: Set<Int>) {
        guard documents.indices.contains(index) else { return }
        documents[index].changedUnits = units
    }

    /// Starts following without a key (`+F`).
    public mutating func startFollowing() -> [PagerEffect] { followEnd() }

    /// `→`/`←`: half a screen sideways (or `count` columns): chopped text lines, and in
    /// Markdown the tables too wide for the screen (prose is always wrapped).
    mutating func shiftHorizontally(right: Bool, count: Int?) {
        guard config.chopLongLines else {
            message = active.isText ? "Lines are wrapped (start with -S to chop them)"
                                    : "Markdown is wrapped to the width (-S chops wide tables instead)"
            return
        }
        let delta = max(1, count ?? layoutOptions.width / 2)
        let shift = max(0, horizontalShift + (right ? delta : -delta))
        guard shift != horizontalShift else { return }
        horizontalShift = shift
        relayoutAll()
    }

    mutating func relayoutAll() {
        let options = layoutOptions
        let rows = contentRows
        documents[current].relayout(options: options, contentRows: rows)
        help?.relayout(options: options, contentRows: rows)
    }
}
