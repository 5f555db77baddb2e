import ByteInput
import LineLayout
import MarkdownModel
import Pager
import Print
import TerminalIO
import TerminalScreen
import TextModel
import TextSearch
import Threads
import Viewport
#if canImport(Glibc)
import Glibc
#endif

extension Launch {
    /// The pager's configuration from the command line.
    /// `tmuxKitty`: pictures through tmux as kitty's placeholders (`Pictures.tmuxKitty`).
    func pagerConfig(environment: [String: String], tmuxKitty: Bool = false) -> PagerConfig {
        var config = PagerConfig()
        // Layout and row counts off the loop on every core, below the loop's priority.
        config.executor = .machine
        if let z = options.window {
            config.pageStep = z < 0 ? .screenMinus(-z) : .rows(z)
        } else if let o = options.overlap {
            config.pageStep = .overlap(max(0, o))
        }
        config.scrollbar = options.scrollbar.map { $0 ? .always : .never } ?? .auto
        let theme = theme(forTerminal: true, environment: environment) ?? Theme(depth: .none, hyperlinks: false)
        config.theme = theme
        config.themeChoice = options.theme
        config.queriesTerminal = options.theme == .auto && AppearanceDetection.shouldQuery(
            term: environment["TERM"], insideTmux: !(environment["TMUX"] ?? "").isEmpty, depth: theme.addsColour ? theme.depth : .none)
        config.inlineLinkURLs = options.plain
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count - 1) == 0 {
            config.hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        options.configureReading(&config)
        config.secure = environment["LESSSECURE"] == "1"  // less's secure mode: no shell, no other files
        config.literalSearch = options.literal
        config.mouse = options.mouse
        config.chopLongLines = options.chopLongLines
        config.lineNumbers = options.lineNumbers
        config.maxProseWidth = options.proseWidth
        config.centerProse = options.align == .center
        config.pictures = Pictures.show(mode: options.images, addsColour: theme.addsColour, deferred: true,
                                        screenRows: TerminalSize.ofTerminal()?.rows ?? 24,
                                        tmuxKitty: tmuxKitty && theme.depth >= .palette256)
        return config
    }

