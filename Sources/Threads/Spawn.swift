#if canImport(Glibc)
import Glibc
#endif

extension Platform {
    /// Starts `arguments[0]` (found on `PATH`) with `arguments`, in folio's environment; its
    /// standard input and output are `standardInput` and `standardOutput` where given (else
    /// folio's). The signals in `defaultSignals` get their default actions back (those folio
    /// ignores or catches meanwhile) and no signal is blocked in it. The process id, or nil
    /// when it could not be started. The caller closes its descriptors and waits for it.
    public static func spawn(_ arguments: [[UInt8]], standardInput: Int32? = nil, standardOutput: Int32? = nil,
                             defaultSignals: [Int32]) -> pid_t? {
        guard !arguments.isEmpty else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, 0) }
        if let standardOutput { posix_spawn_file_actions_adddup2(&actions, standardOutput, 1) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { argument in
            (argument + [0]).withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        } + [nil]
        defer { for p in argv { free(p) } }
        var process: pid_t = 0
        guard let file = argv[0], posix_spawnp(&process, file, &actions, &attributes, argv, environ) == 0 else { return nil }
        return process
    }
}
