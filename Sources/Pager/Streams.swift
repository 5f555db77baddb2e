import LineLayout
import Viewport

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
        if following || seekingEnd {
            active.jump(to: .bottom)
        }
        return []
    }

    mutating func inputEnded(document index: Int, error: String?) -> [PagerEffect] {
        guard documents.indices.contains(index) else { return [] }
        documents[index].syncUnits()
        if let error {
            documents[index].readError = error
            if index == current { message = error }
        }
        if index == current, seekingEnd {
            seekingEnd = false
            active.jump(to: .bottom)
        }
        return []
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
