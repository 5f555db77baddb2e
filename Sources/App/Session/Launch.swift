import LessOptions
import LineLayout
import MarkdownModel
import Pager
import Print
import TerminalIO
import TerminalScreen
import TextModel
#if canImport(Glibc)
import Glibc
#endif

/// One run of folio as the command line asked for it: opens the documents, then prints them
/// (print mode) or pages them (`runInteractive`: the event loop over the terminal).
public struct Launch {
    /// What `$LESS`, `$FOLIO` and the command line asked for (`Invocation`).
    var options: Options
    /// What was wrong in `$LESS` or `$FOLIO`: said on standard error and, in the pager, on
    /// the status line; the rest of the options still apply.
    var optionWarnings: [String] = []
    /// The options of each kind (the config file's `[markdown]` and `[text]` sections).
    var sections: Invocation?
    /// The user's theme files (`--theme=NAME`, `--dark-theme`, `--light-theme`).
    var themes = UserThemes()
    /// What was wrong in the key files: said when the pager starts (print mode reads no keys).
    var keyWarnings: [String] = []
    /// The first document's preview, parsed from the start (`EarlyPreview`), if it was guessed.
    public var earlyPreview: EarlyPreview?

    public init(options: Options, optionWarnings: [String], sections: Invocation? = nil, keyWarnings: [String] = []) {
        self.options = options
        self.optionWarnings = optionWarnings
        self.sections = sections
        self.keyWarnings = keyWarnings
    }

    /// The command in `+cmd` (`+N`, `+Ng`, `+/pattern`, `+G`, `+F`) or `-p`'s pattern; nil
    /// (and a warning) for a command folio does not run at the start.
    static func startCommand(_ request: StartRequest) -> StartCommand? {
        switch request {
        case .pattern(let p): return .search(FileName.text(p))
        case .command(let text):
            if text.hasPrefix("/") { return .search(FileName.text(String(text.dropFirst()))) }
            if text == "G" || text == ">" { return .end }
            if text == "F" { return .follow }
            let digits = text.last == "g" || text.last == "G" ? text.dropLast() : text[...]
            if let n = Int(digits), n >= 0 { return .line(n) }
            return nil
        }
    }

    /// Runs folio; returns the exit status.
    public mutating func run() -> Int32 {
        let environment = ProcessEnvironment.current
        CrashReport.crashIfAsked(at: "start", environment: environment)
        var arguments = options.files
        var startCommand: StartCommand?
        if let request = options.start {
            startCommand = Launch.startCommand(request)
            if startCommand == nil, case .command(let text) = request {
                let warning = "+\(text): folio runs +N, +/pattern, +G and +F at the start"
                reportError(warning)
                optionWarnings.append(warning)
            }
        }

        let stdinIsTerminal = isatty(0) == 1
        let generalOptions = options
        let stdoutIsTerminal = isatty(1) == 1
        if arguments.isEmpty {
            if stdinIsTerminal {
                reportError("missing filename (\"folio --help\" for help)")
                return 2
            }
            arguments = ["-"]
        }

        // Open every document; report the ones that cannot be read and go on with the rest.
        // Pipes keep being read in the background (started by the pager, or read whole now
        // for print mode).
        let mailbox = PipeMailbox()
        var documents: [LoadedDocument] = []
        var failed = false
        var errors: [String] = []
        // LESSOPEN's preprocessor and decompression, for the files named here (`InputFilters`);
        // LESSCLOSE runs when folio is done with them.
        // (`-L`: no LESSOPEN.)
        let filterEnvironment = options.noLessOpen ? environment.filter { $0.key != "LESSOPEN" && $0.key != "LESSCLOSE" } : environment
        let (filters, filterWarnings) = InputFilters.from(environment: filterEnvironment)
        for warning in filterWarnings { reportError(warning) }
        defer { filters.close(documents) }
        for argument in arguments {
            // The pager does not wait for a stream's first bytes: it opens at once and says it
            // is waiting (`waitForKind`), so `q` works on a FIFO nobody writes to.
            let pager = !(options.print || !stdoutIsTerminal || options.forget || options.quitIfOneScreen)
            switch Input.openStream(argument, forced: options.forcedKind, mailbox: mailbox, doc: documents.count,
                                    firstBytesWait: pager ? Launch.firstBytesWait : -1, filters: filters) {
            case .success(let doc): documents.append(doc)
            case .failure(let error): reportError(error.description); failed = true; errors.append(error.description)
            }
        }

        // The config file's section for the kind of documents open (`Invocation.options(markdown:text:)`).
        if let sections {
            var chosen = sections.options(markdown: documents.contains { $0.kind == .markdown && $0.kindPendingFD == nil },
                                          text: documents.contains { $0.kind == .text && $0.kindPendingFD == nil })
            chosen.files = generalOptions.files
            chosen.keyFiles = generalOptions.keyFiles
            options = chosen
        }
        if options.forget {
            let warning = PositionsBridge.forget(documents, environment: environment)
            if let warning { reportError(warning) }
            return failed ? 1 : 0
        }
        // The theme files those options name (`--theme=NAME`, `--dark-theme`, `--light-theme`).
        let (userThemes, themeWarnings) = UserConfig.themes(&options, environment: environment)
        themes = userThemes
        for warning in themeWarnings { reportError(warning) }
        optionWarnings += themeWarnings

        let printMode = options.print || !stdoutIsTerminal
        if !printMode {
            for warning in keyWarnings { reportError(warning) }
            optionWarnings += keyWarnings
        }
        if printMode {
            // Markdown print needs whole inputs; text prints as it streams in.
            for i in documents.indices where documents[i].kind == .markdown {
                Launch.finishReading(&documents[i])
            }
            for doc in documents { if let notice = doc.notice { reportError(notice) } }
            runPrintMode(documents, stdoutIsTerminal: stdoutIsTerminal, environment: environment)
            filters.close(documents)
            // Everything is written (unbuffered, with write(2)); freeing a large document's
            // millions of small objects would only delay the exit, so leave now.
            Glibc.exit(failed ? 1 : 0)
        }
        guard !documents.isEmpty else { return 1 }
        do {
            return try runInteractive(documents, startCommand: startCommand, environment: environment,
                                      errors: errors, mailbox: mailbox)
        } catch {
            reportError("\(error)")
            return 1
        }
    }

