@preconcurrency import Glibc
import Foundation
import Synchronization
import Testing
import TerminalScreen
@testable import TerminalIO

/// A pseudo-terminal pair: the session under test opens the follower (`path`), the test plays
/// the terminal on the leader (`leader`). No real tty is needed.
final class PseudoTerminal {
    let leader: Int32
    let path: String

    // Linux ioctl numbers (not imported into Swift): _IOW('T', 0x31, int), _IOR('T', 0x30, unsigned).
    static let TIOCSPTLCK: UInt = 0x4004_5431
    static let TIOCGPTN: UInt = 0x8004_5430

    init() throws {
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard leader >= 0 else { throw TerminalError.system("open /dev/ptmx", errno) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(leader, Self.TIOCSPTLCK, &unlock) == 0, ioctl(leader, Self.TIOCGPTN, &number) == 0 else {
            close(leader)
            throw TerminalError.system("ioctl ptmx", errno)
        }
        path = "/dev/pts/\(number)"
        _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(leader) }

    /// Everything the session wrote so far (waits up to `milliseconds` for the first byte).
    func readAll(milliseconds: Int32 = 500) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var p = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
        var wait = milliseconds
        while poll(&p, 1, wait) > 0 {
            let n = read(leader, &buffer, buffer.count)
            guard n > 0 else { break }
            result += buffer[..<n]
            wait = 20
        }
        return result
    }

    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    func setSize(rows: UInt16, columns: UInt16) {
        var ws = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(leader, UInt(TIOCSWINSZ), &ws)
    }
}

/// One at a time: a session installs process-wide signal handlers.
@Suite(.serialized) struct TerminalSessionTests {
    static func termiosOf(_ path: String) -> termios {
        let fd = open(path, O_RDWR | O_NOCTTY)
        defer { close(fd) }
        var t = termios()
        tcgetattr(fd, &t)
        return t
    }

