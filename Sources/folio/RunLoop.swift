import Foundation
import MarkdownModel
import Pager
import TerminalIO
import TerminalScreen
#if canImport(Glibc)
import Glibc
#endif

/// The interactive loop: wait for input or signals, feed the pure pager, carry out its
/// effects, draw one frame per batch of input. All effects on the world live here.
struct RunLoop {
    let session: TerminalSession
    var state: PagerState
    let positions: PositionsBridge
    var loaded: [LoadedDocument]
    var renderer = FrameRenderer()
    var decoder = KeyDecoder()
    /// Milliseconds a lone Esc waits for the rest of a sequence.
    static let escapeTimeout: Int32 = 40
    /// Milliseconds of quiet that end a burst of resizes (one re-layout per burst).
    static let resizeSettle: Int32 = 30
    /// Seconds between periodic saves of the reading position while reading.
    static let autosaveInterval: Double = 5
    var lastSave = Date()
    /// Work to do once the first frame is on screen (the full parse after a preview).
    var afterFirstFrame: ((inout PagerState) -> Void)?
    /// Documents already shown (restored or opened at a start command).
    var shown: Set<Int> = [0]
    /// Restore saved positions of documents when first shown (off with --no-restore).
    var restoreOnFirstShow = true
    var savedPosition: String?

    init(session: TerminalSession, state: PagerState, positions: PositionsBridge, loaded: [LoadedDocument]) {
        self.session = session
        self.state = state
        self.positions = positions
        self.loaded = loaded
    }

    mutating func run(hadErrors: Bool) -> Int32 {
        draw()
        if let work = afterFirstFrame {
            afterFirstFrame = nil
            work(&state)
            draw()
        }
        while true {
            let timeout: Int32
            if decoder.hasPendingEscape || decoder.hasPending {
                timeout = RunLoop.escapeTimeout
            } else if state.mouseDrag?.edgeDirection != nil {
                timeout = 50
            } else if state.wantsIdle {
                timeout = 0
            } else {
                timeout = 2000  // wake now and then for the periodic save
            }
            var effects: [PagerEffect] = []
            for event in session.waitForInput(timeoutMilliseconds: timeout) {
                switch event {
                case .bytes(let bytes):
                    for input in decoder.feed(bytes) { effects += handle(input) }
                case .timeout:
                    if decoder.hasPending {
                        for input in decoder.flushTimeout() { effects += handle(input) }
                    } else if state.wantsIdle {
                        effects += state.update(.idle)
                    }
                case .signal(let signal):
                    switch signal {
                    case .resize:
                        settleResizes()
                        let size = session.size()
                        effects += state.update(.resize(rows: size.rows, columns: size.columns))
                    case .terminate, .hangup, .interrupt, .quit:
                        saveAll()
                        session.exit(dueTo: signal)
                    case .suspendRequest:
                        effects.append(.suspend)
                    case .continued:
                        effects.append(.redrawAll)
                    }
                }
            }
            for effect in effects {
                if case .quit = effect {
                    saveAll()
                    return hadErrors ? 1 : 0
                }
                perform(effect)
            }
            if Date().timeIntervalSince(lastSave) >= RunLoop.autosaveInterval {
                saveCurrent()
            }
            draw()
        }
    }

    mutating func handle(_ input: InputEvent) -> [PagerEffect] {
        switch input {
        case .key(let key): return state.update(.key(key))
        case .mouse(let m): return state.update(.mouse(m))
        case .paste(let text): return state.update(.paste(text))
        }
    }

    /// Waits until no SIGWINCH has arrived for a moment, so a drag-resize lays out once.
    mutating func settleResizes() {
        while true {
            let events = session.waitForInput(timeoutMilliseconds: RunLoop.resizeSettle)
            var more = false
            for e in events {
                switch e {
                case .signal(.resize): more = true
                case .bytes(let b): pendingBytes += b
                case .signal(let other): deferredSignals.append(other)
                default: break
                }
            }
            if !more { break }
        }
        if !pendingBytes.isEmpty {
            // Keys typed during the resize are decoded after it, in order.
            let bytes = pendingBytes; pendingBytes = []
            for input in decoder.feed(bytes) { _ = handle(input) }
        }
        for s in deferredSignals where s == .terminate || s == .hangup || s == .interrupt || s == .quit {
            saveAll(); session.exit(dueTo: s)
        }
        deferredSignals = []
    }
    var pendingBytes: [UInt8] = []
    var deferredSignals: [Signal] = []

