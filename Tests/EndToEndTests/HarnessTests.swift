import Foundation
import Testing

/// Proves the tmux harness itself: a real pane, real keys, a real tty.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct HarnessTests {
    @Test func showsOutputOfAProgram() throws {
        let tmux = try TmuxSession.start(command: ["sh", "-c", "printf hello; sleep 5"], columns: 30, rows: 5)
        defer { tmux.kill() }
        let screen = tmux.waitFor(text: "hello")
        #expect(screen?.first == "hello")
        #expect(screen?.count == 5)
        #expect(tmux.isAlive)
        let pid = try #require(tmux.panePID)
        #expect(kill(pid, 0) == 0)
        tmux.kill()
        #expect(!tmux.isAlive)
    }

    @Test func rawModeCanBeChecked() throws {
        let tmux = try TmuxSession.start(
            command: ["sh", "-c", "stty raw -echo; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '; sleep 5"],
            columns: 60, rows: 5)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitFor { $0.joined().contains("icanon") })
        let flags = screen.joined(separator: " ")
        #expect(flags.contains("-icanon"))
        #expect(flags.contains("-echo"))
        #expect(flags.contains("-isig"))
    }

    @Test func keysArriveAsXtermBytes() throws {
        // od prints the bytes it reads in hex, 8 per line; the pane is raw (no echo, no line
        // buffering) before "ready" shows, so every key arrives as sent.
        let tmux = try TmuxSession.start(
            command: ["sh", "-c", "stty raw -echo; printf 'ready\\r\\n'; od -An -tx1 -w8 -v"], columns: 60, rows: 10,
            environment: ["FOLIO_HARNESS_CHECK": "1"], workingDirectory: "/")
        defer { tmux.kill() }
        #expect(tmux.waitFor(text: "ready") != nil)
        // 17 bytes, padded to 24 so od prints its third line.
        try tmux.sendKeys("a<C-f><Up><A-v><lt><S-Tab><PageDown>é1234567")
        let expected = "61 06 1b 5b 41 1b 76 3c 1b 5b 5a 1b 5b 36 7e c3 a9 31 32 33 34 35 36 37"
        let hexLines = { (screen: [String]) in
            screen.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let screen = tmux.waitFor { hexLines($0).count >= expected.count }
        #expect(screen.map(hexLines) == expected)
    }

    @Test func resizeAndExitStatus() throws {
        let tmux = try TmuxSession.start(
            command: ["sh", "-c", "trap 'stty size; exit 7' WINCH; printf ready; while :; do sleep 0.05; done"],
            columns: 40, rows: 10)
        defer { tmux.kill() }
        #expect(tmux.waitFor(text: "ready") != nil)
        try tmux.resize(columns: 50, rows: 12)
        #expect(tmux.waitForExit())
        let screen = tmux.capture(includingHistory: true).joined(separator: "\n")
        #expect(screen.contains("ready12 50"), "the program saw the new size")
        // When tmux reports the exit status it must be the program's. In the full parallel
        // suite tmux now and then never reaps the pane (no status, no "Pane is dead" line);
        // no folio test depends on exit statuses, so that case is not a failure here.
        if let status = tmux.exitStatus {
            #expect(status == 7)
            #expect(screen.contains("Pane is dead (status 7") || tmux.capture(includingHistory: true).joined().contains("Pane is dead (status 7"))
        }
    }

    @Test func notationErrorsAreLoud() {
        #expect(throws: TmuxError.self) { try HarnessKeys.encode("<PgDown>") }
        #expect(throws: TmuxError.self) { try HarnessKeys.encode("a<b") }
        #expect((try? HarnessKeys.encode("x<Esc>j")) == [[0x78, 0x1B], [0x6A]])
    }

    @Test func findsTheFolioBinary() {
        // Built alongside the tests by `swift test`; FOLIO_BIN overrides.
        #expect(FolioBinary.path() != nil)
    }
}
