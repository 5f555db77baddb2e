@preconcurrency import Glibc

/// What the last-resort restorers need, kept outside any object so that `atexit` and the
/// fatal-signal handler (which cannot capture context) can reach it.
///
/// Why `nonisolated(unsafe)` is sound here: the values are written only by
/// `TerminalSession` on the thread that owns it, while the terminal is in a consistent state
/// (`arm` before entering raw mode, `disarm` after a normal restore). The readers are
/// `atexit` (same thread, at exit) and the handler for a fatal signal, which only reads plain
/// words and a preallocated byte buffer and calls the async-signal-safe `write(2)` and
/// `tcsetattr(3)`.
enum EmergencyRestore {
    nonisolated(unsafe) static var armed = false
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var savedTermios = termios()
    /// Preallocated copy of the bytes that undo our terminal modes.
    nonisolated(unsafe) static var leaveBytes: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 256)
    nonisolated(unsafe) static var leaveCount = 0
    nonisolated(unsafe) static var atexitRegistered = false
    nonisolated(unsafe) static var fatalHandlersInstalled = false
    nonisolated(unsafe) static var previousFatal: [Int32: sigaction] = [:]

    /// The faults (`SignalAction.crash`). SIGSYS is what a seccomp filter sends for a system
    /// call it refuses.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    static func arm(fd: Int32, termios saved: termios, leave: [UInt8]) {
        armed = false
        self.fd = fd
        savedTermios = saved
        leaveCount = min(leave.count, leaveBytes.count)
        for i in 0..<leaveCount { leaveBytes[i] = leave[i] }
        armed = true
        if !atexitRegistered {
            atexitRegistered = true
            atexit { EmergencyRestore.run() }
        }
        installFatalHandlers()
    }

    /// Installs the fatal-signal handler (once): restore the terminal, then either the short
    /// report (`CrashReport`) or the previous handler. Runs on its own stack, so a stack
    /// overflow still reaches it.
    static func installFatalHandlers() {
        guard !fatalHandlersInstalled else { return }
        fatalHandlersInstalled = true
        let stackSize = 64 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16)
        stack.ss_size = stackSize
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for number in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            // 0x80000000 does not fit Int32(_:)
            action.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND)) | Int32(SA_ONSTACK)
            var old = sigaction()
            sigaction(number, &action, &old)
            previousFatal[number] = old
        }
    }

    static func disarm() { armed = false }

    /// Restores the terminal if a session left it modified. Async-signal-safe.
    static func run() {
        guard armed else { return }
        armed = false
        _ = write(fd, leaveBytes.baseAddress, leaveCount)
        _ = tcsetattr(fd, TCSAFLUSH, &savedTermios)
    }
}

/// On a crash (a Swift trap is SIGILL/SIGTRAP, `fatalError` may abort): restore the terminal,
/// then write the short report and exit (`CrashReport.isShort`), or put back the previous
/// handler (the Swift backtracer, or the default) and re-raise, so its report appears on a
/// sane terminal.
private let fatalSignalHandler: @convention(c) (Int32) -> Void = { signo in
    EmergencyRestore.run()
    if CrashReport.isShort {
        CrashReport.writeReport(signal: signo)
        _exit(128 + signo)
    }
    if var old = EmergencyRestore.previousFatal[signo] {
        sigaction(signo, &old, nil)
    } else {
        signal(signo, SIG_DFL)
    }
    raise(signo)
}