    func runInteractive(_ loadedIn: [LoadedDocument], startCommand: StartCommand?,
                        environment: [String: String], errors: [String], mailbox: any Mailbox) throws -> Int32 {
        var loaded = loadedIn
        let hadErrors = !errors.isEmpty
        BackgroundPriority.enable()  // parses and layouts off the loop yield to it
        let tmux = Pictures.tmuxKitty(mode: options.images, environment: environment)
        let config = pagerConfig(environment: environment, tmuxKitty: tmux.use)
        // The early parse makes the pager's state of the preview too (one document).
        earlyPreview?.prepare(TerminalSize.ofTerminal().flatMap { screen in
            loaded.count == 1 ? .init(config: config, rows: screen.rows, columns: screen.columns,
                                      name: loaded[0].name, path: loaded[0].path) : nil
        })
        let positions = PositionsBridge(environment: environment, enabled: true)
        positions.policy = options.restore
        let restoring = options.restore != .never && startCommand == nil

        // -F: an input that fits on one screen is printed and folio exits, as less -F does
        // (a stream is read until it is clearly more than a screen, or ends).
        if options.quitIfOneScreen, loaded.count == 1, let size = TerminalSize.ofTerminal() {
            if let reader = loaded[0].reader, !reader.finished {
                _ = reader.readSynchronously(maxBytes: max(64 << 10, 4 * size.rows * size.columns))
                if reader.finished { Launch.finishReading(&loaded[0]) }
            }
            if loaded[0].reader == nil || loaded[0].reader!.finished {
                if loaded[0].kind == .markdown { Launch.finishReading(&loaded[0]) }
                // Printed exactly as print mode prints to a terminal.
                let printTheme = theme(forTerminal: true, environment: environment)
                var layoutOptions = LayoutOptions(width: size.columns, inlineLinkURLs: printTheme == nil,
                                                  maxProseWidth: options.proseWidth, centerProse: options.align == .center,
                                                  highlighter: Launch.codeHighlighter(theme: printTheme, deferred: false),
                                                  markInlineCode: !(printTheme?.addsColour ?? false),
                                                  executor: .machine.foreground)
                var layout: DocumentLayout
                if loaded[0].kind == .text, let store = loaded[0].store {
                    let content = TextContent.whole(store, tabWidth: options.tabs ?? 8)
                    layoutOptions.chopLongLines = options.chopLongLines
                    layout = DocumentLayout(content: content, options: layoutOptions)
                } else {
                    layout = DocumentLayout(document: MarkdownParser.parse(loaded[0].bytes, options: ParseOptions(executor: .machine.foreground)).document,
                                            options: layoutOptions)
                }
                // Text counts start as estimates from byte lengths: lay out the first screen's
                // worth so the fit is decided on real rows.
                layout.prepare(aroundUnit: 0, before: 0, after: size.rows)
                if layout.rowCount <= size.rows - 1 {
                    let asked = theme(forTerminal: true, environment: environment, asking: true)
                    writeAll(fd: 1, PrintRenderer.render(layout, theme: asked))
                    return hadErrors ? 1 : 0
                }
            }
        }

        // The terminal first: with --theme=auto its answer to the colour query comes back while
        // the documents are parsed below, so the first frame hardly waits for it.
        let session: TerminalSession
        do {
            session = try TerminalSession(options: TerminalOptions(
                alternateScreen: !options.noInit, mouse: options.mouse ? .full : .alternateScroll,
                queryColors: config.queriesTerminal, queryGraphics: options.images == .auto && config.pictures != nil
                    && config.pictures?.mode != .kittyPlaceholders))
        } catch {
            reportError("cannot use the terminal: \(error)")
            return 1
        }
        defer { session.restore() }
        let queried = SystemClock().now()
        CrashReport.crashIfAsked(at: "pager", environment: environment)
        signal(SIGCHLD, SIG_IGN)  // browsers we start are reaped by the kernel

        // A stream that has not written yet: its kind is decided once it does, the terminal
        // saying meanwhile that folio waits (`q` quits).
        for i in loaded.indices where loaded[i].kindPendingFD != nil {
            switch WaitForKind.wait(for: &loaded[i], terminal: session, config: config) {
            case .ready: continue
            case .quit: return hadErrors ? 1 : 0
            case .signal(let signal): session.restore(); session.exit(dueTo: signal)
            }
        }
        // A file that looks binary is shown only if the reader says so (less's question).
        var replies: [TerminalReply] = []
        if !options.force {
            switch BinaryQuestion.ask(&loaded, terminal: session, config: config) {
            case .answered(let r): replies = r
            case .signal(let signal): session.restore(); session.exit(dueTo: signal)
            }
            if loaded.isEmpty { return 1 }
        }

        // A large Markdown file shows its first screen from a parse of its beginning; the full
        // parse runs on another thread (see EventLoop). One with a saved position opens at the
        // top too and moves there when the full parse is in (about 1 s for 20 MB), unless a
        // key moved the view first: the first screen never waits for the parse, nor for the
        // content hash that finds the position (~0.1 s for 100 MB, made with the parse).
        let preview = Launch.opensFromPreview(loaded[0], quitIfOneScreen: options.quitIfOneScreen, startCommand: startCommand)
        for i in loaded.indices where loaded[i].kind == .markdown && loaded[i].reader == nil && !(preview && i == 0) {
            Launch.finishReading(&loaded[i])
        }
        var inputs: [DocumentInput] = []
        var specs: [DocumentSpec] = []
        for (i, doc) in loaded.enumerated() {
            var slot = DocumentInput(doc: i, phase: doc.reader == nil ? .complete : .streaming, source: doc,
                                     store: doc.store ?? ByteStore(), reader: doc.reader)
            slot.shown = i == 0  // (the others are restored when first shown: `.leftDocument`)
            switch doc.kind {
            case .text:
                slot.openText(tabWidth: options.tabs ?? 8, ended: doc.reader == nil || doc.reader!.finished)
                slot.settleTextFile()
                specs.append(DocumentSpec(name: Launch.displayName(doc, environment: environment), path: doc.path,
                                          text: slot.text!))
            case .markdown:
                if let reader = doc.reader {
                    // A Markdown stream: what has arrived now, the rest parsed as it comes.
                    let bytes = slot.store.bytes(0..<slot.store.count)
                    slot.parser = ParseWorker(doc: i, store: slot.store, mailbox: mailbox, alreadyParsed: bytes.count)
                    specs.append(DocumentSpec(name: Launch.displayName(doc, environment: environment), path: doc.path,
                                              document: MarkdownParser.parse(bytes).document, isPreview: !reader.finished))
                } else if preview && i == 0 {
                    slot.phase = .preview  // (its spec is the preview's, made below)
                    specs.append(DocumentSpec(name: doc.name, path: doc.path, document: MarkdownParser.parse([]).document,
                                              isPreview: true))
                } else {
                    specs.append(DocumentSpec(name: doc.name, path: doc.path, document: MarkdownParser.parse(doc.bytes).document))
                }
            }
            inputs.append(slot)
        }

        let size = session.size()
        func pagerState() -> PagerState { PagerState(documents: specs, config: config, rows: size.rows, columns: size.columns) }
        var state: PagerState?
        if preview {
            // The preview, parsed again from more while it does not fill the screen.
            // (The early parse's state when it made one of this prefix, for this screen.)
            let prefix = Launch.previewPrefix(inputs[0].store, screen: size) { prefix in
                let early = specs.count == 1 ? earlyPreview?.state(prefix: prefix, rows: size.rows, columns: size.columns,
                                                                   name: loaded[0].name, path: loaded[0].path) : nil
                let made = early ?? {
                    let document = earlyPreview?.document(prefix: prefix)
                        ?? MarkdownParser.parse(Launch.previewSource(prefix, store: inputs[0].store)).document
                    specs[0] = Launch.previewSpec(name: loaded[0].name, path: loaded[0].path, document: document,
                                                  prefix: prefix, store: inputs[0].store)
                    return pagerState()
                }()
                state = made
                return made.active.layout.rowCount >= made.contentRows
            }
            inputs[0].parser = ParseWorker(doc: 0, store: inputs[0].store, mailbox: mailbox, alreadyParsed: prefix.count)
        }
        var loop = EventLoop(terminal: session, state: state ?? pagerState(), positions: positions, inputs: inputs)
        // What the pager hears before the first frame, in this order, through the loop (the
        // one caller of `update`); their effects are carried out once it runs.
        var restoreMessage: String?
        if restoring && !preview {
            restoreMessage = loop.restorePosition(0)
        }
        // (The terminal's colours, if they came while a question was asked.)
        var startEffects: [PagerEffect] = replies.flatMap { loop.apply(.terminalReply($0)) }
        if let startCommand {
            // A `+/pattern` joins the session's history after the saved searches, which must
            // be in first (else afterwards, with the first frame).
            loop.loadHistory()
            startEffects = loop.apply(.start(startCommand))
        }
        var notices: [String] = []
        if let restoreMessage, loop.state.message == nil { notices.append(restoreMessage) }
        if let w = positions.warning { notices.append(w) }
        if let w = optionWarnings.first {
            notices.append(w + (optionWarnings.count > 1 ? " (and \(optionWarnings.count - 1) more)" : ""))
        }
        // Files that could not be read were reported on stderr, which the pager's screen
        // hides: say it on the status line too, as less does.
        if let first = errors.first {
            notices.append(first + (errors.count > 1 ? " (and \(errors.count - 1) more)" : ""))
        } else if let notice = loaded.first?.notice {
            notices.append(notice)
        }
        if let notice = tmux.notice, config.pictures != nil, notices.isEmpty { notices.append(notice) }
        for notice in notices { startEffects += loop.apply(.notice(notice)) }

        loop.queried = queried
        if session.options.queryGraphics { loop.graphicsAnswers = GraphicsAnswers() }
        loop.restoreOnFirstShow = options.restore != .never
        loop.mailbox = mailbox
        loop.watch = !options.noWatch
        loop.tabWidth = options.tabs ?? 8
        loop.startEffects = startEffects
        if preview && restoring { loop.inputs[0].restoreWhenComplete = true }
        loop.followName = options.followName
        // Highlighting joins after the first frame (`.highlighterReady`): the first screen
        // never waits for the grammars to be looked for (~0.4 ms), nor for one to load and
        // its query to compile (~15 ms for bash).
        // So does the search history: the whole store is decoded for it (~20 ms for a full
        // store of 1,000 documents), which no first screen needs.
        let theme = config.theme
        loop.afterFirstFrame = {
            Launch.codeHighlighter(theme: theme, deferred: true).map { [.highlighterReady($0)] } ?? []
        }
        specs = []  // the pager owns the documents now
        let ending = loop.run(hadErrors: hadErrors)
        session.restore()
        // The status line is gone (and cut long paths): what happened to the store, and a
        // position that could not be saved, are said here in full.
        for line in positions.reportAtExit { reportError(line) }
        switch ending {
        case .quit(let status):
            return status
        case .signal(let signal):
            // The one place the pager ends the process: as the signal would have, so the
            // parent sees the right status.
            session.exit(dueTo: signal)
        }
    }

}

