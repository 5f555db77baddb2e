// Threads and locks on pthreads. folio links no Foundation at all: full Foundation linked
// CoreFoundation and ICU into the static binary (37 MB of data, 3,000 more protocol
// conformances the Swift runtime scans on each first generic use), about 3 ms of every
// start-up; FoundationEssentials alone still cost its relocations and set-up (with
// `_StringProcessing` and `_RegexParser`, 15,000 of the binary's 43,000 relocations; see
// docs/benchmarks.md, "Start-up"). NSLock, NSCondition and Thread are the parts of it folio
// used; the store's JSON is `ReadingPositions.StoreJSON`, substring search `TextBasics`.
// Nor libdispatch: its constructor and its 4,800 relocations (17 pages copied at every start)
// cost each start; the parallel map's workers (`WorkerPool`), `Semaphore` and `runAfter` are
// what folio used of it.
import CPlatform
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A mutex.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    public init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
}

/// A mutex with a condition variable: `wait` is called with the lock held.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    public init() { pthread_cond_init(cond, nil) }
    deinit { pthread_cond_destroy(cond); cond.deallocate() }
    public func lock() { mutex.lock() }
    public func unlock() { mutex.unlock() }
    public func wait() { pthread_cond_wait(cond, mutex.mutex) }
    public func signal() { pthread_cond_signal(cond) }
    public func broadcast() { pthread_cond_broadcast(cond) }
}

/// The pager's background work (parses, layouts, row counts, reloads) runs at a lower
/// priority than its run loop: on two cores, a 20 MB reload parsing on both took a key from
/// 7 ms to 30–80 ms. The pager turns it on once at start (`enable`, on the main thread;
/// never in print mode, where that work is the foreground); then every thread `startThread`
/// starts, and every worker thread that calls `enter` (a parallel loop's iterations), is
/// lowered for good — Linux keeps a nice value per thread, and such threads only ever do
/// background work in the pager. The main thread is never lowered.
public enum BackgroundPriority {
    nonisolated(unsafe) private static var enabled = false
    nonisolated(unsafe) private static var mainThread = pthread_t()
    /// The nice value background threads get (the run loop's is the process's).
    public static let niceness: Int32 = 5

    public static func enable() {
        mainThread = pthread_self()
        enabled = true
    }

    /// Lowers the calling thread if background priority is on and it is not the main thread.
    public static func enter() {
        guard enabled, pthread_equal(pthread_self(), mainThread) == 0 else { return }
        // On Linux, `who` 0 is the calling thread, not the whole process.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }
}

/// Runs `body` on a new detached thread with a stack of `stackSize` bytes, below the event
/// loop's priority (`BackgroundPriority.enter`) unless `background` is false: work the loop
/// is about to wait for, which starts on another core (`OtherCore`).
public func startThread(stackSize: Int, background: Bool = true, _ body: @escaping @Sendable () -> Void) {
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    defer { pthread_attr_destroy(&attr) }
    pthread_attr_setstacksize(&attr, stackSize)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    let run: @Sendable () -> Void
    if background {
        run = { BackgroundPriority.enter(); body() }
    } else if OtherCore.place(&attr) {
        run = { OtherCore.release(); body() }
    } else {
        run = body
    }
    let arg = ThreadBody.retained(run)
    var thread = pthread_t()
    let rc = pthread_create(&thread, &attr, ThreadBody.run, arg)
    precondition(rc == 0, "cannot start a thread: error \(rc)")
}

/// A thread's body passed through C as a pointer (`pthread_create`, the early thread): the new
/// thread takes it back and runs it (`run`).
private final class ThreadBody {
    let body: @Sendable () -> Void
    private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    static func retained(_ body: @escaping @Sendable () -> Void) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    }

    static let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }
}

/// The thread the process started before `main` (Linux, `CPlatform`'s constructor), waiting on
/// another core for work `main` is about to ask for: started for a large Markdown file named on
/// the command line, for the early preview's parse (`EarlyPreview` in Session says the rule).
/// It saves that parse the 0.2 ms a thread takes to start.
public enum EarlyThread {
    /// Runs `body` on it, at the loop's priority; false when there is none, or it was given
    /// work or let go already (then start a thread).
    public static func run(_ body: @escaping @Sendable () -> Void) -> Bool {
        let arg = ThreadBody.retained(body)
        guard folio_early_thread_give(ThreadBody.run, arg) != 0 else {
            Unmanaged<ThreadBody>.fromOpaque(arg).release()
            return false
        }
        return true
    }

