@preconcurrency import Glibc
import TerminalScreen

/// What arrives while waiting for input.
public enum IOEvent: Hashable, Sendable {
    /// Bytes read from the tty, for `KeyDecoder.feed`.
    case bytes([UInt8])
    case signal(Signal)
    /// Nothing arrived within the timeout (call `KeyDecoder.flushTimeout` if it has pending bytes).
    case timeout
    /// The wake descriptor is readable (a reader thread has something for the run loop).
    case wake
}

/// How the mouse is reported.
public enum MouseMode: Hashable, Sendable {
    /// No mouse reporting.
    case off
    /// DECSET 1007: on the alternate screen the wheel sends arrow keys; selecting text with the
    /// mouse keeps working as usual. The default.
    case alternateScroll
    /// Press, release, drag and wheel as SGR reports (1000 + 1002 + 1006).
    case full
}

public struct TerminalOptions: Hashable, Sendable {
    /// Use the alternate screen (false for `-X`: the pages stay in the scrollback).
    public var alternateScreen: Bool
    public var mouse: MouseMode
    public var bracketedPaste: Bool
    /// Ask for the terminal's colours on entering (`ANSI.queryColors`, again after a suspend
    /// or an editor) and follow its light/dark changes (mode 2031).
    public var queryColors: Bool
    /// Ask whether the terminal has kitty's graphics protocol (and, by DA1, sixel) on entering.
    public var queryGraphics: Bool
    /// A DA1 reply is on its way after entering.
    public var asks: Bool { queryColors || queryGraphics }

    public init(alternateScreen: Bool = true, mouse: MouseMode = .alternateScroll, bracketedPaste: Bool = false,
                queryColors: Bool = false, queryGraphics: Bool = false) {
        self.alternateScreen = alternateScreen; self.mouse = mouse; self.bracketedPaste = bracketedPaste
        self.queryColors = queryColors; self.queryGraphics = queryGraphics
    }
}

/// The controlling terminal, in raw mode, for one run of the pager. The only place with
/// termios, signals and the tty.
///
/// Keys are read from and frames written to `/dev/tty`, so the document may come from a
/// pipe on stdin. `init` saves the terminal state first and then enters raw mode, the
/// alternate screen and the chosen mouse mode; `restore()` undoes it all in reverse order,
/// is idempotent, and also runs from `deinit`, from `atexit`, and on a crash. Every signal
/// whose default action ends the process is caught while the session exists (`SignalPolicy`):
/// those that end folio (SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, …) arrive as
/// `IOEvent.signal`, and the run loop should `restore()` and exit (see `exit(dueTo:)`);
/// SIGPIPE and SIGXFSZ are dropped; faults go to the crash handler. Not thread-safe: use it
/// from one thread (the run loop's).
///
/// Typical loop:
/// ```
/// let tty = try TerminalSession()
/// defer { tty.restore() }
/// while running {
///     let timeout: Int32 = decoder.hasPendingEscape ? 30 : -1
///     for event in tty.waitForInput(timeoutMilliseconds: timeout) { … }
///     try tty.write(renderer.render(grid, depth: depth))
/// }
/// ```
public final class TerminalSession {
    public let options: TerminalOptions
    /// The tty file descriptor (read and write).
    public let fd: Int32
    private let saved: termios
    private let signals: SignalPipe
    private var active = false