    /// Milliseconds the pager waits for a stream's first bytes before it opens and says it is
    /// waiting (`WaitForKind`): a pipe whose command starts at once (`git log`, `man`) is
    /// sniffed as before, with no waiting screen between.
    static let firstBytesWait: Int32 = 100

    /// Resolves `--color`, `--plain` and `NO_COLOR` into a theme (nil: no escape sequences),
    /// with `--theme`'s palette (`auto`: `COLORFGBG`'s, else dark, until the terminal says).
    /// `asking`: with `--theme=auto`, ask the terminal now (print mode to a terminal; the
    /// pager asks in its own session instead).
    /// `replies`: the terminal's answers asked for already (print mode asks once, for the
    /// colours and the graphics together).
    func theme(forTerminal isTerminal: Bool, environment: [String: String], asking: Bool = false,
               replies: [TerminalReply]? = nil) -> Theme? {
        if options.plain { return nil }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let depth: ColorDepth
        switch options.color {
        case .always:
            depth = Launch.colorDepth(environment: environment, fallback: .ansi16)
        case .never:
            guard isTerminal else { return nil }
            depth = .none
        case .auto:
            guard isTerminal else { return nil }
            depth = Launch.colorDepth(environment: environment, fallback: .ansi16)
        }
        // NO_COLOR turns off the colours folio adds, not the input's own (a text document's
        // SGR: `git log --color=always | NO_COLOR=1 folio` keeps git's), as the convention asks.
        let own = !(noColor && options.color == .auto)
        var theme = Theme(depth: depth, palette: themes.palette(for: appearance(environment: environment,
                                                                               asking: asking && isTerminal && own && depth != .none,
                                                                               replies: replies)),
                          ownColours: own)
        theme.alternates = themes.alternates
        return theme
    }

    /// The palette `--theme` names; for `auto`, the terminal's answer when `asking` (print mode
    /// to a terminal) and it may answer, else the one to start with (`COLORFGBG`, else dark).
    func appearance(environment: [String: String], asking: Bool = false, replies: [TerminalReply]? = nil) -> Appearance {
        switch options.theme {
        case .dark: return .dark
        case .light: return .light
        case .auto:
            if asking, let replies {
                if let answer = AppearanceDetection.appearance(replies: replies) { return answer }
            } else if asking, AppearanceDetection.shouldQuery(term: environment["TERM"], insideTmux: !(environment["TMUX"] ?? "").isEmpty,
                                                       depth: .ansi16),
               let answer = AppearanceDetection.appearance(replies: ColorQuery.ask(timeoutMilliseconds: Launch.printQueryTimeout)) {
                return answer
            }
            return AppearanceDetection.fallback(colorFgBg: environment["COLORFGBG"])
        }
    }

    /// Milliseconds print mode waits for the terminal's colours (`--theme=auto`).
    static let printQueryTimeout = 25

