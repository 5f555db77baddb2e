import Foundation
#if canImport(Glibc)
import Glibc
#endif

// End-to-end test support: drives a real program inside a PRIVATE tmux server.
//
// Self-contained on purpose (the EndToEndTests target has no dependencies): it carries its
// own small key-notation encoder instead of importing TerminalScreen's `KeyNotation`.
// XCTest-free; use it from Swift Testing:
//
//     @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
//     func pagesDown() throws {
//         let tmux = try TmuxSession.start(command: [FolioBinary.path()!, "doc.md"], columns: 40, rows: 10)
//         defer { tmux.kill() }
//         #expect(tmux.waitFor { $0.joined().contains("Title") } != nil)
//         try tmux.sendKeys("<C-f>")
//         …
//     }

/// Locates the built `folio` executable.
enum FolioBinary {
    /// `FOLIO_BIN` when set; otherwise `folio` in the build folder the test bundle was built
    /// into (`<scratch>/<triple>/<config>/`), whatever the scratch path; otherwise
    /// `.build/debug/folio` under the package root. Nil when none exists.
    static func path() -> String? {
        let fm = FileManager.default
        if let override = ProcessInfo.processInfo.environment["FOLIO_BIN"], !override.isEmpty {
            return override
        }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        // macOS: …/<config>/folioPackageTests.xctest/Contents/MacOS/…
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent())
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("folio").path
            if fm.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Errors from driving tmux.
struct TmuxError: Error, CustomStringConvertible {
    var description: String
}

/// One program running in its own tmux server (`tmux -L folio-test-<pid>-<n> -f /dev/null`),
/// headless: no controlling terminal and no `TERM` are needed in the test process. The
/// pane gets `TERM=xterm-256color` and a UTF-8 locale. The default tmux server is never
/// touched; `kill()` (also run by `deinit`) stops only this server and removes its socket.
///
/// The pane stays after its program exits (`remain-on-exit`), so the last screen and the
/// exit status can still be read.
final class TmuxSession {
    /// The private server's socket name (`-L`).
    let socketName: String
    /// tmux target of the one pane.
    let target = "folio-test:0.0"
    private(set) var columns: Int
    private(set) var rows: Int
    private var killed = false

    /// Pause after an Esc that is followed by more keys in the same `sendKeys` call, so the
    /// program's escape timeout (25–50 ms) turns it into Escape rather than Alt-<next key>.
    /// folio then takes the next key, typed within its Esc-prefix window (500 ms), as less's
    /// `Esc`-that-key (`<Esc>u` is `Esc u`); a key meant alone goes in a later call, after a
    /// longer pause.
    static let escapePause: TimeInterval = 0.1
    /// Polling interval of `waitFor`.
    static let pollInterval: TimeInterval = 0.02

    /// Path of the tmux executable, or nil.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }

    private static let counter = Counter()

    private init(socketName: String, columns: Int, rows: Int) {
        self.socketName = socketName; self.columns = columns; self.rows = rows
    }

    deinit { kill() }

    /// Starts `command` (argv; the first element is looked up in PATH) in a new private server.
    static func start(
        command: [String], columns: Int = 80, rows: Int = 24,
        environment: [String: String] = [:], workingDirectory: String? = nil
    ) throws -> TmuxSession {
        guard isAvailable else { throw TmuxError(description: "tmux is not installed") }
        precondition(!command.isEmpty, "empty command")
        let name = "folio-test-\(getpid())-\(counter.next())"
        let session = TmuxSession(socketName: name, columns: columns, rows: rows)
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let assignments = env.sorted { $0.key < $1.key }.map { shellQuote("\($0.key)=\($0.value)") }
        let shellCommand = "exec env " + (assignments + command.map(shellQuote)).joined(separator: " ")
        var arguments = ["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                         "set-option", "-g", "status", "off", ";",
                         "new-session", "-d", "-s", "folio-test", "-x", "\(columns)", "-y", "\(rows)"]
        if let workingDirectory { arguments += ["-c", workingDirectory] }
        arguments.append(shellCommand)
        // A watchdog inside the server: if the test process dies without `kill()` (a crash, a
        // timeout), the server still goes away instead of lingering with its dead pane.
        let tmuxPath = executable ?? "tmux"
        arguments += [";", "run-shell", "-b",
                      "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; "
                          + "\(shellQuote(tmuxPath)) -L \(shellQuote(name)) kill-server"]
        try session.tmux(arguments)
        return session
    }

    /// Sends keys written in notation (`"3<Space>G<C-b>/foo<CR><Esc><A-v><PageDown>"`, see
    /// `HarnessKeys`) as the bytes an xterm would send, via `send-keys -H` (no tmux key-name
    /// parsing, no shell or tmux quoting issues).
    func sendKeys(_ notation: String) throws {
        let chunks = try HarnessKeys.encode(notation)
        for (index, chunk) in chunks.enumerated() {
            try sendBytes(chunk)
            if index + 1 < chunks.count { Thread.sleep(forTimeInterval: Self.escapePause) }
        }
    }

