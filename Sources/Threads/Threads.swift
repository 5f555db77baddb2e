// Threads and locks on pthreads. folio imports FoundationEssentials, not Foundation: full
// Foundation links CoreFoundation and ICU into the static binary (37 MB of data, 3,000 more
// protocol conformances the Swift runtime scans on each first generic use), which cost about
// 3 ms of every start-up. NSLock, NSCondition and Thread are the parts of it folio used.
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
}

/// Runs `body` on a new detached thread with a stack of `stackSize` bytes.
public func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    defer { pthread_attr_destroy(&attr) }
    pthread_attr_setstacksize(&attr, stackSize)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    let arg = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, &attr, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, arg)
    precondition(rc == 0, "cannot start a thread: error \(rc)")
}
