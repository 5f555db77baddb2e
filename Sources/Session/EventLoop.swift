import Dispatch
import FoundationEssentials
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

/// The interactive loop: wait for input or signals, feed the pure pager, carry out its
/// effects, draw one frame per batch of input. All effects on the world live here.
///
/// The terminal is `any TerminalBackend`, not a generic parameter: the loop calls it once or
/// twice per batch of input (a poll, a write), so dynamic dispatch costs nothing measurable,
/// and an existential keeps `EventLoop.InputSlot` and the extensions free of a type parameter
/// that only tests would ever vary (`FakeTerminal` in RunLoopTests).
///
/// The loop never ends the process: `run` returns how it ended (`Ending`), the terminal
/// restored and the positions saved, and the caller exits (for a signal, with its status).
struct EventLoop {
    let terminal: any TerminalBackend
    var state: PagerState
    let positions: PositionsBridge
    var loaded: [LoadedDocument]
    var renderer = FrameRenderer()
    var decoder = KeyDecoder()
    /// Milliseconds a lone Esc waits for the rest of a sequence.
    static let escapeTimeout: Int32 = 40
    /// Seconds between periodic saves of the reading position while reading.
    /// (A variable so tests on a busy machine are not saved for at a moment of its choosing.)
    var autosaveInterval: Double = 5
    /// The loop's time (`SystemClock`; a test's scripted clock).
    var clock: any LoopClock = SystemClock()
    /// When the position was last saved (`clock` seconds; the loop's start counts as one).
    var lastSave: Double?
    /// Events for the pager once the first frame is on screen (the highlighter, made then);
    /// the saved search history is loaded then too, unless it is in already.
    var afterFirstFrame: (() -> [PagerEvent])?
    /// Documents already shown (restored or opened at a start command).
    var shown: Set<Int> = [0]
    /// Large Markdown files shown from a preview whose saved position is restored when their
    /// full parse is in (if the reader has not moved by then).
    var restoreWhenParsed: Set<Int> = []
    /// The latest reload started for each document (`reloadFile`): an older one that
    /// finishes later is dropped.
    var reloadGeneration: [Int: Int] = [:]
    /// Restore saved positions of documents when first shown (off with --no-restore).
    var restoreOnFirstShow = true
    /// Wakes the loop when reader threads or the parse worker have something.
    var mailbox: (any Mailbox)?
    /// Each document's input: its bytes, the thread reading it, its text content or parser.
    var inputs: [InputSlot] = []
    /// Reload Markdown files that change on disk (off with --no-watch).
    var watch = true
    /// Columns between tab stops in text documents (`-x`), for files opened by links.
    var tabWidth = 8
    /// `F` follows a file by name (reopens it when replaced), as less's --follow-name.
    var followName = false
    /// Effects to carry out before the first key (`+F`, `+G` on a stream).
    var startEffects: [PagerEffect] = []
    /// When followed and watched files were last looked at (`clock` seconds).
    var lastPoll: Double?
    /// The background pass counting the current text document's rows (nil when none is due).
    var rowCounter: RowCounter?
    /// Piped texts whose saved position waits for this many bytes to arrive.
    var pendingRestore: [Int: Int] = [:]
    /// The document whose rows a thread is counting (see `startCounting`).
    var counting: Int?
    /// The thread highlighting code blocks the layout asked for.
    var syntaxJobs = SyntaxJobs()

    /// One document's input as the run loop tracks it.
    struct InputSlot {
        var doc: Int
        var store: ByteStore
        /// The thread reading a pipe; nil for files.
        var reader: StreamReader?
        /// Text documents: the line model over `store`.
        var text: TextContent?
        /// Markdown streams and previews: parses in the background.
        var parser: ParseWorker?
        /// A file (all of it readable at once) is indexed to its end (`G`, search, `F`) rather than by slices.
        var indexToEnd = false
        var ended = false
        /// Where the view was when a key stopped `G`, `F` or a search on this stream: no reading on
        /// until the view moves (`demandInput`).
        var stoppedAt: ScrollPosition?
        /// A text file's first and last bytes as read (`syncTextFile`: a file written anew
        /// and longer is not one that grew).
        var sample: FileSample?
        /// When a watched file was first seen empty (`pollFiles`: it may be being written).
        var emptySince: Double?
        /// Why the input ended early (a read error), said once its text is whole.
        var endError: String?
        /// What the file looked like when last read (follow, watch).
        var fileSize = -1
        var fileInode: UInt = 0
        var fileModified = timespec()
    }

    init(terminal: any TerminalBackend, state: PagerState, positions: PositionsBridge, loaded: [LoadedDocument]) {
        self.terminal = terminal
        self.state = state
        self.positions = positions
        self.loaded = loaded
    }

    /// How the loop ended. In both cases the terminal is restored and the positions saved.
    enum Ending: Equatable {
        /// `q` (or `ZZ`, …): the process's exit status.
        case quit(status: Int32)
        /// A signal that ends folio, or the terminal gone (`.hangup`): the caller ends the
        /// process as the signal would have (`TerminalSession.exit(dueTo:)`).
        case signal(Signal)
    }

    /// Thrown (only) by `leave`: unwinds the loop the way `exit` used to, to `run`.
    struct Leaving: Error {
        let signal: Signal
    }

