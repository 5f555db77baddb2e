@preconcurrency import Glibc
import TerminalScreen

/// Asks the terminal for its colours outside the pager (print mode to a terminal, `-F`):
/// the tty goes into non-canonical, no-echo mode only for the question, which is written
/// once (`ANSI.queryColors`), and the answers are read through the key decoder until DA1
/// arrives or the deadline passes. The tty's mode is restored before returning; when DA1 did
/// not come, pending input is discarded (TCSAFLUSH) so a partial answer never reaches the
/// shell.
public enum ColorQuery {
    /// The replies that arrived (empty when the terminal cannot be opened or answers nothing).
    /// `colours`: the colour question; `graphics`: kitty's graphics query (DA1's reply says
    /// sixel too). One write, ended by DA1.
    public static func ask(timeoutMilliseconds: Int, colours: Bool = true, graphics: Bool = false,
                           path: String = "/dev/tty") -> [TerminalReply] {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return [] }
        var replies: [TerminalReply] = []
        var answered = false
        defer {
            var state = saved
            _ = tcsetattr(fd, answered ? TCSANOW : TCSAFLUSH, &state)
        }
        let query = (colours ? Array(ANSI.queryColors.dropLast(ANSI.deviceAttributes.count)) : [])
            + (graphics ? ANSI.queryGraphics : []) + ANSI.deviceAttributes
        guard query.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == query.count else { return [] }
        var decoder = KeyDecoder()
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !answered {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
            let left = timeoutMilliseconds - elapsed
            guard left > 0 else { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            for case .reply(let reply) in decoder.feed(Array(buffer[..<n])) {
                if reply == .deviceAttributes { answered = true } else { replies.append(reply) }
            }
        }
        return replies
    }
}