    /// Lets it end unused; nothing when there is none or it has work.
    public static func letGo() { folio_early_thread_let_go() }

    /// The argument (its bytes) it was started for, and that file's size then, while it waits
    /// for work; nil when there is no such thread.
    public static var startedFor: (path: [UInt8], size: Int)? {
        var size: Int64 = 0
        guard let path = folio_early_thread_path(&size) else { return nil }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self), count: strlen(path))
        return (Array(bytes), Int(size))
    }

    /// The constructor starts it only for a file larger than this (bytes).
    public static let minimumFileSize = Int(FOLIO_EARLY_THREAD_MIN_SIZE)

    /// Whether the constructor takes `path` (its bytes) for a Markdown file's name; nil when
    /// the path is not ASCII (the constructor then starts nothing).
    public static func namesMarkdown(_ path: [UInt8]) -> Bool? {
        switch path.withUnsafeBufferPointer({ folio_names_markdown($0.baseAddress, UInt($0.count)) }) {
        case 1: true
        case 0: false
        default: nil
        }
    }
}

/// Where a thread the caller waits for starts. Linux queues a new thread on its parent's core;
/// a parent that keeps running (the first screen's set-up) leaves it waiting there until the
/// scheduler's balancing moves it: a third of a millisecond at start-up, as long as the
/// preview's whole parse takes (docs/benchmarks.md, "Start-up"). Such a thread is created
/// bound to the cores the process may use other than the caller's, and lets itself run on
/// all of them again as soon as it runs. With one core allowed, nothing is changed.
enum OtherCore {
    /// Binds `attr` to the allowed cores but the caller's; false when nothing was changed.
    static func place(_ attr: inout pthread_attr_t) -> Bool {
        folio_thread_attr_other_core(&attr) == 1
    }

    /// Called first on the new thread: every allowed core again.
    static func release() { folio_thread_unbind() }
}

/// The one parallel map: `work(k)` for every k in `0..<count`, in `slices` contiguous runs of
/// k at once on all cores (the calling thread among them), results in order. Each worker is
/// lowered to background priority (`BackgroundPriority.enter`) unless `background` is false.
///
/// `work` runs on several threads at once: it may read what it captures, and write only
/// what it owns (its result, or state behind a lock). That is the contract this function
/// cannot check — it is why it lives here, with the module's other unchecked parts, rather
/// than as `@unchecked` wrappers in each module that needs it.
public func parallelMap<T>(count: Int, slices: Int? = nil, background: Bool = true, _ work: (Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    let slices = max(1, min(count, slices ?? count))
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        let out = UncheckedPointer(base: buffer.baseAddress!)
        withoutActuallyEscaping(work) { work in
            let shared = UncheckedBox(work)
            WorkerPool.shared.perform(iterations: slices) { s in
                if background { BackgroundPriority.enter() }
                for k in (s * count / slices)..<((s + 1) * count / slices) {
                    (out.base + k).initialize(to: shared.value(k))
                }
            }
        }
        initialized = count
    }
}

