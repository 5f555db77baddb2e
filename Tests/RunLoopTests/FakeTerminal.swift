#if canImport(Glibc)
import Glibc
#endif
import TerminalIO
import TerminalScreen
import TestSupport
import Testing
@testable import Session

/// A scripted terminal for the run loop: each `waitForInput` answers the next step of the
/// script, writes are captured, and what the loop did to the terminal is logged in order.
///
/// When the script runs out the fake answers `.timeout` a few times (so a resize burst
/// settles and a lone Esc is flushed) and then `.signal(.hangup)`: a loop that would wait
/// forever ends instead, and a test expecting `q` sees `.signal(.hangup)` and fails.
final class FakeTerminal: TerminalBackend {
    /// One answer to `waitForInput`.
    enum Step: Sendable {
        /// These events, in this order, in one answer (a chunk of bytes and signals together).
        case events([IOEvent])
        /// The terminal is now this size, and SIGWINCH says so.
        case resize(rows: Int, columns: Int)
        /// The terminal is now this size, without a signal (yet); the script goes on.
        case setSize(rows: Int, columns: Int)
        /// A cell is now this many pixels (`cellPixels`; the font's size changed), without a
        /// signal (yet); the script goes on.
        case setCell(width: Int, height: Int)
        /// From here on every write fails (the terminal went away); the script goes on.
        case terminalGone
        /// Waits (a few seconds at most) for the loop's mailbox to be posted to by one of its
        /// threads, and answers `.wake` (`.timeout` if nothing came).
        case mailbox
        /// Sleeps this many milliseconds, really (the loop measures the time between keys);
        /// the script goes on.
        case pause(milliseconds: Int)
        /// Moves the scripted clock (`clock`) on this many milliseconds; the script goes on.
        case advance(milliseconds: Int)
        /// Hands the scripted mailbox (`mailbox`) these deliveries and answers `.wake`.
        case deliver([Delivery])
        /// Waits for the loop's threads to post `count` deliveries (nil: at least one, then
        /// all there are) to the scripted mailbox, releases them and answers `.wake`.
        case release(count: Int?)
        /// Runs this (the test changes the world: appends to an input) and goes on.
        case run(@Sendable () -> Void)
        /// Notes this name among the calls (`screen(at:)` replays the writes before it); the
        /// script goes on.
        case mark(String)
    }

    /// What the loop did to the terminal, in order.
    enum Call: Equatable {
        case write([UInt8])
        case restore
        case suspend
        case handOver
        /// `waitForReturn(after:)`, with its message.
        case pressReturn(String)
        /// The script's `.mark`.
        case mark(String)
    }

    let options: TerminalOptions
    private(set) var rows: Int
    private(set) var columns: Int
    private var script: [Step]
    private(set) var calls: [Call] = []
    /// Timeouts the loop waited for, in milliseconds, one per `waitForInput`.
    private(set) var waits: [Int32] = []
    private var writesFail = false
    private var idleAnswers = 0
    /// Run at `restore()` and `suspend()`: a test looks at the world at that moment (is the
    /// position saved yet?).
    var onRestore: (() -> Void)?
    var onSuspend: (() -> Void)?
    /// The scripted clock `.advance` moves and the scripted mailbox `.deliver` and
    /// `.release` hand deliveries to (the harness sets them for a scripted world).
    var clock: ScriptedClock?
    var mailbox: ScriptedMailbox?
    /// Deliveries `.release` waited for in vain.
    private(set) var releasesMissed = 0

    init(rows: Int = 6, columns: Int = 30, options: TerminalOptions = TerminalOptions(), script: [Step]) {
        self.rows = rows
        self.columns = columns
        self.options = options
        self.script = script
    }

    /// The screen as the frames written before mark `name` (all of them: nil) left it, row by
    /// row (replayed by `TestTerminal` at the terminal's size now: no resize in between).
    func screen(at name: String? = nil) -> [String] {
        var replay = TestTerminal(rows: rows, columns: columns)
        for call in calls {
            if case .mark(let m) = call, m == name { break }
            if case .write(let bytes) = call { replay.feed(bytes) }
        }
        return (0..<rows).map { replay.screen.row($0) }
    }

    /// Compares the screen at mark `name` with rows written neovim style, each ending in `|`.
    func expectScreen(at name: String? = nil, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = screen(at: name).map { $0 + "|" }.joined(separator: "\n")
        #expect(actual == text, "screen at \(name ?? "the end")", sourceLocation: sourceLocation)
    }

    /// The writes (frames) only.
    var writes: [[UInt8]] { calls.compactMap { if case .write(let b) = $0 { b } else { nil } } }

    func waitForInput(timeoutMilliseconds: Int32, wakeFD: Int32) -> [IOEvent] {
        waits.append(timeoutMilliseconds)
        while !script.isEmpty {
            switch script.removeFirst() {
            case .events(let events):
                return events.isEmpty ? [.timeout] : events
            case .resize(let rows, let columns):
                (self.rows, self.columns) = (rows, columns)
                return [.signal(.resize)]
            case .setSize(let rows, let columns):
                (self.rows, self.columns) = (rows, columns)
            case .setCell(let width, let height):
                cell = (width, height)
            case .terminalGone:
                writesFail = true
            case .mailbox:
                var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
                return wakeFD >= 0 && poll(&fd, 1, 10_000) > 0 ? [.wake] : [.timeout]
            case .pause(let milliseconds):
                usleep(useconds_t(milliseconds * 1000))
            case .advance(let milliseconds):
                clock!.advance(milliseconds: milliseconds)
            case .deliver(let deliveries):
                mailbox!.deliver(deliveries)
                return [.wake]
            case .release(let count):
                if !mailbox!.release(count) { releasesMissed += 1 }
                return [.wake]
            case .run(let body):
                body()
            case .mark(let name):
                calls.append(.mark(name))
            }
        }
        idleAnswers += 1
        return idleAnswers <= 8 ? [.timeout] : [.signal(.hangup)]
    }

    struct Gone: Error {}

    func write(_ bytes: [UInt8]) throws {
        if writesFail { throw Gone() }
        calls.append(.write(bytes))
    }

    func size() -> (rows: Int, columns: Int) { (rows, columns) }
    /// What `cellPixels` says (nil: the pixel fields are empty).
    var cell: (width: Int, height: Int)?
    func cellPixels() -> (width: Int, height: Int)? { cell }

    func restore() {
        calls.append(.restore)
        onRestore?()
    }

    func suspend() throws {
        calls.append(.suspend)
        onSuspend?()
    }

    func handOver<T>(_ body: () throws -> T) throws -> T {
        calls.append(.handOver)
        return try body()
    }

    func waitForReturn(after message: String) {
        calls.append(.pressReturn(message))
    }
}

extension FakeTerminal.Step {
    /// Text typed as one chunk of bytes (`"jj/two\r"`: Enter is `\r` in raw mode).
    static func typed(_ text: String) -> Self { .events([.bytes(Array(text.utf8))]) }
    static func bytes(_ bytes: [UInt8]) -> Self { .events([.bytes(bytes)]) }
    static func signal(_ signal: Signal) -> Self { .events([.signal(signal)]) }
    static let timeout = Self.events([.timeout])
}