    /// Sends raw bytes to the program, as if typed.
    func sendBytes(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        // Keep each tmux command line modest.
        for start in stride(from: 0, to: bytes.count, by: 512) {
            let slice = bytes[start..<min(bytes.count, start + 512)]
            try tmux(["send-keys", "-t", target, "-H"] + slice.map { String(format: "%02x", $0) })
        }
    }

    /// The visible screen, one string per row (tmux trims trailing spaces), exactly `rows`
    /// lines. With `escapes`, SGR sequences are kept (`capture-pane -e`). With
    /// `includingHistory`, the scrollback comes first and the result has no fixed length.
    ///
    /// After the program exits, tmux writes "Pane is dead (status N, …)" on the bottom row
    /// with a line feed, which scrolls the last screen up by one row: its top row is then
    /// only in the history.
    func capture(escapes: Bool = false, includingHistory: Bool = false) -> [String] {
        var arguments = ["capture-pane", "-p", "-t", target]
        if escapes { arguments.insert("-e", at: 1) }
        if includingHistory { arguments += ["-S", "-"] }
        guard let output = try? tmux(arguments) else { return [] }
        var lines = output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        if includingHistory { return lines }
        if lines.count < rows { lines += Array(repeating: "", count: rows - lines.count) }
        return Array(lines.prefix(rows))
    }

    /// Polls the screen every ~20 ms until `predicate` holds; returns that screen, or nil after
    /// `timeout` seconds.
    func waitFor(timeout: TimeInterval = 5, _ predicate: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let screen = capture()
            if predicate(screen) { return screen }
            if Date() >= deadline { return nil }
            Thread.sleep(forTimeInterval: Self.pollInterval)
        }
    }

