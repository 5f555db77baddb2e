import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import TextModel
import TerminalIO
import TerminalScreen
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the user's editor on a file at a line and waits for it.
enum Editor {
    /// `$VISUAL`, else `$EDITOR`, else `vi`, through `/bin/sh` so editors given with arguments
    /// (`EDITOR="code -w"`) work; `+LINE` is understood by vi, vim, nano, emacs and most others.
    /// Returns the exit status (-1 if it could not be started).
    static func run(path: String, line: Int) -> Int32 {
        let env = ProcessEnvironment.current
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // SIGCHLD is ignored while paging (browsers are reaped by the kernel); waiting for
        // the editor needs its exit status.
        let previous = signal(SIGCHLD, SIG_DFL)
        defer { signal(SIGCHLD, previous) }
        var pid: pid_t = 0
        let argv = ["/bin/sh", "-c", editor + " \"$@\"", "sh", "+\(max(1, line))"]
        let cargs = argv.map { strdup($0) } + [FileName.withCString(path) { strdup($0) }, nil]
        defer { for p in cargs { free(p) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, cargs, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

/// Opens URLs in the user's browser, detached so the pager never blocks or garbles the screen.
enum ExternalOpener {
    /// `$BROWSER` (first of its `:`-separated commands), else `xdg-open`. False when neither exists.
    static func open(_ url: String, environment: [String: String]) -> Bool {
        // A browser takes an argument starting with `-` for an option (`--new-window`).
        guard !url.hasPrefix("-") else { return false }
        var candidates: [String] = []
        if let b = environment["BROWSER"], !b.isEmpty {
            candidates += b.split(separator: ":").map(String.init)
        }
        candidates.append("xdg-open")
        for c in candidates {
            guard let exe = which(c, path: environment["PATH"] ?? "/usr/bin:/bin") else { continue }
            return spawnDetached(exe, [exe, url])
        }
        return false
    }

    static func which(_ name: String, path: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for dir in path.split(separator: ":") {
            let p = "\(dir)/\(name)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    /// posix_spawn in a new session with stdio on /dev/null.
    static func spawnDetached(_ exe: String, _ argv: [String]) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, 0x80)  // POSIX_SPAWN_SETSID (glibc ≥ 2.26), not imported into Swift
        var pid: pid_t = 0
        let cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        let rc = posix_spawn(&pid, exe, &actions, &attr, cargs, environ)
        return rc == 0
    }
}