extension Launch {
    /// Documents larger than this open from a preview of their beginning (bytes). Defined in
    /// C, where the thread started before `main` for the preview's parse reads it too.
    static let previewThreshold = EarlyThread.minimumFileSize

    /// Whether `doc`, the first document, opens from a preview: a Markdown file (not a
    /// stream) over `previewThreshold`, shown in the pager with no start command.
    static func opensFromPreview(_ doc: LoadedDocument, quitIfOneScreen: Bool, startCommand: StartCommand?) -> Bool {
        !quitIfOneScreen && startCommand == nil && doc.kind == .markdown && doc.reader == nil
            && (doc.store?.count ?? doc.bytes.count) > previewThreshold
    }

    /// The most a first preview takes: 1.5 bytes of source per cell of the screen, at least
    /// 4 KB. Prose fills a 100x30 screen more than once with its 4.5 KB, and so do a
    /// changelog of links and a document of tables.
    static func previewSize(screen: (rows: Int, columns: Int)) -> Int {
        max(4 << 10, min(previewMaximum, 3 * screen.rows * screen.columns / 2))
    }

    static let previewMaximum = 64 << 10

    /// The first preview: the beginning of the document that lays out to about one and a half
    /// screens by `PrefixCut`'s estimate, at most `previewSize`, cut at the first blank line
    /// after that. Parsing and laying out the preview is most of the first screen's own work,
    /// so it is sized by what the screen shows: 1.8 KB of a document opening with headings
    /// and short paragraphs, not 4.5 KB (docs/benchmarks.md, "Start-up": 8 bytes a cell,
    /// then 2, then 1.5, then this). Paging past the preview before the full parse is in
    /// (about 1 s for 20 MB) shows its end for that moment.
    static func previewPrefix(_ store: ByteStore, screen: (rows: Int, columns: Int)) -> [UInt8] {
        let most = previewSize(screen: screen)
        let head = store.bytes(0..<min(store.count, most))
        let size = head.withUnsafeBufferPointer {
            PrefixCut.end(estimatingRows: 3 * screen.rows / 2, width: screen.columns, in: $0)
        }
        return previewPrefix(store, atLeast: size)
    }