    /// Runs until `q` or a signal that ends folio.
    mutating func run(hadErrors: Bool) -> Ending {
        do {
            return try loop(hadErrors: hadErrors)
        } catch {
            return .signal(error.signal)
        }
    }

    private mutating func loop(hadErrors: Bool) throws(Leaving) -> Ending {
        for i in inputs.indices { noteFile(&inputs[i]) }
        let started = clock.now()
        lastSave = lastSave ?? started
        lastPoll = lastPoll ?? started
        queried = queried ?? started
        if terminal.options.queryColors { replyExpectedSince = started }
        startEffects = try waitForTerminalReply() + startEffects
        try draw()
        // Readers start once the first screen is out: on a busy machine, a thread reading
        // 4 MB ahead (and the writer it wakes) would compete with that screen for the CPU.
        for slot in inputs { slot.reader?.start() }
        // A pipe with a saved position: read on to it, then place it (now, if it is in).
        // (Only where the document resumes: reading a command's output on to an old place just
        // to offer it would read what nobody asked for.)
        for i in inputs.indices where restoreOnFirstShow && inputs[i].text != nil && positions.restoreMode(loaded, i) == .resume {
            if let reader = inputs[i].reader, let need = positions.bytesToRestore(loaded: loaded, documentIndex: i) {
                pendingRestore[i] = need
                reader.demand(need)
                restorePending(i)
            }
        }
        // A large file shown from a preview of its beginning: its full parse (which uses every
        // core) starts once the first screen is out, so that screen never waits for it.
        for i in inputs.indices where inputs[i].reader == nil {
            inputs[i].parser?.poke(ended: true, options: state.layoutOptions(isText: false))
        }
        if let work = afterFirstFrame {
            afterFirstFrame = nil
            let warned = positions.warning != nil
            loadHistory()
            if !warned, let w = positions.warning { _ = apply(.notice(w)) }
            for event in work() {
                let effects = apply(event)
                assert(effects.isEmpty, "highlighterReady only lays out again")
            }
            try draw()
        }
        var effects: [PagerEffect] = startEffects
        startEffects = []
        while true {
            for effect in effects {
                if case .quit = effect {
                    finishReplies()
                    // The shell comes back at once; the save (a content hash of the whole
                    // document: ~0.5 s for 100 MB of Markdown) happens after.
                    terminal.restore()
                    saveAll()
                    return .quit(status: state.quitByInterrupt ? 2 : hadErrors ? 1 : 0)
                }
                send(perform(effect))
            }
            effects = []
            startCounting()
            demandInput()
            scheduleRowCounts()
            // Not while a Markdown document is still a preview or a growing stream: its
            // position's key is the hash of the whole input, which the full parse takes off
            // the loop, and hashing 102 MB here made a key wait ~150 ms (q still saves).
            if clock.now() - (lastSave ?? 0) >= autosaveInterval, !awaitingFullParse {
                saveCurrent()
            }
            try draw()
            // Code blocks the frame laid out without their colours.
            syntaxJobs.start(content: (state.help ?? state.documents[state.current]).layout.content,
                             highlighter: state.config.highlighter, mailbox: mailbox)

            let timeout: Int32
            if decoder.hasPendingEscape || decoder.hasPending {
                timeout = EventLoop.escapeTimeout
            } else if state.mouseDrag?.edgeDirection != nil {
                timeout = 50
            } else if state.wantsIdle || hasBackgroundWork {
                timeout = 0
            } else if state.following || watch {
                timeout = 250  // look at followed and watched files
            } else {
                timeout = 2000  // wake now and then for the periodic save
            }
            for event in terminal.waitForInput(timeoutMilliseconds: timeout, wakeFD: mailbox?.readFD ?? -1) {
                switch event {
                case .bytes(let bytes):
                    if !state.following { for event in syncTextFile() { effects += apply(event) } }  // keys act on the file as it is
                    for input in decoder.feed(bytes, at: clock.milliseconds()) { effects += handle(input) }
                case .wake:
                    effects += takeDeliveries()
                case .timeout:
                    if decoder.hasPending {
                        for input in decoder.flushTimeout(at: clock.milliseconds()) { effects += handle(input) }
                    } else if hasBackgroundWork {
                        effects += indexSlice()
                    } else if state.wantsIdle {
                        effects += apply(.idle)
                    }
                    if clock.now() - (lastPoll ?? 0) >= 0.25 {
                        lastPoll = clock.now()
                        effects += pollFiles()
                    }
                case .signal(let signal):
                    switch signal {
                    case .resize:
                        // At once, in order with the keys around it (no settling delay: the
                        // layout is lazy and a large document's count runs off the loop, so a
                        // burst of resizes costs a few quick relayouts, and a key typed just
                        // after one applies at the new size).
                        let size = terminal.size()
                        effects += apply(.resize(rows: size.rows, columns: size.columns))
                    case .terminate, .hangup, .interrupt, .quit, .other:
                        throw leave(dueTo: signal)
                    case .suspendRequest:
                        effects.append(.suspend)
                    case .continued:
                        effects.append(.redrawAll)
                    }
                }
            }
        }
    }

    mutating func handle(_ input: InputEvent) -> [PagerEffect] {
        switch input {
        case .key(let key): return apply(.key(key))
        case .mouse(let m): return apply(.mouse(m))
        case .paste(let text): return apply(.paste(text))
        case .reply(let reply):
            if reply == .deviceAttributes { replyExpectedSince = nil }
            return apply(.terminalReply(reply))
        }
    }

