import Dispatch

/// What the run loop does for the pager's commands that reach outside it: the clock the key
/// decoder's Esc prefix is measured on, the files a search goes on into.
extension RunLoop {
    /// A search went on from document `index` into the one now in view (`/*`, `Esc n`): the
    /// position left is saved; the new one counts as shown, so its saved position is not
    /// restored over the match the search shows there.
    mutating func leftDocumentForSearch(_ index: Int) {
        positions.save(state: state, loaded: loaded, documentIndex: index)
        shown.insert(state.current)
    }

    /// Milliseconds on the monotonic clock, for `KeyDecoder.feed(_:at:)` and
    /// `flushTimeout(at:)`: whether a key came within `KeyDecoder.escapePrefixWindow` of a
    /// lone Esc.
    static func milliseconds() -> Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) }
}
