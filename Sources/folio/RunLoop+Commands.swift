import Dispatch

/// What the run loop does for the pager's commands that reach outside it: the clock the key
/// decoder's Esc prefix is measured on.
extension RunLoop {
    /// Milliseconds on the monotonic clock, for `KeyDecoder.feed(_:at:)` and
    /// `flushTimeout(at:)`: whether a key came within `KeyDecoder.escapePrefixWindow` of a
    /// lone Esc.
    static func milliseconds() -> Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) }
}
