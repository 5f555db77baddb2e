/// How work may be spread over threads: a value the edge hands to the pure modules that can
/// use several (the parse in pieces through `ParseOptions`, layout and row counts through
/// `LayoutOptions`), so that they never ask the machine or choose a priority themselves.
/// `map` runs through `parallelMap`, the one parallel map.
public struct Executor: Hashable, Sendable {
    /// Threads the work may take at once; 1 runs it on the calling thread, in order.
    public var threads: Int
    /// Whether the worker threads run below the event loop (`BackgroundPriority`): the
    /// pager's work off the loop does; print mode's, which is what the user waits for, does not.
    public var background: Bool

    public init(threads: Int, background: Bool = true) {
        self.threads = max(1, threads)
        self.background = background
    }

    /// Everything on the calling thread.
    public static let serial = Executor(threads: 1, background: false)
    /// Every core, the workers at background priority.
    public static let machine = Executor(threads: Platform.processorCount)

    /// The same threads at the caller's priority.
    public var foreground: Executor { Executor(threads: threads, background: false) }

    /// `work(k)` for every k in `0..<count`, results in order: in `slices` contiguous runs on
    /// up to `threads` threads, or in order here when one thread (or one item) is all there is.
    public func map<T>(count: Int, slices: Int? = nil, _ work: (Int) -> T) -> [T] {
        guard threads > 1, count > 1 else { return (0..<count).map(work) }
        // Fewer threads than cores: no more runs than threads, so no more run at once.
        let runs = threads >= Platform.processorCount ? slices : min(slices ?? count, threads)
        return parallelMap(count: count, slices: runs, background: background, work)
    }
}