    /// Milliseconds after the colour query (`--theme=auto`) that the first frame waits for
    /// the answer at most. A terminal on this machine answers in a millisecond or two, and one
    /// that does not know OSC 11 answers DA1 as fast; the deadline is for a terminal that
    /// answers nothing at all, so that the first screen still comes within ~50 ms. An answer
    /// slower than this (a long ssh hop) re-themes the screen when it comes.
    /// (A variable so tests on a busy machine do not miss it before their first answer.)
    var replyDeadline = 25
    /// When the colour query went out (`clock` seconds; nil: when the loop starts).
    var queried: Double?

    /// Before the first frame: reads the terminal's replies to the colour query until DA1
    /// answers or `replyDeadline` passes (then the pager hears `.terminalQueryTimedOut`).
    /// Keys typed meanwhile are decoded and applied in order; their effects are returned.
    mutating func waitForTerminalReply() throws(Leaving) -> [PagerEffect] {
        var effects: [PagerEffect] = []
        let start = queried ?? clock.now()
        while state.awaitingTerminal {
            let elapsed = Int(((clock.now() - start) * 1000).rounded(.down))
            guard elapsed < replyDeadline else { break }
            for event in terminal.waitForInput(timeoutMilliseconds: Int32(replyDeadline - elapsed)) {
                switch event {
                case .bytes(let bytes):
                    for input in decoder.feed(bytes, at: clock.milliseconds()) { effects += handle(input) }
                case .signal(.resize):
                    let size = terminal.size()
                    effects += apply(.resize(rows: size.rows, columns: size.columns))
                case .signal(let signal) where signal != .suspendRequest && signal != .continued:
                    throw leave(dueTo: signal)
                case .signal, .wake, .timeout:
                    break
                }
            }
        }
        if state.awaitingTerminal { effects += apply(.terminalQueryTimedOut) }
        return effects
    }

    /// On quitting just after asking the terminal (a reply may be on its way): read its
    /// replies up to DA1 for a moment, so they reach folio and not the shell.
    mutating func finishReplies() {
        guard let since = replyExpectedSince, clock.now() - since < 0.5 else { return }
        let deadline = min(since + 0.5, clock.now() + 0.15)
        while replyExpectedSince != nil {
            let left = Int32((deadline - clock.now()) * 1000)
            guard left > 0 else { break }
            for case .bytes(let bytes) in terminal.waitForInput(timeoutMilliseconds: min(left, 100)) {
                for case .reply(let r) in decoder.feed(bytes) where r == .deviceAttributes { replyExpectedSince = nil }
            }
        }
    }

    /// When the colour query was last sent (start, resume, back from the editor; `clock`
    /// seconds), until its DA1 reply arrives; nil when no reply is expected.
    var replyExpectedSince: Double?

    /// Carries out one of the pager's effects; what the pager must hear of it comes back as
    /// events (`send` them: the loop's way back into `update`). A `.quit` is the loop's own
    /// business (`loop`), and nothing here.
    mutating func perform(_ effect: PagerEffect) -> [PagerEvent] {
        switch effect {
        case .quit:
            return []
        case .suspend:
            saveAll()
            do { try terminal.suspend() } catch { /* the terminal went away; the next read reports it */ }
            if terminal.options.queryColors { replyExpectedSince = clock.now() }
            renderer.invalidate()
            let size = terminal.size()
            return [.resize(rows: size.rows, columns: size.columns)]
        case .redrawAll:
            renderer.invalidate()
            return []
        case .openURL(let url):
            if !ExternalOpener.open(url, environment: ProcessEnvironment.current) {
                try? terminal.write(OSC52.copy(url))
                return [.notice("\(url) (copied)")]
            }
            return []
        case .copy(let text):
            try? terminal.write(OSC52.copy(text))
            return []
        case .openFile(let path, let fragment):
            return openLinked(path: path, fragment: fragment)
        case .readToEnd(let index):
            guard inputs.indices.contains(index) else { return [] }
            // Markdown streams are read whole anyway; text streams are read on as the loop
            // demands (`demandInput`), so what is held never runs far ahead of what is indexed.
            if inputs[index].reader == nil { inputs[index].indexToEnd = true }
            return []
        case .stopReading(let index):
            // (A Markdown stream is read whole whatever the keys: it is parsed whole.)
            guard inputs.indices.contains(index), inputs[index].text != nil else { return [] }
            inputs[index].reader?.readToEnd(false)
            inputs[index].indexToEnd = false
            if state.documents.indices.contains(index) { inputs[index].stoppedAt = state.documents[index].viewport.position }
            return []
        case .edit(let path, let line, let index):
            saveCurrent()
            let status = (try? terminal.handOver { Editor.run(path: path, line: line) }) ?? -1
            // The size first: the file read again below is laid out at it.
            send(tookTerminalBack())
            if status != 0 { say("The editor exited with status \(status)") }
            if index < loaded.count, loaded[index].filter != nil {
                // Shown through LESSOPEN or decompressed: the file's own bytes are not what it shows.
                say("\(loaded[index].name): not read again (shown through LESSOPEN or decompressed)")
            } else if inputs.indices.contains(index), inputs[index].text != nil {
                reopenText(index, path: path)
            } else {
                reloadFile(index, path: path, markChanges: false)
            }
            return []
        case .reread:
            return reread()
        case .leftDocumentForSearch(let index):
            leftDocumentForSearch(index)
            return []
        case .examine(let path):
            return examine(path)
        case .completePath(let prefix):
            return completePath(prefix)
        case .saveInput(let index, let path, let mode, let complete):
            return saveInput(index, to: path, mode: mode, complete: complete)
        case .shell(let command):
            return runShell(command)
        case .pipe(let command, let index, let lines):
            return pipe(lines, of: index, to: command)
        case .leftDocument(let index):
            positions.save(state: state, loaded: loaded, documentIndex: index)
            // The first time a file given on the command line is shown (`:n`), it opens
            // where the reader left it.
            if restoreOnFirstShow, !shown.contains(state.current), state.current < loaded.count {
                shown.insert(state.current)
                if let m = restorePosition(state.current) { return [.notice(m)] }
            }
            return []
        }
    }