    /// What a preview parses: its bytes, then, for a document of `previewDefinitionsFrom` bytes
    /// or more, the link reference definitions of its last `previewDefinitionsTail` bytes
    /// (`PrefixCut.definitions`), which a document often keeps at its end: its first screen
    /// shows those links, not their brackets until the full parse comes in. (A definition
    /// elsewhere is not seen, nor are footnotes: their brackets show for that moment; nor are
    /// any when the preview ends inside fenced code, where they would show as code.) A
    /// smaller document's full parse comes in within a frame or two (15 ms for 262 KB), while
    /// reading and scanning its end would delay its first screen by about 0.1 ms.
    static func previewSource(_ prefix: [UInt8], store: ByteStore) -> [UInt8] {
        let count = store.count
        guard count > prefix.count, count >= previewDefinitionsFrom, !PrefixCut.endsInFence(prefix) else { return prefix }
        let definitions = PrefixCut.definitions(in: store.sample(max(prefix.count, count - previewDefinitionsTail)..<count))
        guard !definitions.isEmpty else { return prefix }
        return prefix + (prefix.last == 0x0A ? [0x0A] : [0x0A, 0x0A]) + definitions
    }

    /// The spec of a preview of `prefix`, the beginning of `store`: what the launch and the
    /// early parse both make (the early state is taken only if it is the launch's own).
    static func previewSpec(name: String, path: String?, document: Document, prefix: [UInt8], store: ByteStore) -> DocumentSpec {
        var spec = DocumentSpec(name: name, path: path, document: document, isPreview: true)
        spec.previewShare = Double(prefix.count) / Double(max(1, store.count))
        return spec
    }

