import Threads

/// The event loop's time: seconds on a monotonic clock from an arbitrary start. Everything the
/// loop times — the Esc prefix's window, the colour query's deadline, the periodic save, the
/// look at followed and watched files, a watched file's grace while it is empty — reads this
/// clock, so a test can script time (`RunLoopTests`' `ScriptedClock`) instead of sleeping.
protocol LoopClock {
    /// Seconds since the clock's start; never goes back.
    func now() -> Double
}

extension LoopClock {
    /// Milliseconds, for `KeyDecoder.feed(_:at:)` and `flushTimeout(at:)`.
    func milliseconds() -> Int { Int((now() * 1000).rounded(.down)) }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), as every timer of folio's reads it.
struct SystemClock: LoopClock {
    func now() -> Double { Platform.monotonicSeconds() }
}
