@preconcurrency import Glibc
import Synchronization

/// Signals folio reacts to, as delivered by `SignalPipe` (which signals, and why:
/// `SignalPolicy`).
public enum Signal: Hashable, Sendable {
    /// SIGWINCH: the terminal changed size.
    case resize
    /// SIGTERM.
    case terminate
    /// SIGHUP: the terminal went away.
    case hangup
    /// SIGINT (from `kill`; with ISIG off, Ctrl-C arrives as the byte 0x03 instead).
    case interrupt
    /// SIGQUIT (from `kill`; Ctrl-\ arrives as the byte 0x1C).
    case quit
    /// SIGTSTP (from `kill`; Ctrl-Z arrives as the byte 0x1A).
    case suspendRequest
    /// SIGCONT: resumed after a stop.
    case continued
    /// Any other signal whose default action ends the process and that folio ends on
    /// (`SignalAction.end`: SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
    /// SIGSTKFLT, SIGPWR, SIGIO, the real-time signals), by its number.
    case other(Int32)

    /// The POSIX signal number.
    public var number: Int32 {
        switch self {
        case .resize: SIGWINCH
        case .terminate: SIGTERM
        case .hangup: SIGHUP
        case .interrupt: SIGINT
        case .quit: SIGQUIT
        case .suspendRequest: SIGTSTP
        case .continued: SIGCONT
        case .other(let number): number
        }
    }

    /// The signal for `number`; nil for a signal the run loop never hears of (see
    /// `SignalPolicy`: dropped, a fault, or left alone).
    public init?(number: Int32) {
        switch number {
        case SIGWINCH: self = .resize
        case SIGTERM: self = .terminate
        case SIGHUP: self = .hangup
        case SIGINT: self = .interrupt
        case SIGQUIT: self = .quit
        case SIGTSTP: self = .suspendRequest
        case SIGCONT: self = .continued
        default:
            guard SignalPolicy.action(for: number) == .end else { return nil }
            self = .other(number)
        }
    }
}

/// Write end of the self-pipe, read by the signal handler.
///
/// A signal handler cannot take a lock, and it may run on any thread at any instruction: the
/// descriptor is an atomic word (lock-free, so async-signal-safe), set *before* the handlers
/// are installed and reset only *after* they are removed; the handler only calls `write(2)`,
/// which is async-signal-safe, and keeps `errno` intact.
let signalPipeWriteFD = Atomic<Int32>(-1)

/// The handler for the signals the run loop hears of (`SignalAction.event` and `.end`): one
/// byte (the signal number) into the pipe. A signal that ends folio is also noted for
/// `TerminationWatchdog`.
let signalPipeHandler: @convention(c) (Int32) -> Void = { signo in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = write(signalPipeWriteFD.load(ordering: .relaxed), &byte, 1)  // non-blocking: a full pipe drops the byte, which is fine
    if TerminationWatchdog.ends(signo) && TerminationWatchdog.unanswered.load(ordering: .acquiring) == 0 {
        TerminationWatchdog.since.store(TerminationWatchdog.now(), ordering: .relaxed)
        TerminationWatchdog.unanswered.store(signo, ordering: .releasing)
    }
    errno = savedErrno
}

/// The handler for the signals folio drops (`SignalAction.ignore`): nothing. The system call
/// that raised the signal fails with its error (EPIPE, EFBIG) once it returns.
let droppingHandler: @convention(c) (Int32) -> Void = { _ in }

/// Makes every signal that ends folio (SIGTERM, SIGHUP, SIGUSR1, …: `SignalAction.end`) work
/// even while the run loop is busy (a huge layout, a slow device): when the loop has not
/// taken such a signal from the pipe within `grace`, a thread restores the terminal (as
/// after a crash) and ends the process with the signal's default action. The reading position is not saved then — never half-saved:
/// stores are replaced atomically.
///
/// `unanswered` and `since` are atomic words (lock-free: async-signal-safe), written by the
/// signal handler (since, then unanswered with release order) and cleared by the run loop's
/// `drain`; the watchdog reads unanswered (acquire), then since. A stale read delays or repeats
/// one check, nothing more.
enum TerminationWatchdog {
    static let unanswered = Atomic<Int32>(0)
    static let since = Atomic<Int64>(0)
    static let started = Atomic<Bool>(false)
    static let graceNanoseconds: Int64 = 1_000_000_000
    /// The grace in force: `graceNanoseconds`, longer in a test process that signals itself
    /// (its threads may not get the CPU for a second on a loaded machine, and the watchdog
    /// would end the whole test run).
    static let grace = Atomic<Int64>(graceNanoseconds)
    /// Once the loop has taken the signal, its way out (terminal restored, then the position
    /// saved, which waits up to `PositionStore.lockWait` for another folio's lock) gets this
    /// long before the watchdog ends the process anyway: a save that hangs must not keep a
    /// folio alive after SIGTERM or SIGHUP.
    static let exitGraceNanoseconds: Int64 = 8_000_000_000

