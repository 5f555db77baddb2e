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

/// The interactive loop, one turn per batch of input: wait (terminal, mailbox, clock) →
/// decode → events → `update` → effects → perform → events → draw. It is the only caller of
/// the pager's `update` (`apply`, EventLoop+Update.swift); what it performs answers with
/// events (`perform`), and outside results reach it as deliveries (`Mailbox`). All effects on
/// the world live here and in the files beside it, one concern each.
///
/// The terminal is `any TerminalBackend`, not a generic parameter: the loop calls it once or
/// twice per batch of input (a poll, a write), so dynamic dispatch costs nothing measurable,
/// and an existential keeps `DocumentInput` and the extensions free of a type parameter
/// that only tests would ever vary (`FakeTerminal` in RunLoopTests).
///
/// The loop never ends the process: `run` returns how it ended (`Ending`), the terminal
/// restored and the positions saved, and the caller exits (for a signal, with its status).
struct EventLoop {
    let terminal: any TerminalBackend
    var state: PagerState
    let positions: PositionsBridge
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
    /// Restore saved positions of documents when first shown (off with --no-restore).
    var restoreOnFirstShow = true
    /// Wakes the loop when reader threads or the parse worker have something.
    var mailbox: (any Mailbox)?
    /// Each document's input (`DocumentInput`: its bytes, reader, line index or parse worker,
    /// file identity and phase); `inputs[i]` is document i's.
    var inputs: [DocumentInput] = []
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
    /// The document whose rows a thread is counting (see `startCounting`).
    var counting: Int?
    /// The thread highlighting code blocks the layout asked for.
    var syntaxJobs = SyntaxJobs()
    var pictureJobs = PictureJobs()
    /// Pictures drawn with a graphics protocol (`PictureMode` other than blocks).
    var graphics = GraphicsOverlay()
    /// The terminal was asked whether it has graphics (`--images=auto`): its answers so far.
    var graphicsAnswers: GraphicsAnswers? = nil

    init(terminal: any TerminalBackend, state: PagerState, positions: PositionsBridge, inputs: [DocumentInput]) {
        self.terminal = terminal
        self.state = state
        self.positions = positions
        self.inputs = inputs
    }

    /// The documents as they were opened, one per input (what `PositionsBridge` reads).
    var loaded: [LoadedDocument] { inputs.map(\.source) }

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
        if terminal.options.asks { replyExpectedSince = started }
        startEffects = try waitForTerminalReply() + startEffects
        try draw()
        // Readers start once the first screen is out: on a busy machine, a thread reading
        // 4 MB ahead (and the writer it wakes) would compete with that screen for the CPU.
        for slot in inputs { slot.reader?.start() }
        // A pipe with a saved position: read on to it, then place it (now, if it is in).
        // (Only where the document resumes: reading a command's output on to an old place just
        // to offer it would read what nobody asked for.)
        for i in inputs.indices where restoreOnFirstShow && inputs[i].isText && positions.restoreMode(loaded, i) == .resume {
            if let reader = inputs[i].reader, let need = positions.bytesToRestore(loaded: loaded, documentIndex: i) {
                inputs[i].restoreAtBytes = need
                reader.demand(need)
                restorePending(i)
            }
        }
        // A large file shown from a preview of its beginning: its full parse (which uses every
        // core) starts once the first screen is out, so that screen never waits for it.
        for i in inputs.indices where inputs[i].phase == .preview {
            inputs[i].phase = .parsing
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
                    releasePictures()
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
            syntaxJobs.start(content: state.active.layout.content,
                             highlighter: state.config.highlighter, mailbox: mailbox)
            // Images the frame laid out as their captions.
            pictureJobs.start(content: state.active.layout.content,
                              show: state.config.pictures, directory: documentDirectory(state.current),
                              mailbox: mailbox)

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
                        effects += apply(.resize(rows: size.rows, columns: size.columns)) + picturesFollowTheCell()
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

    /// Milliseconds after the colour query (`--theme=auto`) that the first frame waits for
    /// the answer at most. A terminal on this machine answers in a millisecond or two, and one
    /// that does not know OSC 11 answers DA1 as fast; the deadline is for a terminal that
    /// answers nothing at all, so that the first screen still comes within ~50 ms. An answer
    /// slower than this (a long ssh hop) re-themes the screen when it comes.
    /// (A variable so tests on a busy machine do not miss it before their first answer.)
    var replyDeadline = 25
    /// When the colour query went out (`clock` seconds; nil: when the loop starts).
    var queried: Double?

    /// When the colour query was last sent (start, resume, back from the editor; `clock`
    /// seconds), until its DA1 reply arrives; nil when no reply is expected.
    var replyExpectedSince: Double?

    /// Frees the images sent through tmux (before the terminal is restored).
    mutating func releasePictures() {
        guard let mode = state.config.pictures?.mode else { return }
        let bytes = graphics.releaseBytes(mode: mode)
        if !bytes.isEmpty { try? terminal.write(bytes) }
    }

    /// Draws one frame; a terminal that cannot be written to has gone away, which ends
    /// folio as SIGHUP does.
    mutating func draw() throws(Leaving) {
        let grid = state.frame()
        var trailer: [UInt8] = []
        if let show = state.config.pictures, show.mode != .blocks {
            // Pictures over their blank rows, in the frame's write.
            let placements = state.picturePlacements()
            let repaint = graphics.needsRepaint(placements, mode: show.mode)
            if repaint { renderer.invalidate() }
            let fresh = renderer.previous.map { $0.rows != grid.rows || $0.columns != grid.columns } ?? true
            trailer = graphics.bytes(for: placements, mode: show.mode, show: show,
                                     directory: documentDirectory(state.current),
                                     repainted: repaint || fresh)
        }
        let bytes = renderer.render(grid, depth: state.config.theme.depth, scrollRows: 0..<state.contentRows, trailer: trailer)
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
        releasePictures()
        terminal.restore()
        CrashReport.hangIfAsked(at: "exit")
        saveAll()
        return Leaving(signal: signal)
    }
}