    /// A followed file's name for the status line: its canonical path, relative to the
    /// working directory when it lies inside it (`docs/guide.md`, not `docs/a/../guide.md`).
    static func displayName(_ doc: LoadedDocument) -> String {
        guard let path = doc.path else { return doc.name }
        return shortPath(path)
    }

    /// `path` relative to the working directory when it is inside it, as a user reads it
    /// (`FileName.display`).
    static func shortPath(_ path: String) -> String {
        let cwd = FileName.currentDirectory()
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return FileName.display(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }

    /// Draws one frame; a terminal that cannot be written to has gone away, which ends
    /// folio as SIGHUP does.
    mutating func draw() throws(Leaving) {
        let grid = state.frame()
        let bytes = renderer.render(grid, depth: state.config.theme.depth, scrollRows: 0..<state.contentRows)
        guard !bytes.isEmpty else { return }
        do { try terminal.write(bytes) } catch {
            throw leave(dueTo: .hangup)
        }
    }

    /// Ends the loop for a signal (or a terminal that went away) as `q` ends it: terminal
    /// restored first (the shell comes back at once), then the reading position saved. The
    /// caller says a failed save on stderr and ends the process with the signal's action.
    /// Use as `throw leave(dueTo:)`.
    mutating func leave(dueTo signal: Signal) -> Leaving {
        terminal.leaving(dueTo: signal)  // the way out gets 8 s, then folio ends anyway
        terminal.restore()
        CrashReport.hangIfAsked(at: "exit")
        saveAll()
        return Leaving(signal: signal)
    }

    /// Puts an outside result on the status line, through `update` like every other event
    /// (its effects, if any, carried out).
    mutating func say(_ text: String) {
        send(.notice(text))
    }

    /// The current document is Markdown shown from a preview or a partial parse (its full
    /// parse, which hashes its input, is not in yet).
    var awaitingFullParse: Bool {
        let index = state.current
        return loaded.indices.contains(index) && loaded[index].kind == .markdown && state.documents[index].isGrowing
    }

    mutating func saveCurrent() {
        lastSave = clock.now()
        positions.save(state: state, loaded: loaded, documentIndex: state.current)
    }

    mutating func saveAll() {
        lastSave = clock.now()
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

// MARK: - Input that arrives while the reader reads

extension EventLoop {
    /// Bytes of a file indexed per slice between keys (a few ms each).
    static let indexSliceBytes = 8 << 20
    /// Bytes indexed per slice when the reader asked for the end (`G`, `F`, a search).
    static let demandSliceBytes = 64 << 20

    /// Text whose lines are not all found yet (a file, or a pipe that delivered faster
    /// than one slice): indexed a slice at a time between keys, so keys are never kept waiting.
    var hasBackgroundWork: Bool {
        inputs.contains { slot in
            guard let text = slot.text else { return false }
            return slot.reader == nil ? !text.isComplete : text.indexedBytes < slot.store.count
        }
    }

    /// Indexes the next slice of every text input not done yet.
    mutating func indexSlice() -> [PagerEffect] {
        var effects: [PagerEffect] = []
        for i in inputs.indices {
            guard let text = inputs[i].text else { continue }
            if inputs[i].reader != nil {
                guard text.indexedBytes < inputs[i].store.count else { continue }
                // Complete only once `.ended` has been taken (with its error, if any).
                text.indexMore(limit: EventLoop.indexSliceBytes, inputEnded: inputs[i].ended)
                if text.isComplete {
                    effects += finishText(i)
                } else {
                    effects += apply(.inputArrived(document: i))
                }
                continue
            }
            guard !text.isComplete else { continue }
            let limit = inputs[i].indexToEnd ? EventLoop.demandSliceBytes : EventLoop.indexSliceBytes
            text.indexMore(limit: limit, inputEnded: true)
            effects += apply(.readProgress(document: i, bytes: text.indexedBytes))
            if text.isComplete {
                inputs[i].indexToEnd = false
                effects += apply(.inputEnded(document: i, error: nil))
            } else {
                effects += apply(.inputArrived(document: i))
            }
        }
        return effects
    }

    /// A text input whose lines are all indexed after its end: the pager hears that it ended
    /// (with its read error, if any), and a saved position can be restored.
    mutating func finishText(_ doc: Int) -> [PagerEffect] {
        keepSmallInput(doc)
        let error = inputs[doc].endError
        let effects = apply(.inputEnded(document: doc, error: error))
        if error == nil { restoreEndedStream(doc) }
        return effects
    }

    /// A finished text input small enough to keep a reading position keeps its bytes.
    mutating func keepSmallInput(_ doc: Int) {
        let store = inputs[doc].store
        if store.count <= LoadedDocument.positionLimit, doc < loaded.count {
            loaded[doc].bytes = store.bytes(0..<store.count)
        }
    }

    /// A piped text whose saved position needed more input than had arrived is placed once
    /// enough has (or the input ended), if the reader has not moved from the top meanwhile.
    mutating func restorePending(_ doc: Int) {
        guard let need = pendingRestore[doc], inputs.indices.contains(doc), let reader = inputs[doc].reader,
              inputs[doc].store.count >= need || reader.finished else { return }
        pendingRestore[doc] = nil
        guard state.documents.indices.contains(doc), state.documents[doc].top == 0,
              state.documents[doc].previousPosition == nil else { return }
        if let m = restorePosition(doc, deferStreams: false) {
            say(m)
        }
    }

    /// A text stream that has just ended is whole, so it has an identity (its content): its
    /// saved position is restored, if the reader has not moved from the top meanwhile.
    mutating func restoreEndedStream(_ doc: Int) {
        if pendingRestore[doc] != nil { restorePending(doc); return }
        guard restoreOnFirstShow, inputs.indices.contains(doc), inputs[doc].reader != nil,
              state.documents.indices.contains(doc), state.documents[doc].top == 0,
              state.documents[doc].previousPosition == nil else { return }
        if let m = restorePosition(doc) { say(m) }
    }

    /// Takes what the reader threads and the parse worker posted, as pager events.
    mutating func takeDeliveries() -> [PagerEffect] {
        guard let mailbox else { return [] }
        var effects: [PagerEffect] = []
        var grown = Set<Int>()
        for delivery in mailbox.drain() {
            switch delivery {
            case .grew(let doc):
                grown.insert(doc)
            case .ended(let doc, let error):
                guard inputs.indices.contains(doc) else { continue }
                inputs[doc].ended = true
                inputs[doc].endError = error.map { "\(loaded[doc].name): \($0)" }
                let store = inputs[doc].store
                if let text = inputs[doc].text {
                    if text.indexedBytes < store.count { continue }  // indexing finishes it (`grown`, the slices)
                    text.indexMore(inputEnded: true)
                    effects += finishText(doc)
                } else {
                    // (The parse worker makes the stream's bytes one array, off the loop.)
                    inputs[doc].parser?.poke(ended: true, options: state.layoutOptions(isText: false))
                    if let error { say("\(loaded[doc].name): \(error)") }
                }
                grown.remove(doc)
            case .counted(let doc, let options, let counts, let content):
                counting = nil
                effects += apply(.markdownRowCounts(document: doc, options: options, counts: counts, content: content))
            case .parsed(let doc, var spec, let complete, let facts):
                guard inputs.indices.contains(doc), state.documents.indices.contains(doc) else { continue }
                if let facts { positions.adopt(facts.facts, hash: facts.hash, documentIndex: doc) }
                let old = state.documents[doc]
                let isComplete = complete
                (spec.name, spec.path, spec.isPreview) = (old.name, old.path, !isComplete)
                effects += apply(.documentReady(document: doc, spec: spec, changedUnits: []))
                // A Markdown stream is keyed by its content: its position can be restored once
                // it is whole, if the reader has not moved yet. So is a large file's, shown
                // from a preview until now.
                let waiting = inputs[doc].reader != nil || restoreWhenParsed.contains(doc)
                if isComplete { restoreWhenParsed.remove(doc) }
                if isComplete, restoreOnFirstShow, waiting, state.documents[doc].top == 0,
                   state.documents[doc].previousPosition == nil,
                   let m = restorePosition(doc) {
                    say(m)
                }
                if !isComplete { inputs[doc].parser?.poke(ended: inputs[doc].ended || inputs[doc].reader == nil, options: state.layoutOptions(isText: false)) }
                if isComplete { HeapTrim.soon() }
            case .rowCounts(let doc, let chunk, let counter):
                counter.taken()
                effects += apply(.rowCounts(document: doc, chunk: chunk))
            case .reloaded(let result, let doc):
                takeReload(result.value, doc: doc)
            case .reloadFailed(let doc, let generation, let message):
                if let message, reloadGeneration[doc] == generation { say(message) }
            case .highlighted(let content, let block, let note, let last):
                syntaxJobs.delivered(last: last)
                effects += apply(.codeHighlighted(content: content, blocks: [block], note: note))
            }
        }
        for doc in grown.sorted() where inputs.indices.contains(doc) {
            if let text = inputs[doc].text {
                // The input may have ended in the same batch (`.ended` left the last bytes to
                // this indexing): then this indexing is what finishes it.
                text.indexMore(limit: EventLoop.indexSliceBytes, inputEnded: inputs[doc].ended)
                effects += apply(.readProgress(document: doc, bytes: inputs[doc].store.count))
                if text.isComplete {
                    effects += finishText(doc)
                    continue
                }
                effects += apply(.inputArrived(document: doc))
                restorePending(doc)
            } else {
                effects += apply(.readProgress(document: doc, bytes: inputs[doc].store.count))
                inputs[doc].parser?.poke(ended: false, options: state.layoutOptions(isText: false))
            }
        }
        return effects
    }

    /// Starts, restarts or cancels the background pass that makes the current text
    /// document's row counts exact, from what the pager asks for (`rowCountRequest`): a new
    /// width or `-S` cancels the pass under way and starts one for the new options; lines
    /// added after a pass finished (`F`) are counted by another from where it ended.
    mutating func scheduleRowCounts() {
        let want = state.help == nil && state.documents.indices.contains(state.current)
            ? state.documents[state.current].rowCountRequest : nil
        if let counter = rowCounter, let want, counter.request == want, counter.doc == state.current {
            guard counter.finished else { return }
            // Finished, yet not exact: lines came since (counted from its end), or the input
            // started over (counted again from the top).
            let units = want.content.unitCount
            if counter.end < units {
                startRowCounter(want, from: counter.end)
            } else if units < counter.end {
                startRowCounter(want, from: 0)
            }  // else nothing left to count: never spin
            return
        }
        guard let want else {
            // Exact now: a finished pass is kept, so lines that arrive later (`F`) are
            // counted from its end, not from the top.
            if let counter = rowCounter, !counter.finished || counter.doc != state.current {
                counter.cancel()
                rowCounter = nil
            }
            return
        }
        rowCounter?.cancel()
        startRowCounter(want, from: 0)
    }

    private mutating func startRowCounter(_ request: RowCountRequest, from: Int) {
        guard let mailbox else { return }
        let counter = RowCounter(request: request, doc: state.current, from: from, mailbox: mailbox)
        rowCounter = counter
        counter.start()
    }

    /// Counts the rows of a document that waits for them (a large document at a new width)
    /// on another thread, one document at a time; keys go on meanwhile, on estimated counts
    /// made exact around the view. A result for options no longer wanted is dropped by the
    /// pager, and the next wanted count starts then.
    mutating func startCounting() {
        guard counting == nil, let mailbox else { return }
        guard let doc = state.documents.indices.first(where: { state.documents[$0].countsWanted != nil }),
              let options = state.documents[doc].countsWanted else { return }
        counting = doc
        let content = state.documents[doc].content
        startThread(stackSize: 8 << 20) {
            let counts = content.backgroundRowCounts(of: 0..<content.unitCount, options: options)
            mailbox.post(.counted(doc: doc, options: options, counts: counts, content: content))
        }
    }

    /// Lets the reader of the current text stream read on when the view nears the end of
    /// what has arrived (a bounded read-ahead, as less).
    mutating func demandInput() {
        let index = state.current
        guard inputs.indices.contains(index), let reader = inputs[index].reader, !reader.finished,
              inputs[index].text != nil, state.help == nil else { return }
        let doc = state.documents[index]
        let rows = max(1, state.contentRows)
        if let stopped = inputs[index].stoppedAt {
            // Stopped by a key: reading starts again only on a new request (a move, `G`, `F`).
            if stopped == doc.viewport.position && !state.following && state.seeking == nil { return }
            inputs[index].stoppedAt = nil
        }
        // Read-ahead is counted from what is indexed, not from what is held: while `G` or `F`
        // reads on, the reader stays a bounded distance ahead of the lines taken in, so a key
        // that stops it leaves little behind to take in (less holds what it read, too).
        if state.following || state.seeking != nil || doc.top + 4 * rows >= doc.layout.rowCount {
            reader.demand(inputs[index].text?.indexedBytes ?? inputs[index].store.count)
        }
    }

    /// Records a file's size, inode and time (what `pollFiles` compares with).
    func noteFile(_ slot: inout InputSlot) {
        guard slot.doc < loaded.count, let path = loaded[slot.doc].path, slot.reader == nil else { return }
        var st = stat()
        guard FileName.stat(path, &st) == 0 else { return }
        slot.fileSize = Int(st.st_size)
        slot.fileInode = UInt(st.st_ino)
        slot.fileModified = st.st_mtim
        if slot.text != nil { slot.sample = FileSample(slot.store) }
    }

    /// A followed link's local file: switched to when it is open already, else read (a
    /// regular file only) and opened as Markdown or, by its name or first bytes, as text;
    /// a file whose first 8 KB hold a NUL is binary and not opened. It gets an input slot like
    /// the files on the command line, so it is watched (Markdown) and followed (`F`) too.
    mutating func openLinked(path: String, fragment: String?) -> [PagerEvent] {
        // (Errors name the file as `shortPath` does: `docs/x.md: No such file or directory`.)
        let canonical = FileName.realpath(path)
        if let canonical, let open = state.documents.first(where: { $0.path == canonical }) {
            // Open already: the pager switches to it (the spec only names it).
            let spec: DocumentSpec
            if let text = open.content as? TextContent {
                spec = DocumentSpec(name: open.name, path: canonical, text: text)
            } else if let document = open.document {
                spec = DocumentSpec(name: open.name, path: canonical, document: document)
            } else { return [] }
            saveCurrent()
            return [.linkedFileLoaded(spec: spec, fragment: fragment)]
        }
        // Regular files only: never a FIFO or a device (`Input.openFile`).
        switch Input.openFile(path, regularOnly: true) {
        case .failure(let error): return [.notice(Self.linkError(error, path: path))]
        case .success(let file): close(file.fd)
        }
        guard let mailbox else { return [] }
        let index = state.documents.count
        var kind = KindDetector.kind(forPath: path)
        var text: (doc: LoadedDocument, store: ByteStore)?
        if kind != .markdown {
            switch Input.openStream(path, forced: kind, mailbox: mailbox, doc: index) {
            case .failure(let error): return [.notice(Self.linkError(error, path: path))]
            case .success(let doc):
                guard let store = doc.store else { return [] }
                if store.bytes(0..<min(store.count, 8 << 10)).contains(0) {
                    return [.notice("Not a text file, not opened: \(EventLoop.displayName(doc))")]
                }
                kind = doc.kind
                text = (doc, store)
            }
        }
        var spec: DocumentSpec
        var doc: LoadedDocument
        var slot: InputSlot
        if let text, kind != .markdown {
            (doc, slot) = (text.doc, InputSlot(doc: index, store: text.store))
            doc.name = EventLoop.displayName(doc)
            let content = EventLoop.textContent(slot.store, tabWidth: tabWidth, ended: true)
            slot.text = content
            spec = DocumentSpec(name: doc.name, path: doc.path, text: content)
        } else {
            // Markdown by its name, or by its first bytes (then read a second time, whole).
            switch Input.load(path) {
            case .failure(let error): return [.notice(Self.linkError(error, path: path))]
            case .success(let d):
                doc = d
                spec = DocumentSpec(name: EventLoop.displayName(d), path: d.path, document: MarkdownParser.parse(d.bytes))
                slot = InputSlot(doc: index, store: ByteStore())
                slot.ended = true
            }
        }
        saveCurrent()
        shown.insert(index)  // restored below, not by .leftDocument
        // Slots follow the documents' indices (`inputs[i]` is document i's); a guard, as every
        // document opened gets its slot.
        while inputs.count < index { inputs.append(InputSlot(doc: inputs.count, store: ByteStore(), ended: true)) }
        loaded.append(doc)
        noteFile(&slot)
        inputs.append(slot)
        // Sent now: the saved position is looked up in the document as opened.
        send(.linkedFileLoaded(spec: spec, fragment: fragment))
        if fragment == nil, let m = restorePosition(state.current) { return [.notice(m)] }
        return []
    }

    /// The line model of a text input, its first MB indexed now for the first screens; the
    /// rest as it arrives (pipes) or in slices between keys (files). Every text document is
    /// opened this way: on the command line, by a link, again after `v`.
    static func textContent(_ store: ByteStore, tabWidth: Int, ended: Bool) -> TextContent {
        let content = TextContent(store: store, tabWidth: tabWidth)
        content.indexMore(limit: 1 << 20, inputEnded: ended)
        return content
    }

    /// A followed link's read error, naming the file relative to the working directory.
    static func linkError(_ error: InputError, path: String) -> String {
        guard case .cannotOpen(_, let reason) = error else { return error.description }
        return "\(shortPath(path)): \(reason)"
    }

    /// Follow (`F`) and watch: a followed text file that grew is attached again at its new length and its new
    /// lines taken in; truncated (or, with --follow-name, replaced) it starts over; a
    /// Markdown file that changed is reloaded in place.
    mutating func pollFiles() -> [PagerEffect] {
        var effects: [PagerEffect] = []
        let index = state.current
        guard inputs.indices.contains(index), index < loaded.count, let path = loaded[index].path,
              inputs[index].reader == nil, loaded[index].filter == nil else { return [] }
        var st = stat()
        guard FileName.stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return [] }
        let size = Int(st.st_size)
        let slot = inputs[index]
        let replaced = UInt(st.st_ino) != slot.fileInode
        let changed = size != slot.fileSize || st.st_mtim.tv_sec != slot.fileModified.tv_sec
            || st.st_mtim.tv_nsec != slot.fileModified.tv_nsec || replaced
        guard changed else { return [] }
        if let text = slot.text {
            // Followed, or shorter than what was read (`: > big.log`): reads past its end find nothing.
            guard state.following || size < slot.store.count else { return [] }
            if replaced && !followName { return [] }
            let fd = FileName.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            if size < slot.store.count || replaced {
                // Truncated or replaced: start over, as tail -f and less do.
                slot.store.reset()
                text.reset()
            }
            _ = slot.store.attachFile(fd: fd, length: size)
            text.indexMore(inputEnded: true)
            noteFile(&inputs[index])
            if size < slot.fileSize || replaced {
                let spec = DocumentSpec(name: state.documents[index].name, path: path, text: text)
                effects += apply(.documentReady(document: index, spec: spec, changedUnits: []))
            }
            effects += apply(.inputArrived(document: index))
            return effects
        }
        guard watch, state.documents[index].document != nil else { return [] }
        // A file emptied is most often one being written again (truncate, then write, by a
        // program slower than the poll): reloading it empty lost the reader's place, and the
        // whole file then came back at the top. It is taken as empty only once it has stayed
        // so for `emptyGrace` seconds; whatever it holds before then is reloaded as usual.
        if size == 0, slot.fileSize != 0 {
            let since = inputs[index].emptySince ?? clock.now()
            inputs[index].emptySince = since
            guard clock.now() - since >= EventLoop.emptyGrace else { return [] }
        }
        inputs[index].emptySince = nil
        noteFile(&inputs[index])
        reloadFile(index, path: path, markChanges: true)
        return effects
    }

    /// Seconds a watched Markdown file must stay empty before it is shown empty.
    static let emptyGrace: Double = 2

    /// Reloads Markdown document `index` from `path` keeping the same text on top (watch:
    /// `markChanges`, the blocks whose text changed get the margin cue). Large files are
    /// read and parsed on a thread (`Reload`); the rest at once.
    mutating func reloadFile(_ index: Int, path: String, markChanges: Bool) {
        let generation = (reloadGeneration[index] ?? 0) + 1
        reloadGeneration[index] = generation
        if let mailbox, Reload.isLarge(path: path) {
            Reload(doc: index, generation: generation, path: path, name: loaded[index].name,
                   options: state.layoutOptions(isText: false), old: state.documents[index].layout.content as? MarkdownContent,
                   markChanges: markChanges).start(mailbox: mailbox)
            return
        }
        switch Input.load(path) {
        case .success(var doc):
            doc.name = loaded[index].name
            reload(doc, index: index, markChanges: markChanges)
        case .failure(let error):
            if !markChanges { say(error.description) }  // watching: being written, the next look sees it whole
        }
    }

    /// A text document edited with `v` is read again as text (its kind stays: it was parsed
    /// as Markdown before) and placed by the position just saved, by the rules of reopening
    /// (the line with the same text nearest its old number), as less reads a file again
    /// after its editor.
    mutating func reopenText(_ index: Int, path: String) {
        guard let mailbox, let old = inputs[index].text else { return }
        positions.save(state: state, loaded: loaded, documentIndex: index)
        switch Input.openStream(path, forced: .text, mailbox: mailbox, doc: index) {
        case .failure(let error):
            say(error.description)
        case .success(var doc):
            guard let store = doc.store else { return }
            doc.name = loaded[index].name
            let content = EventLoop.textContent(store, tabWidth: old.tabWidth, ended: true)
            inputs[index].store = store
            inputs[index].text = content
            inputs[index].indexToEnd = false
            loaded[index] = doc
            positions.forgetCaches(documentIndex: index)
            noteFile(&inputs[index])
            let spec = DocumentSpec(name: state.documents[index].name, path: doc.path, text: content)
            send(.documentReady(document: index, spec: spec, changedUnits: []))
            _ = restorePosition(index, reopened: true)
        }
    }

    /// A reload made on a thread arrived: it replaces the document unless a newer reload
    /// started since.
    mutating func takeReload(_ result: Reload.Result, doc: Int) {
        guard reloadGeneration[doc] == result.generation, loaded.indices.contains(doc),
              state.documents.indices.contains(doc) else { return }
        let old = state.documents[doc]
        reload(result.loaded, index: doc, markChanges: result.markChanges,
               prepared: (result.spec, result.hash, result.facts, result.changedUnits))
        releaseElsewhere(consume old)
        HeapTrim.soon()
    }

    /// Lets go of a replaced document on another thread: the last release of a large parse
    /// frees millions of objects (~50 ms for 20 MB of Markdown), which keys must not wait
    /// for. (The caller hands over its only reference; the state holds none any more.)
    func releaseElsewhere(_ value: consuming DocumentState) {
        let box = ReleaseBox(value)
        DispatchQueue.global(qos: .utility).async { box.drop() }
    }
}

/// Holds a value until `drop` (on whichever thread calls it).
private final class ReleaseBox<T>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func drop() { value = nil }
}

// MARK: - The one way into the pager

extension EventLoop {
    /// The only call of the pager's `update` (issue 29: one place where the state changes):
    /// every key, reply, resize, arrival, parse, count, reload and notice comes through here.
    /// Returns the effects, for the caller to carry out: the loop after its batch of input,
    /// `send` at once.
    mutating func apply(_ event: PagerEvent) -> [PagerEffect] {
        state.update(event)
    }

