import Threads
#if canImport(Glibc)
import Glibc
#endif

/// Asks the tmux that folio runs in for a format (`tmux display-message -p`): what a program
/// inside tmux cannot learn from its terminal.
enum TmuxQuery {
    /// The expanded format, trimmed; nil when tmux cannot be run or says nothing.
    static func format(_ format: String, environment: [String: String]) -> String? {
        guard let tmux = ExternalOpener.which("tmux", path: environment["PATH"] ?? "/usr/bin:/bin") else { return nil }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        defer { close(fds[0]) }
        var arguments = [tmux, "display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        arguments.append(format)
        let pid = Platform.spawn(arguments.map { Array($0.utf8) }, standardOutput: fds[1], defaultSignals: [])
        close(fds[1])
        guard let pid else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while output.count < 4096 {
            let n = read(fds[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            output += buffer[..<n]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        while let last = output.last, last == 0x0A || last == 0x0D || last == 0x20 { output.removeLast() }
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }
}
