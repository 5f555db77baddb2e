import Foundation
import Testing

/// Issue 27: folio as less — less's options on the command line and in `$LESS` are taken
/// with less's meanings, and a bad `$LESS` is a warning, not a failed start.
@Suite struct LessOptionsEndToEndTests {
    let dir: URL
    let env: [String: String]

    init() throws {
        dir = try E2E.temporaryDirectory()
        env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
    }

    /// `PAGER='folio -R'`, `core.pager='folio -FRX'`, `alias less=folio`: less's common
    /// flags are accepted; `-M` is less's long prompt, not "Markdown": five lines stay five.
    @Test(arguments: [["-R"], ["-FRX"], ["-r", "-K", "-e", "-s", "-m", "-q", "-P", "%f", "-#", "8"], ["-M"],
                      ["--RAW-CONTROL-CHARS", "--quit-if-one", "--no-init"], ["-+S", "-j5", "-x4,8"]])
    func lessFlagsAreAccepted(_ flags: [String]) throws {
        let five = try E2E.write("one\ntwo\nthree\nfour\nfive\n", to: "five.txt", in: dir)
        let result = try E2E.run(flags + [five], environment: env)
        #expect(result.status == 0, "\(flags): \(result.errors)")
        #expect(result.errors.isEmpty)
        #expect(result.lines == ["one", "two", "three", "four", "five"])
    }

    @Test func aBadLessValueIsReportedAndSkipped() throws {
        let doc = try E2E.write("# Title\n\nbody\n", to: "t.md", in: dir)
        var env = self.env
        env["LESS"] = "-j99999999999999999999 -S"
        let result = try E2E.run(["--print", doc], environment: env)
        #expect(result.status == 0)
        #expect(result.text.contains("body"))
        #expect(result.errors == "folio: $LESS: -j/--jump-target expects a row (1...10000, negative counts from the bottom) or a fraction such as .5 (got '99999999999999999999')\n")
    }

    @Test func theCommandLineWinsOverLessAndFolio() throws {
        let doc = try E2E.write("# Title\n\nbody\n", to: "t.md", in: dir)
        var env = self.env
        env["LESS"] = "--text"
        env["FOLIO"] = "--markdown --plain"
        let asMarkdown = try E2E.run(["--print", doc], environment: env)
        #expect(asMarkdown.lines.first == "Title")
        let asText = try E2E.run(["--print", "--text", doc], environment: env)
        #expect(asText.lines.first == "# Title")
    }

    /// The issue's example: long options in `$LESS` are names, so this prints a short input
    /// and exits instead of opening the full-screen pager.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func longOptionsInLessQuitIfOneScreen() throws {
        let pane = try FolioPane.shell(
            "printf 'one\\ntwo\\n' | LESS='--quit-if-one-screen --no-init' \"$FOLIO_EXE\"; echo EXIT=$?", interactive: true)
        let screen = try #require(pane.wait { $0.contains { $0.hasPrefix("EXIT=") } })
        #expect(screen.contains("one") && screen.contains("two"))
        #expect(screen.contains("EXIT=0"))
    }

    /// A bad `$LESS` value in the pager: said on the status line, and folio reads on.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aBadLessValueIsSaidOnTheStatusLine() throws {
        let pane = try FolioPane.folio(["SampleDocs/long.md"], environment: ["LESS": "-j99999999999999999999 -S"])
        let screen = try #require(pane.wait { $0.last?.contains("$LESS: -j/--jump-target expects a row") == true })
        #expect(screen[0].hasPrefix("The tidepool field handbook"))
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }
}