    mutating func perform(_ effect: PagerEffect) {
        switch effect {
        case .quit:
            break
        case .suspend:
            saveAll()
            do { try session.suspend() } catch { /* the terminal went away; the next read reports it */ }
            let size = session.size()
            _ = state.update(.resize(rows: size.rows, columns: size.columns))
            renderer.invalidate()
        case .redrawAll:
            renderer.invalidate()
        case .openURL(let url):
            if !ExternalOpener.open(url, environment: ProcessInfo.processInfo.environment) {
                try? session.write(OSC52.copy(url))
                state.message = "\(url) (copied)"
            }
        case .copy(let text):
            try? session.write(OSC52.copy(text))
        case .openFile(let path, let fragment):
            switch Input.load(path) {
            case .failure(let error):
                state.message = error.description
            case .success(let doc):
                let spec = DocumentSpec(name: RunLoop.displayName(doc), path: doc.path,
                                        document: MarkdownParser.parse(doc.bytes))
                let known = state.documents.contains { $0.path == doc.path }
                saveCurrent()
                if !known { shown.insert(state.documents.count) }  // restored below, not by .leftDocument
                for e in state.openLinked(spec, fragment: fragment) { perform(e) }
                if !known {
                    loaded.append(doc)
                    if fragment == nil, let m = positions.restore(into: &state, loaded: loaded, documentIndex: state.current) {
                        state.message = m
                    }
                }
            }
        case .edit(let path, let line, let index):
            saveCurrent()
            let status = (try? session.handOver { Editor.run(path: path, line: line) }) ?? -1
            renderer.invalidate()
            let size = session.size()
            _ = state.update(.resize(rows: size.rows, columns: size.columns))
            switch Input.load(path) {
            case .success(let doc):
                positions.reload(doc, into: &state, loaded: &loaded, index: index)
                if status != 0 { state.message = "The editor exited with status \(status)" }
            case .failure(let error):
                state.message = error.description
            }
        case .leftDocument(let index):
            positions.save(state: state, loaded: loaded, documentIndex: index)
            // The first time a file given on the command line is shown (`:n`), it opens
            // where the reader left it.
            if restoreOnFirstShow, !shown.contains(state.current), state.current < loaded.count {
                shown.insert(state.current)
                if let m = positions.restore(into: &state, loaded: loaded, documentIndex: state.current) {
                    state.message = m
                }
            }
        }
    }

    /// A followed file's name for the status line: its canonical path, relative to the
    /// working directory when it lies inside it (`docs/guide.md`, not `docs/a/../guide.md`).
    static func displayName(_ doc: LoadedDocument) -> String {
        guard let path = doc.path else { return doc.name }
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    mutating func draw() {
        let grid = state.frame()
        let bytes = renderer.render(grid, depth: state.config.theme.depth, scrollRows: 0..<state.contentRows)
        do { try session.write(bytes) } catch {
            saveAll()
            session.exit(dueTo: .hangup)
        }
    }

    mutating func saveCurrent() {
        lastSave = Date()
        positions.save(state: state, loaded: loaded, documentIndex: state.current)
    }

    mutating func saveAll() {
        lastSave = Date()
        positions.save(state: state, loaded: loaded, documentIndex: state.current)
        positions.saveHistory(state.searchHistory)
    }
}

/// Runs the user's editor on a file at a line and waits for it.
enum Editor {
    /// `$VISUAL`, else `$EDITOR`, else `vi`, through `/bin/sh` so editors given with arguments
    /// (`EDITOR="code -w"`) work; `+LINE` is understood by vi, vim, nano, emacs and most others.
    /// Returns the exit status (-1 if it could not be started).
    static func run(path: String, line: Int) -> Int32 {
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // SIGCHLD is ignored while paging (browsers are reaped by the kernel); waiting for
        // the editor needs its exit status.
        let previous = signal(SIGCHLD, SIG_DFL)
        defer { signal(SIGCHLD, previous) }
        var pid: pid_t = 0
        let argv = ["/bin/sh", "-c", editor + " \"$@\"", "sh", "+\(max(1, line))", path]
        let cargs = argv.map { strdup($0) } + [nil]
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
