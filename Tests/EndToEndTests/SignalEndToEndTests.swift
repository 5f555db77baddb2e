import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31 through the real binary: every signal whose default action ends the process finds
/// the terminal restored; the ones folio drops leave it running; a save over a file-size
/// limit is reported like any failed save; print mode still stops quietly when its reader
/// goes away. (Which signal does what: `SignalPolicyTests`.)
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SignalEndToEndTests {
    /// folio run from a shell that writes a line first (it must be on the screen again when
    /// folio is gone: the alternate screen was left) and records `stty -g` before and after.
    static func recordingPane(_ folioCommand: String) throws -> FolioPane {
        try FolioPane.shell("""
            printf 'BEFORE-FOLIO\\n'; stty -g > "$T/before"; \(folioCommand); echo "status=$?"; \
            stty -g > "$T/after"; echo FOLIO-EXITED; sleep 60
            """)
    }

    static func sttyUnchanged(_ pane: FolioPane) throws -> Bool {
        let before = try String(contentsOf: pane.dir.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: pane.dir.appendingPathComponent("after"), encoding: .utf8)
        return !before.isEmpty && before == after
    }

    /// The modes folio sets up, as tmux sees them: alternate screen, cursor shown, mouse reporting.
    static func modes(_ pane: FolioPane) -> (alternate: String?, cursor: String?, mouse: String?) {
        (pane.tmux.paneFormat("#{alternate_on}"), pane.tmux.paneFormat("#{cursor_flag}"),
         pane.tmux.paneFormat("#{mouse_any_flag}"))
    }

    /// `kill -USR1` (and SIGALRM, SIGPWR, a real-time signal) a running folio: it ends by that
    /// signal (the shell sees 128 + its number), with the terminal as the shell left it — the
    /// same `stty -g`, the normal screen with what was on it, the cursor shown, no mouse
    /// reporting. (Before: folio died raw, on the alternate screen, cursor hidden.)
    @Test(arguments: ["USR1", "ALRM", "PWR", "RTMIN+2"])
    func endingSignalRestoresTheTerminal(name: String) throws {
        let signo: Int32 = switch name {
        case "USR1": SIGUSR1
        case "ALRM": SIGALRM
        case "PWR": SIGPWR
        default: __libc_current_sigrtmin() + 2
        }
        let pane = try Self.recordingPane(#""$FOLIO_EXE" --mouse SampleDocs/long.md"#)
        _ = try #require(pane.waitForPager(name: "long.md"))
        let during = Self.modes(pane)
        #expect(during.alternate == "1" && during.cursor == "0" && during.mouse == "1",
                "the modes are seen while folio runs: \(during)")
        let pid = try #require(pane.folioPID())
        #expect(kill(pid, signo) == 0)
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(screen.contains { $0.contains("status=\(128 + signo)") }, "\(screen)")
        #expect(screen.contains { $0.contains("BEFORE-FOLIO") }, "the normal screen is back: \(screen)")
        #expect(try Self.sttyUnchanged(pane))
        let after = Self.modes(pane)
        #expect(after.alternate == "0" && after.cursor == "1" && after.mouse == "0", "\(after)")
    }

    /// SIGPIPE and SIGXFSZ from `kill` are dropped: folio goes on (keys still move the page)
    /// and `q` ends it normally.
    @Test func droppedSignalsLeaveFolioRunning() throws {
        let pane = try Self.recordingPane(#""$FOLIO_EXE" SampleDocs/long.md"#)
        let first = try #require(pane.waitForPager(name: "long.md"))
        let pid = try #require(pane.folioPID())
        #expect(kill(pid, SIGPIPE) == 0)
        #expect(kill(pid, SIGXFSZ) == 0)
        _ = try #require(try pane.press("<Space>", from: first), "folio still takes keys")
        try pane.keys("q")
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        #expect(screen.contains { $0.contains("status=0") }, "\(screen)")
        #expect(try Self.sttyUnchanged(pane))
    }

    /// Under a file-size limit the save's write fails (EFBIG) instead of SIGXFSZ ending folio
    /// with no word: the failed save is said after the terminal is restored, like any other.
    @Test func aSaveOverTheFileSizeLimitIsReported() throws {
        let pane = try Self.recordingPane(#"(ulimit -f 0; exec "$FOLIO_EXE" SampleDocs/long.md)"#)
        let first = try #require(pane.waitForPager(name: "long.md"))
        _ = try #require(try pane.press("<Space>", from: first), "the page moved: there is a position to save")
        try pane.keys("q")
        let screen = try #require(pane.wait(text: "FOLIO-EXITED"))
        let text = screen.joined(separator: "\n")
        #expect(text.contains("folio: reading positions not saved"), "\(text)")
        #expect(text.contains("File too large"), "\(text)")
        #expect(text.contains("status=0"), "\(text)")
        #expect(try Self.sttyUnchanged(pane))
    }
}

/// Print mode sets no terminal up: a reader that goes away ends it quietly, as before.
@Suite struct PrintModeSignalTests {
    @Test func printIntoAReaderThatGoesAwayStopsQuietly() throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let markdown = (1...20_000).map { "Paragraph \($0) with a few words in it.\n" }.joined(separator: "\n")
        try E2E.write(markdown, to: "big.md", in: dir)
        let script = """
            { "$FOLIO_EXE" --print "$T/big.md" 2> "$T/err"; echo $? > "$T/status"; } | head -1
            { "$FOLIO_EXE" --print --color=always --width 40 "$T/big.md" 2>> "$T/err"; echo $? >> "$T/status"; } | head -1
            """
        let result = try Subprocess.run("/bin/sh", ["-c", script],
                                        environment: ["FOLIO_EXE": try E2E.folio(), "T": dir.path,
                                                      "FOLIO_STATE_DIR": dir.appendingPathComponent("state").path],
                                        timeout: 60)
        #expect(!result.timedOut)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("Paragraph 1 "))
        let err = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        #expect(err.isEmpty, "\(err)")
        let status = try String(contentsOf: dir.appendingPathComponent("status"), encoding: .utf8)
        #expect(status == "0\n0\n", "\(status)")
    }
}