    /// Colour depth from `COLORTERM` and `TERM`.
    static func colorDepth(environment: [String: String], fallback: ColorDepth) -> ColorDepth {
        let colorterm = asciiLowercased(environment["COLORTERM"] ?? "")
        if colorterm == Array("truecolor".utf8) || colorterm == Array("24bit".utf8) { return .trueColor }
        let term = asciiLowercased(environment["TERM"] ?? "")
        if term == Array("dumb".utf8) { return .none }
        if contains(term, "direct") { return .trueColor }
        if contains(term, "256") { return .palette256 }
        if term.isEmpty { return fallback }
        return .ansi16
    }

    /// `text`'s UTF-8 with A–Z lowered. Compared with the ASCII words above it answers as
    /// `lowercased()` and `String.contains` did (no other character lowers to one of their
    /// letters; only a combining mark right after a matched letter would differ, which no
    /// terminal's name has), without Unicode's case tables or `_StringProcessing`'s generic
    /// `contains`, whose first use in a process looks its types up at run time: before every
    /// first screen, here.
    private static func asciiLowercased(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    private static func contains(_ bytes: [UInt8], _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    func runPrintMode(_ documents: [LoadedDocument], stdoutIsTerminal: Bool, environment: [String: String]) {
        signal(SIGPIPE, SIG_IGN)
        // One question to the terminal for its colours and its graphics (for pictures).
        let asksGraphics = stdoutIsTerminal && options.images == .auto && !options.plain && options.color != .never
            && (environment["NO_COLOR"] ?? "").isEmpty
        let asksColours = stdoutIsTerminal && options.theme == .auto && AppearanceDetection.shouldQuery(
            term: environment["TERM"], insideTmux: !(environment["TMUX"] ?? "").isEmpty, depth: .ansi16)
        let replies = asksGraphics || asksColours
            ? ColorQuery.ask(timeoutMilliseconds: Launch.printQueryTimeout, colours: asksColours, graphics: asksGraphics) : nil
        let theme = theme(forTerminal: stdoutIsTerminal, environment: environment, asking: stdoutIsTerminal, replies: replies)
        let answers = GraphicsAnswers(replies ?? [])
        var images = options.images
        if images == .auto, let mode = answers.mode ?? (environment["TERM_PROGRAM"] == "iTerm.app" ? .iterm : nil) {
            images = mode == .kitty ? .kitty : mode == .sixel ? .sixel : .iterm
        }
        let width = options.width ?? (stdoutIsTerminal ? TerminalWidth.ofStdout() : nil) ?? 80
        let layoutOptions = LayoutOptions(width: max(1, width), inlineLinkURLs: theme == nil,
                                          maxProseWidth: options.proseWidth, centerProse: options.align == .center,
                                          highlighter: Launch.codeHighlighter(theme: theme, deferred: false),
                                          markInlineCode: !(theme?.addsColour ?? false),
                                          executor: .machine.foreground)  // waited for: not in the background
        for (i, loaded) in documents.enumerated() {
            if i > 0 && !writeAll(fd: 1, [0x0A]) { return }
            if loaded.kind == .text, let store = loaded.store {
                var textOptions = layoutOptions
                textOptions.chopLongLines = options.chopLongLines
                let printer = TextPrinter(form: TextPrinter.form(stdoutIsTerminal: stdoutIsTerminal, width: options.width,
                                                                 colour: theme != nil, plain: options.plain),
                                          options: textOptions, theme: theme, tabWidth: options.tabs ?? 8)
                if !printer.print(store: store, reader: loaded.reader, name: loaded.name) { return }
                continue
            }
            var documentOptions = layoutOptions
            documentOptions.pictures = Pictures.show(mode: images, addsColour: theme?.addsColour ?? false, deferred: false,
                                                     screenRows: TerminalSize.ofTerminal()?.rows ?? 24,
                                                     directory: loaded.path.map(Pictures.directory(of:)), cell: answers.cell)
            for piece in PrintRenderer.render(source: loaded.bytes, options: documentOptions, theme: theme) {
                if !writeAll(fd: 1, piece) { return }  // the reader went away (EPIPE): stop quietly
            }
        }
    }
}

extension Launch {
    /// Reads a stream to its end now (print mode, `--forget`) and keeps its bytes.
    static func finishReading(_ doc: inout LoadedDocument) {
        guard let store = doc.store else { return }
        if let reader = doc.reader {
            // (Also a stream that ended while it was sniffed: a decompressor's error is said.)
            if !reader.finished { _ = reader.readSynchronously() }
            if let error = reader.endError { reportError("\(doc.name): \(error)") }
        }
        doc.reader = nil
        if doc.bytes.count != store.count { doc.bytes = store.consolidate() }
    }
}

enum TerminalWidth {
    static func ofStdout() -> Int? {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return nil }
        return Int(ws.ws_col)
    }
}
