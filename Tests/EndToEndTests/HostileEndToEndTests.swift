import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12 through the real binary: control characters in what folio writes to stderr,
/// absurd numbers, crashes, failed saves, a huge line at width 1. (The pure reproductions are
/// in `PagerTests/HostileInputTests.swift`.)
@Suite struct HostileEndToEndTests {
    let dir: URL
    let env: [String: String]

    init() throws {
        dir = try E2E.temporaryDirectory()
        env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
    }

    static func hasTerminalControl(_ bytes: [UInt8]) -> Bool {
        for (i, b) in bytes.enumerated() {
            if (b < 0x20 && b != 0x0A) || b == 0x7F { return true }
            if b == 0xC2, i + 1 < bytes.count, (0x80..<0xA0).contains(bytes[i + 1]) { return true }
        }
        return false
    }

    // MARK: 3. Escape sequences in names and arguments

    @Test func fileNamesWithEscapesReachStderrVisibly() throws {
        let evil = "evil\u{1B}]0;TITLE-PWNED\u{07}"
        let missing = dir.appendingPathComponent(evil + "missing.md").path
        let unreadable = dir.appendingPathComponent(evil + "dir.md").path
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: true)
        let good = try E2E.write("# fine\n", to: "good.md", in: dir)
        let result = try E2E.run([missing, unreadable, good], environment: env)
        #expect(result.status == 1)
        #expect(!Self.hasTerminalControl(result.stderr), "\(result.errors.debugDescription)")
        #expect(result.errors.contains("evil^[]0;TITLE-PWNED^G"), "\(result.errors)")
        #expect(result.text.contains("fine"))
    }

    @Test func argumentsWithEscapesReachStderrVisibly() throws {
        for argument in ["--\u{1B}]0;PWNED\u{07}", "-\u{9B}2J", "--width=\u{1B}[2J"] {
            let result = try E2E.run([argument], environment: env)
            #expect(result.status != 0)
            #expect(!Self.hasTerminalControl(result.stderr), "\(argument.debugDescription): \(result.errors.debugDescription)")
            #expect(!result.errors.isEmpty)
        }
    }

    // MARK: 6. Absurd numbers

    @Test(arguments: [
        (["--width", "0"], "--width must be between 1 and 10000"),
        (["--width=-5"], "--width must be between 1 and 10000"),
        (["--width", "-5"], "--width must be between 1 and 10000"),
        (["--width", "9223372036854775807"], "Number is too large after --width"),
        (["--width", "1000000000"], "--width must be between 1 and 10000"),
        (["--overlap", "-1"], "--overlap must be between 0 and 10000"),
        (["-z", "99999999"], "-z/--window must be between"),
        (["-j", "x"], "-j/--jump-target expects a row"),
        (["-j", "1e9"], "-j/--jump-target expects a row"),
    ])
    func absurdNumbersGiveOneLineWithTheRange(_ arguments: [String], _ message: String) throws {
        let doc = try E2E.write("# t\n", to: "t.md", in: dir)
        let result = try E2E.run(["--print"] + arguments + [doc], environment: env, timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 64, "\(arguments): status \(result.status)")
        #expect(result.stdout.isEmpty)
        #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "one line: \(result.errors)")
    }

    @Test(arguments: [["-j", "-5"], ["-j-5"], ["--jump-target=-5"], ["--jump-target", "-5"], ["-j.5"],
                      ["--width", "1"], ["--width", "10000"], ["--overlap", "0"], ["-z-3"]])
    func validNumbersAreAccepted(_ arguments: [String]) throws {
        let doc = try E2E.write("# t\n\nbody\n", to: "t.md", in: dir)
        let result = try E2E.run(["--print"] + arguments + [doc], environment: env)
        #expect(result.status == 0, "\(arguments): \(result.errors)")
        #expect(result.text.replacingOccurrences(of: "\n", with: "").contains("body"))
    }

    // MARK: 9. Crashes

    @Test func crashInPrintModeIsShortAndImmediate() throws {
        var env = self.env
        env["FOLIO_TEST_CRASH"] = "start"
        let doc = try E2E.write("# t\n", to: "t.md", in: dir)
        let result = try E2E.run(["--print", doc], environment: env, timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status != 0)
        #expect(result.errors.contains("folio: crashed"), "\(result.errors)")
        #expect(!result.errors.contains("Press space"))
        #expect(!result.errors.contains("Backtrace"))
    }

    /// A user who asks for the backtracer gets it (non-interactive here).
    @Test func swiftBacktraceSetByTheUserIsHonoured() throws {
        var env = self.env
        env["FOLIO_TEST_CRASH"] = "start"
        env["SWIFT_BACKTRACE"] = "enable=no"
        let doc = try E2E.write("# t\n", to: "t.md", in: dir)
        let result = try E2E.run(["--print", doc], environment: env, timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status != 0)
        #expect(!result.errors.contains("folio: crashed"))
    }

    /// Runs folio from a shell script that records `stty -a` before and after, stderr to a file.
    private func recordingTTY(_ folioArguments: String, dir: URL, environment: [String: String]) throws -> FolioPane {
        try FolioPane.shell("""
            stty -a > "$T/before"; "$FOLIO_EXE" \(folioArguments) 2> "$T/err"; \
            stty -a > "$T/after"; echo "FOLIO-EXITED"; cat "$T/err"; sleep 60
            """, dir: dir, environment: environment)
    }

    private func ttyUnchanged(_ dir: URL) throws -> Bool {
        let before = try String(contentsOf: dir.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: dir.appendingPathComponent("after"), encoding: .utf8)
        return before == after && before.contains(" icanon") && before.contains(" echo")
    }

    // MARK: 1. Links that never end or never open

    /// A link to /dev/zero and one to a FIFO nobody writes: following them must not block the
    /// loop (they are refused: not regular files), and `q` quits at once with the tty restored.
    @Test(arguments: ["zero", "fifo"])
    func linksToEndlessOrBlockingFilesNeverHang(kind: String) throws {
        let dir = try E2E.temporaryDirectory()
        let target = dir.appendingPathComponent("target.md").path
        if kind == "zero" {
            try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: "/dev/zero")
        } else {
            #expect(mkfifo(target, 0o600) == 0)
        }
        let doc = try E2E.write("# Z\n\n[endless](target.md)\n", to: "z.md", in: dir)
        let pane = try recordingTTY("--no-restore '\(doc)'", dir: dir, environment: [:])
        _ = try #require(pane.waitForPager(name: "z.md"))
        try pane.keys("<Tab>")
        try pane.keys("<Tab>")
        try pane.keys("<Enter>")
        _ = try #require(pane.wait(text: "Not a regular file"), "the link is refused on the status line")
        try pane.keys("q")
        _ = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
    }

    /// Text streams through print mode as through cat: an endless input (/dev/zero on the
    /// command line, `yes` on stdin) into a pipe, raw or rendered, comes out while it is read
    /// and stops when the reader has had enough (before: folio read to the end first, holding
    /// ~400 MB more each second and writing nothing).
    @Test func endlessTextStreamsThroughPrintMode() throws {
        let script = """
            "$FOLIO_EXE" --print /dev/zero | head -c 20000000 | wc -c
            "$FOLIO_EXE" --print --width 40 /dev/zero | head -c 2000000 | wc -c
            yes | "$FOLIO_EXE" --print | head -n 3
            yes | "$FOLIO_EXE" --print --width 40 --color=always | head -n 3
            """
        let result = try Subprocess.run("/bin/sh", ["-c", script], environment: ["FOLIO_EXE": try E2E.folio()], timeout: 60)
        #expect(!result.timedOut)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["20000000", "2000000", "y", "y", "y", "y", "y", "y"], "\(lines)")
    }

    /// SIGTERM while the run loop is busy — here laying out a 3 MB paragraph again at width 1
    /// after a resize, seconds of work — still ends folio, terminal restored (before: the
    /// signal waited in the pipe until the work was done, and SIGHUP from a closed window left
    /// folio running).
    @Test func signalEndsFolioWhileTheLoopIsBusy() throws {
        let dir = try E2E.temporaryDirectory()
        let doc = try E2E.write(String(repeating: "abcdefghij", count: 300_000) + "\n", to: "line.md", in: dir)
        let pane = try recordingTTY("'\(doc)'", dir: dir, environment: [:])
        _ = try #require(pane.wait(text: "abcdefghij"))
        let pid = try #require(pane.folioPID())
        try pane.tmux.resize(columns: 1, rows: 1)
        usleep(300_000)  // lets the resize reach folio first; no assertion rests on it
        #expect(kill(pid, SIGTERM) == 0)
        try pane.tmux.resize(columns: 80, rows: 24)
        _ = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
    }

    /// SIGTERM answered by the loop, whose way out then hangs (a test hook stands for a save
    /// that never ends): the watchdog still ends folio, the terminal restored.
    @Test func signalEndsFolioWhenItsExitHangs() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try recordingTTY("SampleDocs/tour.md", dir: dir, environment: ["FOLIO_TEST_HANG": "exit"])
        _ = try #require(pane.waitForPager(name: "tour.md"))
        let pid = try #require(pane.folioPID())
        #expect(kill(pid, SIGTERM) == 0)
        _ = try #require(pane.wait(text: "FOLIO-EXITED"))  // within the 8 s exit grace
        #expect(try ttyUnchanged(dir))
    }

    @Test func crashInThePagerRestoresTheTerminalAndExits() throws {
        let dir = try E2E.temporaryDirectory()
        let pane = try recordingTTY("SampleDocs/long.md", dir: dir, environment: ["FOLIO_TEST_CRASH": "pager"])
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
        let err = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        #expect(err.contains("folio: crashed"), "\(err)")
        #expect(!err.contains("Press space"))
        #expect(!screen.contains { $0.contains("Press space") })
    }

    // MARK: 7. Failed saves

    /// Whether folio ends by `q` or by a signal (SIGTERM from `kill`, SIGHUP from a closed
    /// terminal window), a position it could not save is said on stderr after the terminal
    /// is restored.
    @Test(arguments: ["q", "TERM", "HUP"])
    func failedSaveIsReportedAfterTheTerminalIsRestored(ending: String) throws {
        let dir = try E2E.temporaryDirectory()
        let file = try E2E.write("not a directory", to: "state-file", in: dir)
        let pane = try recordingTTY("SampleDocs/long.md", dir: dir, environment: ["FOLIO_STATE_DIR": file])
        _ = try #require(pane.waitForPager(name: "long.md"))
        try pane.keys("<Space>")
        _ = try #require(pane.wait { $0.contains { $0.contains("p2/") } }, "the page moved: there is a position to save")
        switch ending {
        case "q": try pane.keys("q")
        default:
            let pid = try #require(pane.folioPID())
            #expect(kill(pid, ending == "TERM" ? SIGTERM : SIGHUP) == 0)
        }
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(try ttyUnchanged(dir))
        let err = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        #expect(err.contains("folio: reading positions not saved"), "\(err)")
        #expect(screen.contains { $0.contains("reading positions not saved") })
    }

    // MARK: 8. A huge line at width 1

    /// Peak memory of folio printing `arguments` to /dev/null, in KB: the last `VmHWM` read
    /// from /proc while it runs. Not wait4's `ru_maxrss`: posix_spawn starts the child in the
    /// parent's address space (vfork), so that figure counts the test runner's own memory
    /// (200 MB and more late in a test run).
    static func peakKB(_ arguments: [String], environment: [String: String]) throws -> Int {
        let exe = try E2E.folio()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([exe] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, exe, &actions, nil, argv, envp) == 0 else { return -1 }
        var peak = 0
        var status: Int32 = 0
        while true {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kb = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peak = max(peak, kb)
            }
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
            usleep(5_000)
        }
        return peak
    }

    /// 2 MB on one line at width 1 is 2 million rows: they are written as they are made, not
    /// kept (before: ~330 bytes a row, 660 MB here; 10 MB took 1–2 GB).
    @Test func hugeLineAtWidthOneDoesNotKeepEveryRow() throws {
        let line = String(repeating: "abcdefghij", count: 200_000) + "\n"
        let doc = try E2E.write(line, to: "line.md", in: dir)
        let kb = try Self.peakKB(["--print", "--width", "1", doc], environment: env)
        #expect(kb > 0)
        #expect(kb < 200_000, "peak \(kb) KB")
    }
}
