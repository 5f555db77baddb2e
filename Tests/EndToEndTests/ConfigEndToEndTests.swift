import Foundation
import Testing

/// Issue 28: the config file, key bindings in lesskey's format and theme files, as a user
/// writes them. Each test has its own HOME and XDG_CONFIG_HOME (FolioPane, E2E): the real
/// user's files are never read.
@Suite(.serialized) struct ConfigEndToEndTests {
    static let lesskey = "#command\nj back-line\nk forw-line\nx quit\n"
    static let config = "# test config\n--mouse\n[markdown]\n--max-width=60 -x4 --theme=mine\n"
    static let theme = "appearance = \"dark\"\nheading1 = \"#ff0000/196/9 bold\"\n"
    static let markdown = "# Title\n\n" + String(repeating: "word ", count: 60) + "\n"
    static let text = (1...60).map { "line \($0) " + String(repeating: "x", count: 80) }.joined(separator: "\n") + "\n"

    /// A test folder whose config home holds the three files.
    func folder() throws -> URL {
        let dir = try E2E.temporaryDirectory()
        let config = dir.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("folio/themes"), withIntermediateDirectories: true)
        _ = try E2E.write(Self.lesskey, to: "config/lesskey", in: dir)
        _ = try E2E.write(Self.config, to: "config/folio/config", in: dir)
        _ = try E2E.write(Self.theme, to: "config/folio/themes/mine.theme", in: dir)
        _ = try E2E.write(Self.markdown, to: "doc.md", in: dir)
        _ = try E2E.write(Self.text, to: "log.txt", in: dir)
        _ = try E2E.write("a\tb\n" + Self.text, to: "tabs.txt", in: dir)
        return dir
    }

    static func top(_ screen: [String]) -> String { E2E.firstWords(screen.first ?? "", 2) }

    /// The issue's lesskey file: j and k swapped, x quits.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aLesskeyFileSwapsJAndKAndXQuits() throws {
        let dir = try folder()
        let pane = try FolioPane.folio([dir.appendingPathComponent("log.txt").path, "-S"], columns: 60, rows: 10, dir: dir)
        _ = pane.waitForPager()
        try pane.keys("kkk")
        #expect(pane.wait { Self.top($0) == "line 4" } != nil, "\(pane.screen)")
        try pane.keys("j")
        #expect(pane.wait { Self.top($0) == "line 3" } != nil, "\(pane.screen)")
        try pane.keys("x")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout), "x did not quit")
    }

    /// A key file's mistake is said when the pager starts (on standard error, and the status
    /// line), the rest of the file applies.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aKeyFileMistakeIsSaidByThePager() throws {
        let dir = try folder()
        _ = try E2E.write("w frob\nv goto-end\n", to: "config/folio/keys", in: dir)
        let pane = try FolioPane.shell("\"$FOLIO_EXE\" \"$T/log.txt\" 2>\"$T/err\"", columns: 200, rows: 10, dir: dir)
        #expect(pane.wait { $0.last?.contains("unknown action \"frob\"") == true } != nil, "\(pane.screen)")
        try pane.keys("v")
        #expect(pane.wait { Self.top($0) == "line 52" } != nil, "\(pane.screen)")
        try pane.keys("x")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
        let err = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        #expect(err == "folio: \(dir.appendingPathComponent("config/folio/keys").path):1: unknown action \"frob\"\n")
    }

    /// `--max-width=60 -x4` under `[markdown]`: Markdown's prose wraps at 60 columns of a
    /// 100-column pane; a text document's lines still take the whole width and its tabs
    /// stop every 8 columns.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aMarkdownSectionChangesMarkdownButNotText() throws {
        let dir = try folder()
        let md = try FolioPane.folio([dir.appendingPathComponent("doc.md").path], columns: 100, rows: 12, dir: dir)
        let screen = try #require(md.wait { $0.contains { $0.contains("word") } })
        let prose = screen.filter { $0.contains("word") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(prose.count > 1 && prose.allSatisfy { $0.count <= 60 }, "\(prose)")
        #expect(prose.contains { $0.count > 50 }, "\(prose)")

        let text = try FolioPane.folio([dir.appendingPathComponent("tabs.txt").path], columns: 100, rows: 12, dir: dir)
        let rows = try #require(text.wait { $0.contains { $0.hasPrefix("line 1 ") } })
        let first = try #require(rows.first { $0.hasPrefix("line 1 ") })
        #expect(first.trimmingCharacters(in: .whitespaces).count == 87, "\(first)")
        #expect(rows.first?.trimmingCharacters(in: .whitespaces) == "a       b", "\(rows)")
    }

    /// A user theme named in the config file (its `[markdown]` section): its heading colour is
    /// what tmux shows.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aUserThemesHeadingColourIsShown() throws {
        let dir = try folder()
        let pane = try FolioPane.folio([dir.appendingPathComponent("doc.md").path], columns: 80, rows: 8, dir: dir,
                                       environment: ["COLORFGBG": "", "NO_COLOR": "", "COLORTERM": ""])
        let heading = pane.wait { _ in pane.tmux.capture(escapes: true).contains { $0.contains("Title") && $0.contains("38;5;196m") } }
        #expect(heading != nil, "\(pane.tmux.capture(escapes: true).first { $0.contains("Title") } ?? "")")
    }

    /// `--no-config`: no config (prose as wide as 100 allows), no lesskey (k goes down), no
    /// theme (the built-in dark heading, 215).
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func noConfigIgnoresAllThreeFiles() throws {
        let dir = try folder()
        let pane = try FolioPane.folio(["--no-config", dir.appendingPathComponent("doc.md").path], columns: 100, rows: 8, dir: dir,
                                       environment: ["COLORFGBG": "", "NO_COLOR": "", "COLORTERM": ""])
        let screen = try #require(pane.wait { $0.contains { $0.contains("word") } })
        #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces).count > 60 }, "\(screen)")
        let heading = pane.wait { _ in pane.tmux.capture(escapes: true).contains { $0.contains("Title") && $0.contains("38;5;215m") } }
        #expect(heading != nil, "\(pane.tmux.capture(escapes: true).first { $0.contains("Title") } ?? "")")

        let text = try FolioPane.folio(["--no-config", dir.appendingPathComponent("log.txt").path, "-S"], columns: 60, rows: 10, dir: dir)
        _ = text.waitForPager()
        try text.keys("kkkjjj")  // k at the top does nothing; j goes down
        #expect(text.wait { Self.top($0) == "line 4" } != nil, "\(text.screen)")
        try text.keys("x")
        #expect(text.wait { $0.last?.contains("Unknown key: x") == true } != nil, "\(text.screen)")
    }

    /// A bad line: one line on standard error naming the file and line, the rest applies,
    /// status 0. `--show-config` says where each setting came from.
    @Test func aBadLineIsReportedAndTheRestApplies() throws {
        let dir = try folder()
        _ = try E2E.write("--bogus\n[markdown]\n--max-width=30\n", to: "config/folio/config", in: dir)
        _ = try E2E.write("w frob\n", to: "config/folio/keys", in: dir)  // print mode reads no keys: not said
        let env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        let result = try E2E.run(["--print", "--width=80", dir.appendingPathComponent("doc.md").path], environment: env)
        #expect(result.status == 0)
        let path = dir.appendingPathComponent("config/folio/config").path
        #expect(result.errors == "folio: \(path):1: There is no --bogus option\n")
        #expect(result.lines.filter { $0.contains("word") }.allSatisfy { $0.count <= 30 }, "\(result.text)")

        let shown = try E2E.run(["--show-config", "-N"], environment: env)
        #expect(shown.status == 0)
        #expect(shown.lines.contains { $0.hasPrefix("--max-width") && $0.hasSuffix("\(path):3") }, "\(shown.text)")
        #expect(shown.lines.contains { $0.hasPrefix("-N/--line-numbers") && $0.hasSuffix("command line") })
        #expect(shown.lines.contains { $0.hasPrefix("--align") && $0.hasSuffix("default") })
    }

    /// The lesskey file's `#env LESS` wins over the environment's, as in less; `$FOLIO_CONFIG`
    /// names the config file, and one that is not there is said.
    @Test func lesskeyEnvAndFolioConfig() throws {
        let dir = try folder()
        _ = try E2E.write(Self.lesskey + "#env\nLESS = -N\n", to: "config/lesskey", in: dir)
        var env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        env["LESS"] = "-S"
        let shown = try E2E.run(["--show-config"], environment: env)
        #expect(shown.lines.contains { $0.hasPrefix("-N/--line-numbers") && $0.contains(" on ") && $0.hasSuffix("$LESS") }, "\(shown.text)")
        #expect(shown.lines.contains { $0.hasPrefix("-S/--chop-long-lines") && $0.contains(" off ") })
        #expect(shown.text.contains("$LESS from \(dir.appendingPathComponent("config/lesskey").path):6 (#env)"))

        _ = try E2E.write("--max-width=20\n", to: "other.conf", in: dir)
        env["FOLIO_CONFIG"] = dir.appendingPathComponent("other.conf").path
        let other = try E2E.run(["--print", "--width=80", dir.appendingPathComponent("doc.md").path], environment: env)
        #expect(other.errors.isEmpty, "\(other.errors)")
        #expect(other.lines.filter { $0.contains("word") }.allSatisfy { $0.count <= 20 }, "\(other.text)")
        env["FOLIO_CONFIG"] = dir.appendingPathComponent("missing.conf").path
        let missing = try E2E.run(["--print", dir.appendingPathComponent("doc.md").path], environment: env)
        #expect(missing.status == 0)
        #expect(missing.errors == "folio: $FOLIO_CONFIG: \(dir.appendingPathComponent("missing.conf").path) does not exist\n")
    }

    @Test func showKeysAndDumpTheme() throws {
        let dir = try folder()
        _ = try E2E.write("#command\nO outline\nw frob\n", to: "config/folio/keys", in: dir)
        let env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        let keys = try E2E.run(["--show-keys"], environment: env)
        #expect(keys.status == 0)
        let lesskey = dir.appendingPathComponent("config/lesskey").path
        let folioKeys = dir.appendingPathComponent("config/folio/keys").path
        func row(_ key: String) -> [String]? {
            keys.lines.first { $0.hasPrefix(key + " ") }.map { $0.split(separator: " ").map(String.init) }
        }
        #expect(row("j") == ["j", "back-line", "\(lesskey):2"], "\(keys.text)")
        #expect(row("O") == ["O", "outline", "\(folioKeys):2"])
        #expect(row("q") == ["q", "quit", "built-in"])
        // $LESSKEY_CONTENT comes after the file, as in less.
        var contentEnv = env
        contentEnv["LESSKEY_CONTENT"] = "j forw-line;z quit"
        let content = try E2E.run(["--show-keys"], environment: contentEnv)
        #expect(content.lines.contains { $0.split(separator: " ") == ["j", "forw-line", "$LESSKEY_CONTENT:1"] }, "\(content.text)")
        #expect(content.lines.contains { $0.split(separator: " ") == ["k", "forw-line", "\(lesskey):3"] })
        #expect(keys.errors == "folio: \(folioKeys):3: unknown action \"frob\"\n")

        // The dark palette as a file, read back as a user theme, written out the same.
        let dark = try E2E.run(["--dump-theme=dark"], environment: env)
        #expect(dark.status == 0 && dark.errors.isEmpty)
        _ = try E2E.write(dark.text, to: "config/folio/themes/copy.theme", in: dir)
        let copy = try E2E.run(["--dump-theme=copy"], environment: env)
        #expect(copy.errors.isEmpty)
        #expect(copy.lines.dropFirst() == dark.lines.dropFirst(), "only the comment naming it differs")
        let missing = try E2E.run(["--dump-theme=nothere"], environment: env)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("nothere.theme does not exist"))
    }
}