    static let previewDefinitionsTail = 32 << 10
    static let previewDefinitionsFrom = 1 << 20

    /// The preview's bytes: the first preview (`previewPrefix(_:screen:)`), then while `fills`
    /// says it does not fill the screen, from `previewSize` and then four times as much at a
    /// time (up to `previewMaximum`, or the whole store). `fills` sees every prefix tried;
    /// the last one is returned.
    static func previewPrefix(_ store: ByteStore, screen: (rows: Int, columns: Int), fills: ([UInt8]) -> Bool) -> [UInt8] {
        var prefix = previewPrefix(store, screen: screen)
        var size = previewSize(screen: screen)
        while !fills(prefix) && prefix.count < store.count && prefix.count < previewMaximum {
            while size <= prefix.count && size < previewMaximum { size = min(previewMaximum, size * 4) }
            // (A cut at a character boundary may fall short of `size`: only a longer one is new.)
            let longer = previewPrefix(store, atLeast: size)
            guard longer.count > prefix.count else { break }
            prefix = longer
        }
        return prefix
    }

    /// The beginning of a large document for its preview, cut at the first blank line after
    /// `atLeast` bytes. Only what the cut needs is copied from the store: `atLeast` and 16 KB
    /// more, then (no blank line there) four times as much at a time up to the first MB.
    /// When that holds no blank line (one giant list or paragraph) the cut is the first line
    /// end after `atLeast`, else a character boundary there: a 100 MB paragraph waited for
    /// its whole parse (seconds, and gigabytes) before its first screen.
    static func previewPrefix(_ store: ByteStore, atLeast: Int) -> [UInt8] {
        let count = store.count
        var copied = min(count, atLeast + (16 << 10))
        var head = store.bytes(0..<copied)
        while true {
            if let cut = PrefixCut.first(in: head, atOrAfter: atLeast) {
                head.removeSubrange(cut...)
                return head
            }
            if head.count == count || copied >= 1 << 20 || head.count < copied { break }
            copied = min(count, 1 << 20, copied * 4)
            head = store.bytes(0..<copied)
        }
        if head.count == count { return head }
        if let lineEnd = head[min(atLeast, head.count)...].firstIndex(of: 0x0A) {
            head.removeSubrange((lineEnd + 1)...)
            return head
        }
        var cut = min(atLeast, head.count)
        while cut > 0 && cut < head.count && head[cut] & 0xC0 == 0x80 { cut -= 1 }
        head.removeSubrange(cut...)
        return head
    }
}