    /// Waits until the screen contains `text` somewhere.
    func waitFor(text: String, timeout: TimeInterval = 5) -> [String]? {
        waitFor(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
        self.columns = columns; self.rows = rows
    }

    /// A format of the pane, as tmux expands it (`#{alternate_on}`, `#{cursor_flag}`,
    /// `#{mouse_any_flag}`: the modes its program left the terminal in); nil when it cannot be asked.
    func paneFormat(_ format: String) -> String? {
        (try? tmux(["display-message", "-p", "-t", target, format])).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The pane's process id: the program itself (started with `exec`).
    var panePID: Int32? {
        (try? tmux(["display-message", "-p", "-t", target, "#{pane_pid}"])).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Whether the pane's program has exited, and its exit status if it has (nil when it was
    /// killed by a signal); nil when the server cannot be asked (killed, or gone).
    /// The pane's state. tmux marks a pane dead when its pty closes and learns the exit status
    /// (or the signal) only when it reaps the child a moment later: `reaped` is true then.
    private func paneState() -> (dead: Bool, status: Int32?, reaped: Bool)? {
        guard !killed,
              let text = try? tmux(["display-message", "-p", "-t", target,
                                    "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"])
        else { return nil }
        let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
        guard let first = fields.first else { return nil }
        let status = fields.count > 1 ? Int32(fields[1]) : nil
        let signal = fields.count > 2 ? Int32(fields[2]) : nil
        return (first == "1", status, status != nil || (signal ?? 0) > 0)
    }

    /// True while the program runs.
    var isAlive: Bool {
        guard let state = paneState() else { return false }
        return !state.dead
    }

    /// The program's exit status once it has exited (nil while it runs, or if killed by a signal).
    /// tmux learns the status a moment after the pane dies, when it reaps the child: wait for
    /// it (up to 3 s), and retry a query that fails (tmux busy under load).
    var exitStatus: Int32? {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if let state = paneState() {
                if !state.dead { return nil }
                if state.reaped { return state.status }
            }
            Thread.sleep(forTimeInterval: Self.pollInterval)
        }
        return nil
    }

    /// Waits for the program to exit (its pane dies; polling); returns false on timeout. A
    /// failed query is not taken for an exit: under load a tmux command can fail once and
    /// succeed the next time.
    func waitForExit(timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let state = paneState(), state.dead { return true }
            Thread.sleep(forTimeInterval: Self.pollInterval)
        }
        return false
    }

    /// Stops this private server (and its program) and removes its socket. Idempotent.
    func kill() {
        guard !killed else { return }
        let socket = try? tmux(["display-message", "-p", "-t", target, "#{socket_path}"])
        _ = try? tmux(["kill-server"])
        killed = true
        if let path = socket?.trimmingCharacters(in: .whitespacesAndNewlines), path.hasSuffix("/" + socketName) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Runs `tmux -u -L <socket> -f /dev/null <arguments>` and returns its standard output.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TmuxError(description: "tmux is not installed") }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil  // never talk to an enclosing tmux
        // Not Foundation's Process: the server daemonizes and would keep its exit-detection
        // socket open forever (see Subprocess).
        // posix_spawn passes on the calling thread's signal mask, and test runner threads
        // block most signals; a tmux server started with SIGCHLD and SIGTERM blocked never
        // learns its pane's exit status and ignores `kill`. Spawn with an empty mask.
        var empty = sigset_t(), saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        let result = try Subprocess.run(executable, ["-u", "-L", socketName, "-f", "/dev/null"] + arguments,
                                        environment: environment, timeout: 30)
        guard result.status == 0, !result.timedOut else {
            let message = String(decoding: result.stderr, as: UTF8.self)
            throw TmuxError(description: "tmux \(arguments.first ?? ""): \(message)")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    private static func shellQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock(); defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

/// Key notation → terminal bytes, a self-contained copy of the subset of TerminalScreen's
/// `KeyNotation` that tests type: plain characters; `<Name>` with names `Space CR Enter Esc
/// Tab S-Tab BS Del Insert Up Down Left Right Home End PageUp PgUp PageDown PgDn F1…F12 lt gt`;
/// prefixes `C-` (Ctrl with a letter or `@[\]^_`; with a named key: xterm's modifier
/// parameter), `A-`/`M-` (Alt: ESC prefix, or the modifier parameter), `S-` (Shift).
enum HarnessKeys {
    /// The bytes, split after every lone Esc that is followed by more keys.
    static func encode(_ notation: String) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = [[]]
        var rest = Substring(notation)
        while let first = rest.first {
            if first != "<" {
                chunks[chunks.count - 1] += Array(String(first).utf8)
                rest = rest.dropFirst()
                continue
            }
            guard let close = rest.firstIndex(of: ">"), close > rest.index(after: rest.startIndex) else {
                throw TmuxError(description: "unclosed '<' in \(notation.debugDescription) (write <lt>)")
            }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            let bytes = try key(name)
            chunks[chunks.count - 1] += bytes
            if bytes == [0x1B] && !rest.isEmpty { chunks.append([]) }
        }
        return chunks.filter { !$0.isEmpty }
    }

    private static func key(_ inner: Substring) throws -> [UInt8] {
        var ctrl = false, alt = false, shift = false
        var name = inner
        while name.count > 2, name.dropFirst().first == "-" {
            switch name.first!.lowercased() {
            case "c": ctrl = true
            case "a", "m": alt = true
            case "s": shift = true
            default: throw TmuxError(description: "unknown modifier in <\(inner)>")
            }
            name = name.dropFirst(2)
        }
        let esc: UInt8 = 0x1B
        let modifier = 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0)
        func letter(_ l: String) -> [UInt8] { [esc] + Array((modifier == 1 ? "[\(l)" : "[1;\(modifier)\(l)").utf8) }
        func tilde(_ n: Int) -> [UInt8] { [esc] + Array((modifier == 1 ? "[\(n)~" : "[\(n);\(modifier)~").utf8) }
        let lower = name.lowercased()
        switch lower {
        case "up": return letter("A")
        case "down": return letter("B")
        case "right": return letter("C")
        case "left": return letter("D")
        case "home": return letter("H")
        case "end": return letter("F")
        case "insert", "ins": return tilde(2)
        case "del", "delete": return tilde(3)
        case "pageup", "pgup": return tilde(5)
        case "pagedown", "pgdn": return tilde(6)
        default: break
        }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) {
            if n <= 4 {
                let l = ["P", "Q", "R", "S"][n - 1]
                return modifier == 1 ? [esc, 0x4F] + Array(l.utf8) : letter(l)
            }
            return tilde([15, 17, 18, 19, 20, 21, 23, 24][n - 5])
        }
        var base: [UInt8]
        switch lower {
        case "space": base = [0x20]
        case "cr", "enter", "return": base = [0x0D]
        case "esc", "escape": base = [esc]
        case "tab": base = shift ? [esc, 0x5B, 0x5A] : [0x09]
        case "bs", "backspace": base = [0x7F]
        case "lt": base = Array("<".utf8)
        case "gt": base = Array(">".utf8)
        default:
            guard name.count == 1, let c = name.first else { throw TmuxError(description: "unknown key <\(inner)>") }
            let text = shift && c.isLetter ? c.uppercased() : String(c)
            base = Array(text.utf8)
            if ctrl {
                guard base.count == 1, let ascii = text.lowercased().first?.asciiValue,
                      "abcdefghijklmnopqrstuvwxyz@[\\]^_".utf8.contains(ascii)
                else { throw TmuxError(description: "no Ctrl form for <\(inner)>") }
                base = [ascii & 0x1F]
            }
        }
        return alt ? [esc] + base : base
    }
}
