import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with posix_spawn, its stdio on pipes, and waits for it.
///
/// Why not Foundation's `Process`: on Linux it detects a child's exit through a socket pair
/// whose child end is not close-on-exec, and the tests start tmux servers, which daemonize
/// and keep every inherited descriptor. A server that inherited such a socket (its own
/// client's, or one of a concurrent test's process) keeps that `Process` "running" forever
/// and `waitUntilExit` hangs. Here every descriptor we create is close-on-exec, the child
/// closes all descriptors from 3 up, and the exit is observed with `waitpid`.
enum Subprocess {
    struct Output {
        /// Exit status, or 128 + signal number when killed by a signal.
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        var timedOut: Bool
    }

    private static let spawnLock = NSLock()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), found at run time.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with `arguments` (argv[1...]) and `environment`; stdin receives
    /// `input` then end of file (or is /dev/null when `input` is nil). After `timeout`
    /// seconds the child is killed with SIGKILL and `timedOut` is set.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String],
        input: [UInt8]? = nil, timeout: TimeInterval = 60
    ) throws -> Output {
        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(errno)") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
        // pipe2 and closefrom are not imported into Swift: create the pipes, mark them
        // close-on-exec and spawn under one lock, so no concurrent spawn inherits them.
        spawnLock.lock()
        var locked = true
        defer { if locked { spawnLock.unlock() } }
        let out = try makePipe(), err = try makePipe()
        let inPipe = input == nil ? nil : try makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        if let closefrom = addCloseFrom { _ = closefrom(&actions, 3) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(out.write); close(err.write)
        if let inPipe { close(inPipe.read) }
        spawnLock.unlock(); locked = false
        guard rc == 0 else {
            close(out.read); close(err.read)
            if let inPipe { close(inPipe.write) }
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(rc)))")
        }

        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var outFD: Int32 = out.read, errFD: Int32 = err.read
        var inFD: Int32 = -1
        var pending = ArraySlice(input ?? [])
        if let inPipe {
            inFD = inPipe.write
            _ = fcntl(inFD, F_SETFL, fcntl(inFD, F_GETFL) | O_NONBLOCK)
            if pending.isEmpty { close(inFD); inFD = -1 }
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while outFD >= 0 || errFD >= 0 || inFD >= 0 {
            if Date() >= deadline { timedOut = true; kill(pid, SIGKILL); break }
            var fds = [pollfd(fd: outFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inFD, events: Int16(POLLOUT), revents: 0)]
            let n = poll(&fds, 3, 100)
            if n < 0 && errno != EINTR { break }
            if n <= 0 { continue }
            for index in 0..<2 where fds[index].revents != 0 {
                let fd = fds[index].fd
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if index == 0 { stdout += buffer[0..<count] } else { stderr += buffer[0..<count] }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fd)
                    if index == 0 { outFD = -1 } else { errFD = -1 }
                }
            }
            if inFD >= 0 && fds[2].revents != 0 {
                let written = pending.withUnsafeBytes { write(inFD, $0.baseAddress, min($0.count, 1 << 16)) }
                if written > 0 { pending = pending.dropFirst(written) }
                if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
                    close(inFD); inFD = -1  // done, or the child stopped reading (EPIPE)
                }
            }
        }
        for fd in [outFD, errFD, inFD] where fd >= 0 { close(fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return Output(status: code, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}