    /// The run loop is ending folio for `signal` (it took it from the pipe, or the terminal
    /// went away): the watchdog now waits for the process to end within
    /// `exitGraceNanoseconds`. (Taking a signal from the pipe only disarms the watchdog: a
    /// program that takes SIGTERM and goes on — the tests — is not ended by it.)
    static func leaving(dueTo signal: Signal) {
        guard started.load(ordering: .relaxed), ends(signal.number) else { return }
        since.store(now() + exitGraceNanoseconds - grace.load(ordering: .relaxed), ordering: .relaxed)
        unanswered.store(signal.number, ordering: .releasing)
    }

    /// Async-signal-safe: the handler asks it.
    static func ends(_ signo: Int32) -> Bool {
        SignalPolicy.action(for: signo) == .end
    }

    /// CLOCK_MONOTONIC in nanoseconds (clock_gettime is async-signal-safe).
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    static func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { _ in
            while true {
                usleep(100_000)
                let signo = TerminationWatchdog.unanswered.load(ordering: .acquiring)
                guard signo != 0,
                      TerminationWatchdog.now() - TerminationWatchdog.since.load(ordering: .relaxed)
                        > TerminationWatchdog.grace.load(ordering: .relaxed)
                else { continue }
                EmergencyRestore.run()
                signal(signo, SIG_DFL)
                raise(signo)
                _exit(128 + signo)
            }
        }, nil)
        pthread_detach(thread)
    }
}

/// The self-pipe trick: `sigaction` handlers write one byte per signal into a non-blocking
/// pipe whose read end `poll` watches together with the tty. At most one pipe exists at a time.
public final class SignalPipe {
    /// Read end, for `poll`.
    public let readFD: Int32
    private let writeFD: Int32
    /// The handlers there before, by signal, in the order they were replaced. (A list, not a
    /// `[Int32: sigaction]`: the first dictionary of a type is made with run-time type look-ups,
    /// before every first screen.)
    private var previous: [(number: Int32, action: sigaction)] = []
    private var installed = false

    public init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError.system("pipe", errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]; writeFD = fds[1]
    }

    deinit {
        uninstall()
        close(readFD); close(writeFD)
    }

    /// Installs folio's handlers for every signal `SignalPolicy` catches (SA_RESTART; the
    /// pipe wakes `poll` regardless): the pipe's for the events and the signals that end
    /// folio, one that does nothing for those it drops. A signal that ends folio or that it
    /// drops, but that was ignored when folio started (`nohup`, a parent's `trap '' USR1`),
    /// stays ignored: the parent asked for that, and the programs folio starts inherit it.
    public func install() { install(numbers: SignalPolicy.caught) }

    /// Installs the handlers for `signals` only (tests).
    public func install(_ signals: [Signal]) { install(numbers: signals.map(\.number)) }

    private func install(numbers: [Int32]) {
        let current = signalPipeWriteFD.load(ordering: .relaxed)
        precondition(current == -1 || current == writeFD, "only one SignalPipe may be installed")
        signalPipeWriteFD.store(writeFD, ordering: .relaxed)
        for number in numbers {
            var current = sigaction()
            sigaction(number, nil, &current)
            let action = SignalPolicy.action(for: number)
            let ignored = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == Self.ignoredHandler
            if ignored && (action == .end || action == .ignore) { continue }
            install(number)
        }
        installed = true
        TerminationWatchdog.start()
    }

    /// SIG_IGN's value, `(void (*)(int))1`.
    static let ignoredHandler = 1

    /// Re-installs our handler for one signal (e.g. SIGTSTP after a suspension).
    public func install(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SignalPolicy.action(for: number) == .ignore ? droppingHandler : signalPipeHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var old = sigaction()
        sigaction(number, &action, &old)
        if !previous.contains(where: { $0.number == number }) { previous.append((number, old)) }
    }

    /// Puts back the handlers that were there before `install`.
    public func uninstall() {
        guard installed else { return }
        for (number, var old) in previous { sigaction(number, &old, nil) }
        previous = []
        installed = false
        signalPipeWriteFD.store(-1, ordering: .relaxed)
    }

    /// The signals received since the last call, in order, consecutive duplicates merged.
    public func drain() -> [Signal] {
        var result: [Signal] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            for byte in buffer[..<n] {
                // The loop has it: it ends folio itself (restore, save, exit).
                if TerminationWatchdog.ends(Int32(byte)) { TerminationWatchdog.unanswered.store(0, ordering: .relaxed) }
                guard let signal = Signal(number: Int32(byte)) else { continue }
                if result.last != signal { result.append(signal) }
            }
        }
        return result
    }
}

/// A failed system call, with its name and errno.
public enum TerminalError: Error, CustomStringConvertible {
    case system(String, Int32)
    case notATerminal

    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        case .notATerminal: return "no terminal: /dev/tty cannot be opened"
        }
    }
}
