@preconcurrency import Glibc

/// What the pager does with a signal while it owns the terminal (raw mode, the alternate
/// screen, mouse reporting, a hidden cursor). No signal may end folio with the terminal left
/// that way: every signal whose default action ends the process is caught, and either ends
/// folio the way `q` does (terminal restored first) or is dropped.
public enum SignalAction: Hashable, Sendable {
    /// An event the run loop acts on and goes on: SIGWINCH (resize), SIGTSTP (stop like ^Z),
    /// SIGCONT (redraw).
    case event
    /// Ends folio: the run loop restores the terminal, saves the reading positions, and the
    /// process ends by the same signal (default action), so the parent sees it.
    case end
    /// Caught and dropped. A write that raised it fails with an error instead (SIGPIPE:
    /// EPIPE; SIGXFSZ over a file-size limit: EFBIG, a save that failed like any other).
    /// Caught by a handler that does nothing, not set to SIG_IGN: an ignored signal stays
    /// ignored in the programs folio starts (the editor, a browser), a handled one does not.
    case ignore
    /// A fault (or a crash folio raised itself): the crash handler (`EmergencyRestore`)
    /// restores the terminal, then writes the short report or hands the signal on.
    case crash
    /// Left alone: cannot be caught (SIGKILL, SIGSTOP), its default action does not end the
    /// process (SIGCHLD, SIGURG: ignored; SIGTTIN, SIGTTOU: stop — they stop folio only
    /// before it changes the terminal, when it is in the background), or glibc's own
    /// (the two below SIGRTMIN, for thread cancellation and set*id).
    case leave
}

public enum SignalPolicy {
    /// The action for signal `signo`. Pure and async-signal-safe (the signal handler asks it).
    public static func action(for signo: Int32) -> SignalAction {
        switch signo {
        case SIGWINCH, SIGTSTP, SIGCONT:
            return .event
        case SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
             SIGSTKFLT, SIGPWR, SIGIO:
            return .end
        case SIGPIPE, SIGXFSZ:
            return .ignore
        case SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS:
            return .crash
        default:
            // Real-time signals end the process by default; nothing in folio uses them.
            if signo >= __libc_current_sigrtmin() && signo <= __libc_current_sigrtmax() { return .end }
            return .leave
        }
    }

    /// Every signal number there is (1...SIGRTMAX).
    public static var numbers: ClosedRange<Int32> { 1...__libc_current_sigrtmax() }

    /// The signals `SignalPipe` catches: the events, those that end folio and those it drops
    /// (the faults are `EmergencyRestore`'s).
    public static var caught: [Int32] {
        numbers.filter {
            let action = action(for: $0)
            return action == .event || action == .end || action == .ignore
        }
    }
}
