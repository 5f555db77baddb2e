@preconcurrency import Glibc
import Synchronization
import Threads

/// What the last-resort restorers need, kept outside any object so that `atexit` and the
/// fatal-signal handler (which cannot capture context) can reach it.
///
/// `saved` is written only by `TerminalSession` on the thread that owns it while `armed` is
/// false (`arm` before entering raw mode, `disarm` after a normal restore), then `armed` is
/// set with release order; the readers are `atexit` (same thread, at exit) and the handler
/// for a fatal signal, which take `armed` (acquire) before reading plain words and a
/// preallocated byte buffer, and call the async-signal-safe `write(2)` and `tcsetattr(3)`.
/// The flags are lock-free atomics, which a handler may use.
enum EmergencyRestore {
    struct Saved {
        var fd: Int32 = -1
        var termios = Glibc.termios()
        /// Preallocated copy of the bytes that undo our terminal modes.
        var leaveBytes: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 256)
        var leaveCount = 0
        /// The handlers the fatal ones replaced, by index in `fatalSignals`.
        var previousFatal: [sigaction] = []
    }
    static let saved = SignalShared(Saved())
    static let armed = Atomic<Bool>(false)
    static let atexitRegistered = Atomic<Bool>(false)
    static let fatalHandlersInstalled = Atomic<Bool>(false)

    /// The faults (`SignalAction.crash`). SIGSYS is what a seccomp filter sends for a system
    /// call it refuses.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    static func arm(fd: Int32, termios saved: termios, leave: [UInt8]) {
        armed.store(false, ordering: .relaxed)
        self.saved.value.fd = fd
        self.saved.value.termios = saved
        let count = min(leave.count, self.saved.value.leaveBytes.count)
        for i in 0..<count { self.saved.value.leaveBytes[i] = leave[i] }
        self.saved.value.leaveCount = count
        armed.store(true, ordering: .releasing)
        if !atexitRegistered.exchange(true, ordering: .relaxed) {
            atexit { EmergencyRestore.run() }
        }
        installFatalHandlers()
    }

    /// Installs the fatal-signal handler (once): restore the terminal, then either the short
    /// report (`CrashReport`) or the previous handler. Runs on its own stack, so a stack
    /// overflow still reaches it.
    static func installFatalHandlers() {
        guard !fatalHandlersInstalled.exchange(true, ordering: .relaxed) else { return }
        let stackSize = 64 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16)
        stack.ss_size = stackSize
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        saved.value.previousFatal = Array(repeating: sigaction(), count: fatalSignals.count)
        for (i, number) in fatalSignals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            // 0x80000000 does not fit Int32(_:)
            action.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND)) | Int32(SA_ONSTACK)
            var old = sigaction()
            sigaction(number, &action, &old)
            saved.value.previousFatal[i] = old
        }
    }

    static func disarm() { armed.store(false, ordering: .relaxed) }

    /// Restores the terminal if a session left it modified. Async-signal-safe.
    static func run() {
        guard armed.exchange(false, ordering: .acquiring) else { return }
        _ = write(saved.value.fd, saved.value.leaveBytes.baseAddress, saved.value.leaveCount)
        _ = tcsetattr(saved.value.fd, TCSAFLUSH, &saved.value.termios)
    }
}

/// On a crash (a Swift trap is SIGILL/SIGTRAP, `fatalError` may abort): restore the terminal,
/// then write the short report and exit (`CrashReport.isShort`), or put back the previous
/// handler (the Swift backtracer, or the default) and re-raise, so its report appears on a
/// sane terminal.
private let fatalSignalHandler: @convention(c) (Int32) -> Void = { signo in
    EmergencyRestore.run()
    if CrashReport.isShort.load(ordering: .relaxed) {
        CrashReport.writeReport(signal: signo)
        _exit(128 + signo)
    }
    if let i = EmergencyRestore.fatalSignals.firstIndex(of: signo), i < EmergencyRestore.saved.value.previousFatal.count {
        sigaction(signo, &EmergencyRestore.saved.value.previousFatal[i], nil)
    } else {
        signal(signo, SIG_DFL)
    }
    raise(signo)
}