/// The threads of `parallelMap`: one per core but one, started by the first map that has
/// work for them and kept for the process, as libdispatch's pool was. A map's caller works
/// on it too and takes iterations until none is left, so every map finishes, whether maps
/// run at once (from several threads) or one inside another.
final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool()

    /// One `perform`: its iterations are taken in order by whoever is free.
    private final class Job: @unchecked Sendable {
        let iterations: Int
        /// Read only for an iteration taken (so before `left` reaches 0), and let go by
        /// `perform` after that, before its scope ends: the closure does not escape it.
        var body: ((Int) -> Void)?
        let next = Atomic<Int>(0)
        let left: Atomic<Int>
        let done = Conditioned(false)
        init(iterations: Int, body: @escaping (Int) -> Void) {
            self.iterations = iterations; self.body = body; left = Atomic(iterations)
        }
        /// Runs iterations until none is left to take; false when there was none.
        func work() -> Bool {
            var worked = false
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < iterations else { return worked }
                worked = true
                body!(k)
                if left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    done.withLock { $0 = true }
                }
            }
        }
    }

    private let condition = Condition()
    private var jobs: [Job] = []  // maps with iterations maybe left, oldest first
    private var workers = 0

    /// `body(i)` for every i in `0..<iterations`, on the pool and the calling thread; returns
    /// when all have returned.
    func perform(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = Job(iterations: iterations, body: body)
            condition.lock()
            jobs.append(job)
            let wanted = Platform.processorCount - 1 - workers
            if wanted > 0 { workers += wanted }
            condition.broadcast()
            condition.unlock()
            for _ in 0..<max(0, wanted) { startThread(stackSize: 8 << 20, background: false) { WorkerPool.shared.serve() } }
            _ = job.work()
            drop(job)
            job.done.wait { $0 }
            job.body = nil
        }
    }

    private func drop(_ job: Job) {
        condition.lock()
        jobs.removeAll { $0 === job }
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs[0]
            condition.unlock()
            if !job.work() { drop(job) }
        }
    }
}

/// A counting semaphore.
public final class Semaphore: @unchecked Sendable {
    private let condition = Condition()
    private var count: Int
    public init(value: Int) { count = value }
    /// Takes one, waiting while there is none.
    public func wait() {
        condition.lock()
        while count <= 0 { condition.wait() }
        count -= 1
        condition.unlock()
    }
    /// Gives one back, waking a waiter.
    public func signal() {
        condition.lock()
        count += 1
        condition.signal()
        condition.unlock()
    }
}

/// Runs `body` on a new background thread `seconds` from now.
public func runAfter(seconds: Double, _ body: @escaping @Sendable () -> Void) {
    startThread(stackSize: 1 << 20) {
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
        body()
    }
}

/// A buffer written by several threads at disjoint indices (`parallelMap`).
private struct UncheckedPointer<T>: @unchecked Sendable { let base: UnsafeMutablePointer<T> }
/// A value shared with threads under `parallelMap`'s contract.
private struct UncheckedBox<T>: @unchecked Sendable { let value: T; init(_ value: T) { self.value = value } }

/// A value kept for signal handlers: written by the thread that owns it while no handler can
/// read it (before a handler is installed or armed, or with the signal blocked), read by the
/// handler, which reads only plain words and memory allocated beforehand. A signal handler can
/// take no lock, so this is the contract, and the one place that states it.
public final class SignalShared<Value>: @unchecked Sendable {
    /// (No run-time exclusivity check: a handler must call nothing but what is
    /// async-signal-safe.)
    @exclusivity(unchecked) public var value: Value
    public init(_ value: Value) { self.value = value }
}

/// State behind a lock, reached only inside `withLock`: the way a class shared between
/// threads keeps what changes (`final class X: Sendable { let state: Locked<State> }`, which
/// the compiler then checks). Unlike the toolchain's `Mutex`, `body` may hand pieces of the
/// state (pointers into it) to closures of the caller's for the length of the call: the byte
/// store lends its chunks to the search and the layout that way.
public final class Locked<State>: @unchecked Sendable {
    private let lock = Lock()
    private var state: State
    public init(_ state: State) { self.state = state }
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// A pointer to a C object that its library documents as safe to use from several threads
/// at once once it is made (a compiled PCRE2 pattern, a tree-sitter language or query): made
/// before it is shared, never written through afterwards. The wrapper that holds one is then
/// checked `Sendable` like any other.
public struct SharedCObject: @unchecked Sendable {
    public let pointer: OpaquePointer
    public init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// `Locked`, with a condition a thread can wait on: `wait(until:)` sleeps until another
/// thread changes the state in `withLock` (which wakes the waiters) and the predicate holds.
public final class Conditioned<State>: @unchecked Sendable {
    private let condition = Condition()
    private var state: State
    public init(_ state: State) { self.state = state }

    /// Changes or reads the state; wakes a waiter.
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.signal(); condition.unlock() }
        return try body(&state)
    }

    /// Returns once `ready` holds of the state (checked under the lock).
    public func wait(until ready: (State) -> Bool) {
        condition.lock()
        while !ready(state) { condition.wait() }
        condition.unlock()
    }
}
