import Foundation
import Testing

/// `folio` running in a private tmux pane, with the conveniences the pager tests share.
/// Each pane has its own temporary folder (documents, `FOLIO_STATE_DIR`) unless one is given.
final class FolioPane {
    let tmux: TmuxSession
    let dir: URL
    /// Generous: the CI machine is small and shared; tests poll, so a pass is fast anyway.
    static let timeout: TimeInterval = 15

    private init(tmux: TmuxSession, dir: URL) { self.tmux = tmux; self.dir = dir }
    deinit { tmux.kill() }

    /// The environment folio gets inside the pane.
    /// The user's own config, key bindings and themes are never read: `HOME` and
    /// `XDG_CONFIG_HOME` are folders of the test (empty unless it writes there).
    static func environment(stateDir: URL, extra: [String: String] = [:]) -> [String: String] {
        let dir = stateDir.deletingLastPathComponent()
        var env = ["FOLIO_STATE_DIR": stateDir.path, "HOME": dir.appendingPathComponent("home").path,
                   "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "LESSKEYIN": "", "LESSKEY_CONTENT": "", "FOLIO_CONFIG": ""]
        env.merge(extra) { _, new in new }
        return env
    }

    /// Starts `folio ARGUMENTS` directly in the pane (the pane dies when folio exits).
    static func folio(
        _ arguments: [String], columns: Int = 80, rows: Int = 24, dir: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> FolioPane {
        let dir = try dir ?? E2E.temporaryDirectory()
        let tmux = try TmuxSession.start(
            command: [try E2E.folio()] + arguments, columns: columns, rows: rows,
            environment: Self.environment(stateDir: dir.appendingPathComponent("state"), extra: environment),
            workingDirectory: E2E.packageRoot.path)
        return FolioPane(tmux: tmux, dir: dir)
    }

    /// Starts `sh -c SCRIPT` in the pane; `$FOLIO_EXE` is the binary (`$FOLIO` holds folio's own options), `$T` the test folder.
    static func shell(
        _ script: String, interactive: Bool = false, columns: Int = 80, rows: Int = 24, dir: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> FolioPane {
        let dir = try dir ?? E2E.temporaryDirectory()
        var env = Self.environment(stateDir: dir.appendingPathComponent("state"), extra: environment)
        env["FOLIO_EXE"] = try E2E.folio()
        env["T"] = dir.path
        env["PS1"] = "PROMPT$ "
        let command = interactive ? ["sh", "-i"] : ["sh", "-c", script]
        let tmux = try TmuxSession.start(command: command, columns: columns, rows: rows,
                                         environment: env, workingDirectory: E2E.packageRoot.path)
        let pane = FolioPane(tmux: tmux, dir: dir)
        if interactive {
            _ = pane.wait { $0.contains { $0.hasPrefix("PROMPT$") } }
            try pane.type(script + "\r")
        }
        return pane
    }

    /// Types text literally (no key notation).
    func type(_ text: String) throws { try tmux.sendBytes(Array(text.utf8)) }
    func keys(_ notation: String) throws { try tmux.sendKeys(notation) }

    var screen: [String] { tmux.capture() }

    /// The screen once `predicate` holds on a settled screen, else nil after the timeout.
    ///
    /// tmux may apply one frame (one write) in pieces, so a capture can show half a frame:
    /// a screen counts only when the next capture, a moment later, is the same.
    func wait(_ predicate: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(Self.timeout)
        while Date() < deadline {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let candidate = tmux.waitFor(timeout: remaining, predicate) else { return nil }
            Thread.sleep(forTimeInterval: 0.03)
            let again = tmux.capture()
            if again == candidate { return candidate }
        }
        return nil
    }

    func wait(text: String) -> [String]? { wait { $0.contains { $0.contains(text) } } }

    /// Waits until the screen differs from `previous`.
    func waitForChange(from previous: [String]) -> [String]? { wait { $0 != previous } }

    /// Sends keys and waits for the screen to change; returns the new screen.
    func press(_ notation: String, from previous: [String]) throws -> [String]? {
        try keys(notation)
        return waitForChange(from: previous)
    }

    /// Waits for folio's first settled frame: a status row (the last row) that is not empty
    /// and does not show `/…` (a large document's first screen comes from a preview of its
    /// beginning, whose page total is not known yet).
    func waitForPager(name: String? = nil) -> [String]? {
        wait { screen in
            guard let status = screen.last, !status.trimmingCharacters(in: .whitespaces).isEmpty,
                  !status.contains("/…") else { return false }
            return name.map { status.contains($0) } ?? true
        }
    }

    /// The content rows (all but the status row).
    static func content(_ screen: [String]) -> [String] { Array(screen.dropLast()) }

    /// The process id of folio when the pane runs a shell (its child), else the pane's own.
    func folioPID() -> Int32? {
        guard let pane = tmux.panePID else { return nil }
        let deadline = Date().addingTimeInterval(Self.timeout)
        while Date() < deadline {
            if let child = Self.childPID(of: pane, named: "folio") { return child }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// `pgrep -P PARENT NAME` without depending on pgrep: scans /proc.
    static func childPID(of parent: Int32, named name: String) -> Int32? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in entries {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let comm = stat[stat.index(after: open)..<close]
            let rest = stat[stat.index(after: close)...].split(separator: " ")
            if comm == name, rest.count > 1, Int32(rest[1]) == parent { return pid }
        }
        return nil
    }

    /// The rows of the screen with SGR 7 (reverse video) somewhere in them.
    func reverseVideoRows() -> [Int] {
        tmux.capture(escapes: true).enumerated().compactMap { index, row in
            Self.hasReverseVideo(row) ? index : nil
        }
    }

    /// True when `row` (from `capture-pane -e`) turns on SGR 7, reading 38/48 colour
    /// parameters properly so that `38;5;7` is not mistaken for reverse video.
    static func hasReverseVideo(_ row: String) -> Bool {
        var rest = Substring(row)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
            let params = rest[..<end].split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            let isSGR = rest[end] == "m"
            rest = rest[rest.index(after: end)...]
            guard isSGR else { continue }
            var i = 0
            while i < params.count {
                switch params[i] {
                case 7: return true
                case 38, 48, 58:
                    i += (i + 1 < params.count && params[i + 1] == 5) ? 3 : 5
                    continue
                default: break
                }
                i += 1
            }
        }
        return false
    }
}

extension String {
    /// A shell single-quoted form of the string.
    var shellQuoted: String { "'" + replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