extension Launch {
    /// The name the status line shows: `man` passes the page's name in `MAN_PN` (`ls(1)`)
    /// for the text it pipes in; otherwise the argument as given, `stdin` for a pipe.
    static func displayName(_ doc: LoadedDocument, environment: [String: String]) -> String {
        if doc.path == nil, let page = environment["MAN_PN"], !page.isEmpty {
            return String(page.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200).map(Character.init))
        }
        return doc.name
    }
}

/// The first parse of a large Markdown file's preview, started on its own thread (at the
/// loop's priority, on another core: the loop waits for it) at the very start of `main`,
/// before the options are read, for the first argument that names a Markdown file over
/// `Launch.previewThreshold` (by its extension, as `KindDetector` reads names). The thread is
/// the one the process started before `main` by the same rule (`EarlyThread`, a C
/// constructor: a test holds the two rules together), or a new one. The parse runs beside
/// reading the options, opening the files and setting up the terminal, which took about as
/// long as the parse (docs/benchmarks.md, "Start-up"). The guess is checked by content: the
/// preview takes the early document only if it parsed the very bytes the preview is made of
/// (a file dropped at the binary question, decompressed or filtered by LESSOPEN, another
/// document first, a screen resized meanwhile, a preview grown: the preview parses its own).
/// Started only for a pager (standard output a terminal) with another core to run it on.
public final class EarlyPreview: Sendable {
    /// What the pager will be made for, once the options are read (`prepare`): with it, the
    /// thread also makes the pager's state of the preview, its layout included, which took the
    /// main thread about as long as the parse.
    struct Target: Sendable {
        let config: PagerConfig
        let rows: Int, columns: Int
        let name: String, path: String?
    }

    private struct Parsed: Sendable {
        let prefix: [UInt8]
        let document: Document
        let state: PagerState?
        let madeFor: Target?
    }

    /// What the launch said it wants once it knew (`prepare`): the thread waits for it after
    /// the parse, which usually ends first.
    private enum Wanted: Sendable { case notSaidYet, said(Target?) }
    private let wanted = Conditioned<Wanted>(.notSaidYet)
    private enum Outcome: Sendable { case pending, none, parsed(Parsed) }
    private let result = Conditioned<Outcome>(.pending)

    private init() {}

    /// Says what the pager will be (nil: no state wanted, only the document). Called once the
    /// options are read, before anything waits for the result: the thread waits for it.
    func prepare(_ target: Target?) { wanted.withLock { $0 = .said(target) } }

    /// Starts the parse for the first argument of the command line (`argv`, the program first)
    /// that names a large Markdown file; nil when none does. The arguments are read as the
    /// bytes they are, before anything else in `main`, so that the thread starts 0.2 ms sooner
    /// than after the first use of the standard library's strings and sets.
    public static func start(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> EarlyPreview? {
        // The thread started before `main` chose the argument by this very rule (a test holds
        // the two together), after the same checks: it is handed the parse at once, and reads
        // the screen's size itself. (Checking again here took 0.12 ms before it could start.)
        defer { EarlyThread.letGo() }  // (the thread started before `main`, when it is not used)
        if let chosen = EarlyThread.startedFor {
            return start(path: chosen.path, fileSize: chosen.size, screen: TerminalSize.ofTerminal)
        }
        guard isatty(1) == 1, Platform.processorCount > 1, let screen = TerminalSize.ofTerminal() else { return nil }
        for i in 1..<max(1, Int(argc)) {
            guard let argument = argv[i] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(argument))
            if isCandidate(bytes) { return start(path: Array(bytes), screen: screen) }
        }
        return nil
    }