    /// Opens `/dev/tty` (or `path`), saves its state, installs signal handlers and enters raw mode.
    public init(options: TerminalOptions = TerminalOptions(), path: String = "/dev/tty") throws {
        self.options = options
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw TerminalError.notATerminal }
        var state = termios()
        guard tcgetattr(fd, &state) == 0 else {
            let code = errno
            close(fd)
            throw code == ENOTTY ? TerminalError.notATerminal : TerminalError.system("tcgetattr", code)
        }
        self.fd = fd
        saved = state
        do {
            signals = try SignalPipe()
        } catch {
            close(fd)
            throw error
        }
        signals.install()
        try enter()
    }

    deinit {
        restore()
        signals.uninstall()
        close(fd)
    }

    /// The bytes that set up the screen, in order.
    var enterBytes: [UInt8] {
        var bytes: [UInt8] = []
        if options.alternateScreen {
            bytes += ANSI.enterAlternateScreen
        } else {
            bytes += ANSI.scrollScreenAway(rows: size().rows)
        }
        bytes += ANSI.hideCursor
        switch options.mouse {
        case .off: break
        case .alternateScroll: bytes += ANSI.enableAlternateScroll
        case .full: bytes += ANSI.enableMouse
        }
        if options.bracketedPaste { bytes += ANSI.enableBracketedPaste }
        // One write, one DA1 at the end: the colours, then kitty's graphics query.
        if options.queryColors { bytes += ANSI.enableColorSchemeReports + ANSI.queryColors.dropLast(ANSI.deviceAttributes.count) }
        if options.queryGraphics { bytes += ANSI.queryGraphics }
        if options.asks { bytes += ANSI.deviceAttributes }
        return bytes
    }

    /// The bytes that undo `enterBytes`, in reverse order.
    var leaveBytes: [UInt8] {
        var bytes: [UInt8] = []
        if options.queryColors { bytes += ANSI.disableColorSchemeReports }
        // Kitty's images and their data go with folio (a terminal without them ignores it).
        if options.queryGraphics { bytes += ANSI.deleteKittyImages }
        if options.bracketedPaste { bytes += ANSI.disableBracketedPaste }
        switch options.mouse {
        case .off: break
        case .alternateScroll: bytes += ANSI.disableAlternateScroll
        case .full: bytes += ANSI.disableMouse
        }
        bytes += ANSI.resetScrollRegion + ANSI.resetStyle + ANSI.hyperlink(nil) + ANSI.showCursor
        if options.alternateScreen {
            bytes += ANSI.leaveAlternateScreen
        } else {
            // The last page stays; the status line goes, and the shell's prompt comes where
            // it was, below what was read, as after less -X (`CSI r` had put it on the top row).
            bytes += ANSI.bottomRow + ANSI.eraseLine
        }
        return bytes
    }

    private func enter() throws {
        EmergencyRestore.arm(fd: fd, termios: saved, leave: leaveBytes)
        var raw = saved
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF)
        raw.c_oflag &= ~tcflag_t(OPOST)  // frames position everything with CUP; no \n translation
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else {
            EmergencyRestore.disarm()
            throw TerminalError.system("tcsetattr", errno)
        }
        active = true
        try write(enterBytes)
    }

    /// Puts the terminal back as it was: modes off, cursor shown, main screen, saved termios
    /// (TCSAFLUSH). Idempotent; safe to call on every exit path.
    public func restore() {
        guard active else { return }
        active = false
        try? write(leaveBytes)
        var state = saved
        _ = tcsetattr(fd, TCSAFLUSH, &state)
        EmergencyRestore.disarm()
    }

    /// Stops the process like Ctrl-Z in a shell: restores the terminal, stops with the
    /// default SIGTSTP action, and on SIGCONT re-enters raw mode and the alternate screen.
    /// Returns after the resume; the caller must redraw everything (`FrameRenderer.invalidate`).
    public func suspend() throws {
        restore()
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)  // the process stops here until SIGCONT
        signals.install(SIGTSTP)
        // Raw mode is derived again from the state saved at start (not from what the shell
        // left), so `restore()` at exit still returns the terminal to how folio found it.
        try enter()
    }

    /// Hands the terminal to another program (an editor) for the duration of `body`: the
    /// terminal is restored first and raw mode, the alternate screen and the mouse mode are
    /// entered again afterwards. The caller must redraw everything.
    public func handOver<T>(_ body: () throws -> T) throws -> T {
        restore()
        defer { try? enter() }
        return try body()
    }

    /// While handed over (cooked mode, the main screen): `message  (press RETURN)`, then a
    /// line read from the terminal. SIGINT and SIGQUIT are ignored meanwhile (the tty drops
    /// the line they interrupt), so `^C` here does not end folio.
    public func waitForReturn(after message: String) {
        let text = Array((message + "  (press RETURN)").utf8)
        _ = text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var oldInt = sigaction(), oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0A || byte == 0x0D { break }
        }
    }

    /// Restores the terminal and ends the process the way `signal` would have, so the parent
    /// sees the right exit status. For the top of the run loop only.
    public func exit(dueTo signal: Signal) -> Never {
        restore()
        signals.uninstall()
        Glibc.signal(signal.number, SIG_DFL)
        raise(signal.number)
        Glibc.exit(128 + signal.number)
    }

    /// Waits until bytes, a signal or the timeout (milliseconds; -1 waits forever). Signals
    /// come first. EINTR is retried. A tty that hung up reports `.signal(.hangup)`.
    public func waitForInput(timeoutMilliseconds: Int32, wakeFD: Int32 = -1) -> [IOEvent] {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        var ready: Int32
        repeat {
            ready = poll(&fds, wakeFD >= 0 ? 3 : 2, timeoutMilliseconds)
        } while ready < 0 && errno == EINTR
        if ready == 0 { return [.timeout] }
        var events: [IOEvent] = []
        if wakeFD >= 0 && fds[2].revents != 0 { events.append(.wake) }
        if fds[1].revents != 0 {
            events += signals.drain().map { IOEvent.signal($0) }
        }
        let ttyEvents = fds[0].revents
        if ttyEvents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var n: Int
            repeat { n = read(fd, &buffer, buffer.count) } while n < 0 && errno == EINTR
            if n > 0 {
                events.append(.bytes(Array(buffer[..<n])))
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                events.append(.signal(.hangup))
            }
        } else if ttyEvents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            events.append(.signal(.hangup))
        }
        return events.isEmpty ? [.timeout] : events
    }

    /// The terminal size in cells; 24×80 when unknown, never 0.
    public func size() -> (rows: Int, columns: Int) {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return (24, 80) }
        return (Int(ws.ws_row), Int(ws.ws_col))
    }

    /// A cell's pixels: `TIOCGWINSZ`'s pixel fields over its rows and columns, when filled in.
    public func cellPixels() -> (width: Int, height: Int)? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0, ws.ws_xpixel > 0, ws.ws_ypixel > 0
        else { return nil }
        let width = Int(ws.ws_xpixel) / Int(ws.ws_col), height = Int(ws.ws_ypixel) / Int(ws.ws_row)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// Writes a whole frame: one `write(2)` unless the kernel takes only part of it (then
    /// the rest, after EINTR/EAGAIN as needed).
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n >= 0 { offset += n; continue }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                default: throw TerminalError.system("write", errno)
                }
            }
        }
    }
}