    @Test func entersRawModeAndRestoresEverything() throws {
        let pty = try PseudoTerminal()
        let before = Self.termiosOf(pty.path)
        #expect(before.c_lflag & tcflag_t(ICANON) != 0)
        let session = try TerminalSession(options: TerminalOptions(), path: pty.path)
        let raw = Self.termiosOf(pty.path)
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        let entered = pty.readAll()
        #expect(entered == ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.enableAlternateScroll)

        session.restore()
        session.restore()  // idempotent: nothing more is written
        let left = pty.readAll()
        #expect(left.starts(with: ANSI.disableAlternateScroll))
        #expect(Array(left.suffix(ANSI.leaveAlternateScreen.count)) == ANSI.leaveAlternateScreen)
        #expect(String(decoding: left, as: UTF8.self).contains("\u{1B}[?25h"))
        let after = Self.termiosOf(pty.path)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag)
        #expect(pty.readAll(milliseconds: 50).isEmpty)
    }

    @Test func noAlternateScreenAndFullMouse() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(options: TerminalOptions(alternateScreen: false, mouse: .full, bracketedPaste: true), path: pty.path)
        // Without the alternate screen, what was on screen scrolls up first (as less -X's
        // first page), and folio leaves with the cursor at the start of the erased bottom row.
        #expect(pty.readAll() == ANSI.scrollScreenAway(rows: session.size().rows) + ANSI.hideCursor + ANSI.enableMouse
            + ANSI.enableBracketedPaste)
        session.restore()
        let left = String(decoding: pty.readAll(), as: UTF8.self)
        #expect(left.hasPrefix("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"))
        #expect(!left.contains("1049"))
        #expect(left.hasSuffix("\u{1B}[9999H\u{1B}[2K"))
    }

    @Test func readsKeysWritesFramesAndReportsSize() throws {
        let pty = try PseudoTerminal()
        pty.setSize(rows: 30, columns: 100)
        let session = try TerminalSession(path: pty.path)
        defer { session.restore() }
        _ = pty.readAll()
        #expect(session.size() == (30, 100))
        #expect(session.waitForInput(timeoutMilliseconds: 10) == [.timeout])
        pty.type([0x6A, 0x03, 0x1A, 0x0D])  // j, Ctrl-C, Ctrl-Z, CR: raw bytes, no signals
        var bytes: [UInt8] = []
        for event in session.waitForInput(timeoutMilliseconds: 1000) {
            if case .bytes(let b) = event { bytes += b }
        }
        #expect(bytes == [0x6A, 0x03, 0x1A, 0x0D])
        // A frame larger than the pty buffer: a reader drains it while `write` loops over
        // partial writes.
        let frame = [UInt8](repeating: 0x41, count: 200_000)
        let leader = pty.leader
        let reader = Thread {
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 65536)
            var p = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            while received < frame.count, poll(&p, 1, 2000) > 0 {
                let n = read(leader, &buffer, buffer.count)
                if n > 0 { received += n } else if n == 0 { break }
            }
            ReceivedCount.shared.set(received)
        }
        reader.start()
        try session.write(frame)
        for _ in 0..<200 where ReceivedCount.shared.get() == nil { usleep(10_000) }
        #expect(ReceivedCount.shared.get() == frame.count)
    }

    @Test func sizeNeverReturnsZero() throws {
        let pty = try PseudoTerminal()
        pty.setSize(rows: 0, columns: 0)
        let session = try TerminalSession(path: pty.path)
        defer { session.restore() }
        #expect(session.size() == (24, 80))
    }

    @Test func notATerminalThrows() {
        #expect(throws: TerminalError.self) { try TerminalSession(path: "/dev/null") }
        #expect(throws: TerminalError.self) { try TerminalSession(path: "/nonexistent/tty") }
    }

    @Test func signalsArriveThroughTheSelfPipe() throws {
        let cases = [(SIGWINCH, Signal.resize), (SIGTERM, .terminate), (SIGHUP, .hangup),
                     (SIGINT, .interrupt), (SIGCONT, .continued), (SIGTSTP, .suspendRequest)]
        // A signal ignored when the session starts stays ignored: a runner started in the
        // background has SIGINT ignored, so make them default for the test.
        var saved: [Int32: sigaction] = [:]
        defer { Self.putBack(saved) }
        for (number, _) in cases where Self.disposition(number) == SignalPipe.ignoredHandler {
            saved[number] = Self.set(number, ignored: false)
        }
        // SIGTERM and SIGHUP arm the termination watchdog until the pipe is read: on a loaded
        // machine this test may not run again within its second of grace, and the watchdog
        // would end the whole test process (it did, once, in CI).
        TerminationWatchdog.grace.store(600_000_000_000, ordering: .relaxed)
        let pty = try PseudoTerminal()
        do {
            let session = try TerminalSession(path: pty.path)
            defer { session.restore() }
            // Process-directed, so any thread that does not block the signal runs the handler.
            for (number, expected) in cases {
                kill(getpid(), number)
                var events: [IOEvent] = []
                for _ in 0..<50 where !events.contains(.signal(expected)) {
                    events += session.waitForInput(timeoutMilliseconds: 20)
                }
                #expect(events.contains(.signal(expected)), "signal \(number)")
            }
        }
    }

    static func handler(_ action: sigaction) -> UInt {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    }

    @Test func signalPipeRestoresPreviousHandlers() throws {
        var before = sigaction()
        sigaction(SIGWINCH, nil, &before)
        do {
            let pipe = try SignalPipe()
            pipe.install([.resize])
            var during = sigaction()
            sigaction(SIGWINCH, nil, &during)
            #expect(Self.handler(during) != Self.handler(before))
            kill(getpid(), SIGWINCH)
            var p = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 1000)
            #expect(pipe.drain() == [.resize])
            pipe.uninstall()
        }
        var after = sigaction()
        sigaction(SIGWINCH, nil, &after)
        #expect(Self.handler(after) == Self.handler(before))
        #expect(signalPipeWriteFD.load(ordering: .relaxed) == -1)
    }
}

/// Hand-off from the reader thread.
final class ReceivedCount: @unchecked Sendable {
    static let shared = ReceivedCount()
    private let lock = NSLock()
    private var value: Int?
    func set(_ v: Int) { lock.lock(); value = v; lock.unlock() }
    func get() -> Int? { lock.lock(); defer { lock.unlock() }; return value }
}