    /// `start(argc:argv:)` for these arguments (the command line without the program, in
    /// `FileName`'s form) and a screen of `screen` cells, wherever standard output goes.
    static func start(guessing arguments: [String], screen: (rows: Int, columns: Int)) -> EarlyPreview? {
        guard let path = arguments.lazy.map(FileName.bytes).first(where: { $0.withUnsafeBufferPointer(isCandidate) })
        else { return nil }
        return start(path: path, screen: screen)
    }

    /// An argument that is not an option (`-x`) or a command (`+cmd`), named like Markdown.
    private static func isCandidate(_ argument: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = argument.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+") else { return false }
        return KindDetector.namesMarkdown(argument)
    }

    /// The parse of the file at `path` (its bytes), if it is a regular file over the threshold.
    private static func start(path: [UInt8], screen: (rows: Int, columns: Int)) -> EarlyPreview? {
        var info = stat()
        guard stat(path.map { CChar(bitPattern: $0) } + [0], &info) == 0, info.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return start(path: path, fileSize: Int(info.st_size), screen: { screen })
    }

    /// The parse of the file at `path` (its bytes) of `fileSize` bytes, if over the threshold,
    /// for the screen `screen` gives on the parse's thread (none: nothing is parsed).
    private static func start(path: [UInt8], fileSize: Int, screen: @escaping @Sendable () -> (rows: Int, columns: Int)?)
        -> EarlyPreview? {
        guard fileSize > Launch.previewThreshold else { return nil }
        let early = EarlyPreview()
        let parse: @Sendable () -> Void = {
            guard let screen = screen() else {
                early.result.withLock { $0 = .none }
                return
            }
            // (Read as the launch reads it: a store of the file, the same prefix rule.)
            let cPath = path.map { CChar(bitPattern: $0) } + [0]
            let store = ByteStore()
            let fd = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            if fd >= 0 { _ = store.attachFile(fd: fd, length: fileSize); close(fd) }
            let prefix = Launch.previewPrefix(store, screen: screen)
            let document = MarkdownParser.parse(Launch.previewSource(prefix, store: store)).document
            early.wanted.wait { if case .said = $0 { true } else { false } }
            let wanted: Target? = early.wanted.withLock { if case .said(let p) = $0 { p } else { nil } }
            let state = wanted.map { w in
                PagerState(documents: [Launch.previewSpec(name: w.name, path: w.path, document: document, prefix: prefix, store: store)],
                           config: w.config, rows: w.rows, columns: w.columns)
            }
            early.result.withLock { $0 = .parsed(Parsed(prefix: prefix, document: document, state: state, madeFor: wanted)) }
        }
        // On the thread started before `main` for this (same rule, same threshold), if there is one.
        if !EarlyThread.run(parse) { startThread(stackSize: 8 << 20, background: false, parse) }
        return early
    }

    /// The early parse's document (waited for) if it parsed exactly `prefix`.
    func document(prefix: [UInt8]) -> Document? {
        parsed(prefix: prefix)?.document
    }

    /// The pager's state of the preview (waited for) if it was made from exactly `prefix`
    /// for a screen of `rows` by `columns` and the document named so (the configuration is
    /// the one `prepare` was given: the caller's own).
    func state(prefix: [UInt8], rows: Int, columns: Int, name: String, path: String?) -> PagerState? {
        guard let parsed = parsed(prefix: prefix), let made = parsed.madeFor,
              made.rows == rows, made.columns == columns, made.name == name, made.path == path else { return nil }
        return parsed.state
    }

    private func parsed(prefix: [UInt8]) -> Parsed? {
        result.wait { if case .pending = $0 { false } else { true } }
        return result.withLock { if case .parsed(let p) = $0, p.prefix == prefix { p } else { nil } }
    }
}
