@preconcurrency import Glibc
import Synchronization
import Threads

/// What a crash shows: one short line on standard error, after the terminal is restored, and
/// an immediate exit — not Swift's backtracer, which on a terminal asks "Press space to
/// interact…" and waits ~30 s, and prints the build's source paths.
///
/// The Swift runtime reads `SWIFT_BACKTRACE` when the process starts, before `main`, so
/// setting it from `main` is too late (re-executing folio would cost every start an exec).
/// Instead `install` replaces the runtime's handlers for the fatal signals with folio's own
/// (the same handler that restores the terminal, see `EmergencyRestore`). A user who sets
/// `SWIFT_BACKTRACE` (e.g. `enable=yes,interactive=no`) asked for the backtracer: then the
/// handler restores the terminal and hands the signal on to it, as before.
public enum CrashReport {
    /// Whether a crash writes the short report and exits (else the previous handler runs).
    static let isShort = Atomic<Bool>(false)
    /// One preallocated report per signal of `EmergencyRestore.fatalSignals` (the handler
    /// must not allocate), written once before `isShort` is set.
    static let reports = SignalShared<[UnsafeBufferPointer<UInt8>]>([])

    /// Call first thing in `main`.
    public static func install(environment: [String: String]) {
        guard environment["SWIFT_BACKTRACE"] == nil else { return }
        reports.value = EmergencyRestore.fatalSignals.map { signo in
            let text = "folio: crashed (\(name(of: signo))). This is a bug in folio; the terminal was restored. "
                + "Run with SWIFT_BACKTRACE=enable=yes,interactive=no for a backtrace.\n"
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = bytes.initialize(from: text.utf8)
            return UnsafeBufferPointer(bytes)
        }
        isShort.store(true, ordering: .releasing)
        EmergencyRestore.installFatalHandlers()
    }

    /// Writes the report for `signo` to standard error. Async-signal-safe.
    static func writeReport(signal signo: Int32) {
        for (i, number) in EmergencyRestore.fatalSignals.enumerated() where number == signo && i < reports.value.count {
            _ = write(2, reports.value[i].baseAddress, reports.value[i].count)
            return
        }
    }

    static func name(of signo: Int32) -> String {
        switch signo {
        case SIGSEGV: return "SIGSEGV, invalid memory access"
        case SIGBUS: return "SIGBUS, invalid memory access"
        case SIGILL, SIGTRAP: return "\(signo == SIGILL ? "SIGILL" : "SIGTRAP"), a runtime check failed"
        case SIGFPE: return "SIGFPE, arithmetic error"
        case SIGABRT: return "SIGABRT, aborted"
        case SIGSYS: return "SIGSYS, a system call was refused"
        default: return "signal \(signo)"
        }
    }

    /// Test hook: crashes on purpose at `point` when `FOLIO_TEST_CRASH` names it (`print`,
    /// `pager`), so end-to-end tests can check what a crash leaves on the terminal.
    public static func crashIfAsked(at point: String, environment: [String: String]) {
        guard environment["FOLIO_TEST_CRASH"] == point else { return }
        fatalError("FOLIO_TEST_CRASH=\(point)")
    }

    /// Test hook: never returns at `point` when `FOLIO_TEST_HANG` names it (`exit`: the way
    /// out after a signal, where the position is saved), so the tests see the watchdog end
    /// a folio whose exit hangs.
    public static func hangIfAsked(at point: String) {
        guard let value = getenv("FOLIO_TEST_HANG"), String(cString: value) == point else { return }
        while true { pause() }
    }
}
