@preconcurrency import Glibc
import Testing
@testable import TerminalIO

/// Which signals end folio, which it drops, which are faults: no signal whose default action
/// ends the process may find the terminal raw (issue 31).
@Suite struct SignalPolicyTests {
    /// signal(7)'s default actions on Linux: the signals that end the process ("Term" and
    /// "Core"), written out here rather than derived from the code under test.
    static let endsTheProcessByDefault: Set<Int32> = [
        SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGUSR1, SIGSEGV,
        SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,
        SIGPWR, SIGSYS,
    ]

    /// glibc keeps the two real-time signals below SIGRTMIN for itself (thread cancellation,
    /// set*id across threads): nobody else may touch them.
    static var glibcOwn: ClosedRange<Int32> { 32...(__libc_current_sigrtmin() - 1) }

    static var realTime: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// The law: every signal whose default action ends the process, except SIGKILL (which
    /// cannot be caught) and glibc's own, is caught — it ends folio (terminal restored
    /// first), is dropped, or goes to the crash handler. Nothing else is taken over except
    /// the three events.
    @Test func everySignalThatEndsTheProcessIsCaught() {
        for signo in SignalPolicy.numbers where !Self.glibcOwn.contains(signo) {
            let ends = Self.endsTheProcessByDefault.contains(signo) || Self.realTime.contains(signo)
            let action = SignalPolicy.action(for: signo)
            if ends && signo != SIGKILL {
                #expect(action != .leave, "signal \(signo) ends the process and is not caught")
            } else if ![SIGWINCH, SIGTSTP, SIGCONT].contains(signo) {
                #expect(action == .leave, "signal \(signo) does not end the process, yet \(action)")
            }
        }
        for signo in Self.glibcOwn { #expect(SignalPolicy.action(for: signo) == .leave) }
        #expect(SignalPolicy.numbers.upperBound == __libc_current_sigrtmax())
    }

    @Test(arguments: [
        (SIGTERM, SignalAction.end), (SIGHUP, .end), (SIGINT, .end), (SIGQUIT, .end),
        (SIGUSR1, .end), (SIGUSR2, .end), (SIGALRM, .end), (SIGVTALRM, .end), (SIGPROF, .end),
        (SIGXCPU, .end), (SIGSTKFLT, .end), (SIGPWR, .end), (SIGIO, .end),
        (SIGPIPE, .ignore), (SIGXFSZ, .ignore),
        (SIGSEGV, .crash), (SIGBUS, .crash), (SIGILL, .crash), (SIGFPE, .crash), (SIGABRT, .crash),
        (SIGTRAP, .crash), (SIGSYS, .crash),
        (SIGWINCH, .event), (SIGTSTP, .event), (SIGCONT, .event),
        (SIGKILL, .leave), (SIGSTOP, .leave), (SIGCHLD, .leave), (SIGURG, .leave), (SIGTTIN, .leave),
        (SIGTTOU, .leave),
    ])
    func actionPerSignal(signo: Int32, expected: SignalAction) {
        #expect(SignalPolicy.action(for: signo) == expected)
    }

    @Test func realTimeSignalsEndFolio() {
        for signo in Self.realTime { #expect(SignalPolicy.action(for: signo) == .end, "signal \(signo)") }
    }

    /// What reaches the run loop: a `Signal` for every event and every signal that ends
    /// folio, with its own number back; none for the others.
    @Test func signalsTheRunLoopHearsOf() {
        for signo in SignalPolicy.numbers {
            let action = SignalPolicy.action(for: signo)
            guard let signal = Signal(number: signo) else {
                #expect(action != .end && action != .event, "signal \(signo)")
                continue
            }
            #expect(signal.number == signo)
        }
        #expect(Signal(number: SIGUSR1) == .other(SIGUSR1))
        #expect(Signal(number: SIGTERM) == .terminate)
        #expect(Signal(number: SIGPIPE) == nil)
        for signal in [Signal.resize, .suspendRequest, .continued] {
            #expect(SignalPolicy.action(for: signal.number) != .end)
        }
    }

    /// The faults are the crash handler's, each with its line of report.
    @Test func faultsGoToTheCrashHandler() {
        let caught = Set(SignalPolicy.caught)
        for signo in SignalPolicy.numbers where SignalPolicy.action(for: signo) == .crash {
            #expect(EmergencyRestore.fatalSignals.contains(signo), "signal \(signo)")
            #expect(!caught.contains(signo))
            #expect(!CrashReport.name(of: signo).hasPrefix("signal "), "signal \(signo) has a name")
        }
        #expect(Set(EmergencyRestore.fatalSignals).count == EmergencyRestore.fatalSignals.count)
    }
}

/// Installing and removing the handlers for real: in `TerminalSessionTests`, whose tests run
/// one at a time (handlers are process-wide, and one `SignalPipe` may be installed at a time).
/// No test here raises a signal: one that a missing handler left to its default would end the
/// test process, and a test runner's threads may block it anyway.
extension TerminalSessionTests {
    static func disposition(_ signo: Int32) -> Int {
        var action = sigaction()
        sigaction(signo, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    }

    /// Sets `signo`'s handler to SIG_DFL or SIG_IGN; returns what was there, to put back whole.
    static func set(_ signo: Int32, ignored: Bool) -> sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = ignored ? SIG_IGN : SIG_DFL
        sigemptyset(&action.sa_mask)
        var old = sigaction()
        sigaction(signo, &action, &old)
        return old
    }

    static func putBack(_ saved: [Int32: sigaction]) {
        for (signo, var action) in saved { sigaction(signo, &action, nil) }
    }

    /// While a session's pipe is installed, every caught signal has a handler — not SIG_IGN,
    /// whose setting the editor and browsers folio starts would inherit — and every signal
    /// is back as it was after `uninstall`.
    @Test func theWholePolicyIsInstalledAndRemoved() throws {
        // A runner may have been started with some of these ignored: make them default, so
        // that the test sees them caught (signals ignored at start are the next test's).
        var saved: [Int32: sigaction] = [:]
        defer { Self.putBack(saved) }
        for signo in SignalPolicy.caught where Self.disposition(signo) == SignalPipe.ignoredHandler {
            saved[signo] = Self.set(signo, ignored: false)
        }
        let numbers = Array(SignalPolicy.numbers)
        let before = numbers.map { Self.disposition($0) }
        do {
            let pipe = try SignalPipe()
            pipe.install()
            for (signo, old) in zip(numbers, before) {
                let now = Self.disposition(signo)
                switch SignalPolicy.action(for: signo) {
                case .event, .end:
                    #expect(now == unsafeBitCast(signalPipeHandler, to: Int.self), "signal \(signo)")
                case .ignore:
                    #expect(now == unsafeBitCast(droppingHandler, to: Int.self), "signal \(signo)")
                case .crash, .leave:
                    #expect(now == old, "signal \(signo) untouched")
                }
            }
            pipe.uninstall()
        }
        #expect(numbers.map { Self.disposition($0) } == before)
    }

    /// A signal that ends folio, or one it drops, that was ignored when folio started stays
    /// ignored (a parent's `trap '' USR1`, `nohup`); the events are caught regardless.
    @Test func signalsIgnoredAtStartStayIgnored() throws {
        var saved: [Int32: sigaction] = [:]
        defer { Self.putBack(saved) }
        for signo in [SIGUSR2, SIGPIPE, SIGWINCH] { saved[signo] = Self.set(signo, ignored: true) }
        do {
            let pipe = try SignalPipe()
            pipe.install()
            #expect(Self.disposition(SIGUSR2) == SignalPipe.ignoredHandler)
            #expect(Self.disposition(SIGPIPE) == SignalPipe.ignoredHandler)
            #expect(Self.disposition(SIGWINCH) == unsafeBitCast(signalPipeHandler, to: Int.self))
            pipe.uninstall()
        }
        for signo in [SIGUSR2, SIGPIPE, SIGWINCH] { #expect(Self.disposition(signo) == SignalPipe.ignoredHandler) }
    }
}