    /// Sends `event` and carries out its effects now (depth first, each effect's answer
    /// before the next effect), for work that reads the state after it (a position restored
    /// into a document just opened). A `.quit` among them is ignored, as it always was away
    /// from the loop's batch.
    mutating func send(_ event: PagerEvent) {
        for effect in apply(event) { send(perform(effect)) }
    }

    mutating func send(_ events: [PagerEvent]) {
        for event in events { send(event) }
    }

    /// Sends an event that only places (a saved position, a reload, the history): it has no
    /// effects to carry out, and this says so instead of dropping any.
    mutating func place(_ event: PagerEvent) {
        let effects = apply(event)
        assert(effects.isEmpty, "placing a position, a reload or the history has no effects")
    }

    /// Places document `index` at its saved position, if it has one (`PositionsBridge.placement`);
    /// returns what to say of it.
    mutating func restorePosition(_ index: Int, deferStreams: Bool = true, reopened: Bool = false) -> String? {
        guard let placement = positions.placement(in: state, loaded: loaded, documentIndex: index,
                                                  deferStreams: deferStreams, reopened: reopened) else { return nil }
        place(placement.event)
        return placement.message(state)
    }

    /// Replaces document `index` with `document`, the reader kept on the same text
    /// (`PositionsBridge.reload`: the new version, then the places found in it).
    mutating func reload(_ document: LoadedDocument, index: Int, markChanges: Bool,
                         prepared: (spec: DocumentSpec, hash: StableHash, facts: DocumentFacts, changedUnits: Set<Int>)? = nil) {
        guard let reload = positions.reload(document, in: state, loaded: &loaded, index: index, markChanges: markChanges,
                                            prepared: prepared) else { return }
        place(reload.reloaded)
        place(reload.placing(state, loaded))
    }

    /// The saved search history into the session, once.
    mutating func loadHistory() {
        guard let event = positions.loadHistory() else { return }
        place(event)
        positions.historyLoaded(count: state.searchHistory.count)
    }
}
