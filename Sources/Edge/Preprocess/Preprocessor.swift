#if canImport(Glibc)
import Glibc
#endif
import Threads

/// Runs `LESSOPEN`'s and `LESSCLOSE`'s commands as less runs them: through the user's shell
/// (`$SHELL -c COMMAND`, else `/bin/sh`), with folio's standard input and standard error, and
/// standard output into a pipe folio reads.
public enum Preprocessor {
    /// What `LESSOPEN` made of a file.
    public enum Outcome: Equatable {
        /// Nothing: the file itself is shown.
        case declined
        /// An input pipe's output, to be read from `fd` (close-on-exec), of which `first`, its
        /// first byte, is already read; `process` is the command, reaped with `reap` once the
        /// output has ended.
        case pipe(fd: Int32, first: UInt8, process: pid_t)
        /// `||`: no output and exit status 0, so the content is empty.
        case empty
        /// The name of the replacement file to show instead (as printed, up to its first
        /// newline).
        case replacement(name: [UInt8])
    }

    /// Gives the file named `name` (its bytes as given; `-` for standard input) to
    /// `lessOpen`'s command. Waits for the command's first byte of output, or its end, as less
    /// does: until then nothing says whether the file is replaced.
    public static func open(_ name: [UInt8], with lessOpen: LessOpen, shell: String) -> Outcome {
        guard let (fd, process) = spawn(lessOpen.command(for: name), shell: shell, readOutput: true), let fd else {
            return .declined
        }
        switch lessOpen.form {
        case .pipe, .pipeWithStatus:
            var byte: UInt8 = 0
            var n: Int
            repeat { n = read(fd, &byte, 1) } while n < 0 && errno == EINTR
            if n == 1 { return .pipe(fd: fd, first: byte, process: process) }
            Glibc.close(fd)
            let status = wait(for: process)
            return lessOpen.form == .pipeWithStatus && status == 0 ? .empty : .declined
        case .replacementName:
            var line: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            reading: while true {
                let n = read(fd, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                for b in chunk[0..<n] {
                    if b == 0x0A { break reading }
                    line.append(b)
                }
            }
            Glibc.close(fd)  // (the rest of the output is not read, as less's pclose does not)
            _ = wait(for: process)
            return line.isEmpty ? .declined : .replacement(name: line)
        }
    }

    /// Runs `LESSCLOSE`'s command for a file `LESSOPEN` replaced and waits for it.
    /// `replacement`: the replacement file's name, `-` for an input pipe's output.
    public static func close(_ original: [UInt8], replacement: [UInt8], with lessClose: LessClose, shell: String) {
        guard let (_, process) = spawn(lessClose.command(original: original, replacement: replacement),
                                       shell: shell, readOutput: false) else { return }
        _ = wait(for: process)
    }

    /// Reaps an input pipe's command once its output has ended, without waiting for it if it
    /// is still running (its exit status means nothing then).
    public static func reap(_ process: pid_t) {
        var status: Int32 = 0
        _ = waitpid(process, &status, WNOHANG)
    }

    /// The shell that runs the commands: `$SHELL` when set, as less does, else `/bin/sh`.
    public static func shell(environment: [String: String]) -> String {
        if let s = environment["SHELL"], !s.isEmpty { return s }
        return "/bin/sh"
    }

    /// Starts `shell -c command`; its standard output goes into a pipe whose read end comes
    /// back (`readOutput`) or stays folio's. The signals folio itself ignores (SIGPIPE in print
    /// mode, SIGCHLD in the pager) are reset for it, and no signal is blocked.
    static func spawn(_ command: [UInt8], shell: String, readOutput: Bool) -> (fd: Int32?, process: pid_t)? {
        var ends: (read: Int32, write: Int32) = (-1, -1)
        if readOutput {
            guard let pipe = closeOnExecPipe() else { return nil }
            ends = pipe
        }
        let process = Platform.spawn([Array(shell.utf8), Array("-c".utf8), command],
                                     standardOutput: readOutput ? ends.write : nil, defaultSignals: [SIGPIPE, SIGCHLD])
        if readOutput { Glibc.close(ends.write) }
        guard let process else {
            if readOutput { Glibc.close(ends.read) }
            return nil
        }
        return (readOutput ? ends.read : nil, process)
    }

    /// Waits for `process` and returns its exit status (-1 when it did not exit normally, or
    /// could not be waited for: with SIGCHLD ignored, as in the pager, the kernel reaps it and
    /// only its end is waited for).
    static func wait(for process: pid_t) -> Int32 {
        var status: Int32 = 0
        while true {
            if waitpid(process, &status, 0) >= 0 { break }
            if errno != EINTR { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }
}
