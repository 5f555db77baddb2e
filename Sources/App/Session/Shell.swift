#if canImport(Glibc)
import Glibc
#endif
import Threads

/// Runs a shell command for `!` and `|` while the terminal is handed over, as less's
/// `lsystem` and `pipe_data`: `$SHELL -c COMMAND` (else `/bin/sh`; an empty command starts
/// the shell itself), standard input the terminal (folio's own may be the pipe it reads) or
/// the bytes `input` writes, output to the terminal. Like `system(3)`, folio ignores SIGINT
/// and SIGQUIT while the command runs, so `^C` stops the command and not folio; the command
/// gets their default actions back. A `^Z` would stop the command with folio waiting for it:
/// it is resumed at once.
enum Shell {
    /// The command's exit status (128 + N when a signal ended it), -1 when it could not be
    /// started. `input` is called with the write end of the command's standard input, and
    /// should write everything it has (a write fails with EPIPE once the command has exited).
    static func run(_ command: String, environment: [String: String] = ProcessEnvironment.current,
                    input: ((Int32) -> Void)? = nil) -> Int32 {
        let shell = environment["SHELL"].flatMap { $0.isEmpty ? nil : $0 } ?? "/bin/sh"
        let argv = command.isEmpty ? [shell] : [shell, "-c", command]
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var oldInt = sigaction(), oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        // SIGCHLD is ignored while paging (browsers are reaped by the kernel); waiting for the
        // command needs its exit status.
        let previousChild = signal(SIGCHLD, SIG_DFL)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
            signal(SIGCHLD, previousChild)
        }

        var pipeFDs: [Int32] = [-1, -1]
        var ttyFD: Int32 = -1
        var commandInput: Int32?
        if input != nil {
            guard pipe(&pipeFDs) == 0 else { return -1 }
            // Neither end may leak into the command beyond its standard input (nor into a
            // browser started later): close-on-exec, the read end dup2'd in the child.
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            commandInput = pipeFDs[0]
        } else {
            ttyFD = open("/dev/tty", O_RDONLY | O_CLOEXEC)
            if ttyFD >= 0 { commandInput = ttyFD }
        }
        let started = Platform.spawn(argv.map { Array($0.utf8) }, standardInput: commandInput,
                                     defaultSignals: [SIGINT, SIGQUIT])
        if ttyFD >= 0 { close(ttyFD) }
        if pipeFDs[0] >= 0 { close(pipeFDs[0]) }
        guard let pid = started else {
            if pipeFDs[1] >= 0 { close(pipeFDs[1]) }
            return -1
        }
        if let input, pipeFDs[1] >= 0 {
            input(pipeFDs[1])
            close(pipeFDs[1])
        }
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WUNTRACED)
            if r < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if (status & 0xff) == 0x7f {  // stopped (^Z): folio waits for it, so it goes on
                kill(pid, SIGCONT)
                continue
            }
            break
        }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }

    /// Writes all of `bytes` to `fd` (retrying short writes and EINTR); false on an error
    /// (EPIPE: the command stopped reading).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
