import FoundationEssentials
import LessOptions
import LineLayout
import MarkdownModel
import Pager
import TerminalIO
import TerminalScreen
import TextModel
#if canImport(Glibc)
import Glibc
#endif

@main
struct Folio {
    static let version = Options.version

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

    /// Reads the options (`Invocation`: the config file, `$LESS`, `$FOLIO`, then the command
    /// line, whose settings win) and the key files, and runs. A mistake on the command line is one line on standard error
    /// (control characters made visible: an argument may hold an ESC) and status 64; a crash
    /// prints a short report instead of handing the terminal to the backtracer (see
    /// `CrashReport`).
    static func main() {
        let environment = ProcessEnvironment.current
        CrashReport.install(environment: environment)
        // From argv's bytes: a file operand that is not UTF-8 still names its file (`FileName`).
        // The config file, `$LESS`, `$FOLIO`, the command line (`UserConfig`).
        let (invocation, configStatus) = UserConfig.invocation(commandLine: Array(FileName.commandLine().dropFirst()),
                                                               environment: environment)
        if invocation.options.showHelp {
            Swift.print(HelpText.text, terminator: "")
            Glibc.exit(0)
        }
        if let shell = invocation.options.completion {
            Swift.print(Completions.script(for: shell), terminator: "")
            Glibc.exit(0)
        }
        if invocation.options.showVersion {
            Swift.print(version)
            Glibc.exit(0)
        }
        if let error = invocation.error {
            reportError(error + " (\"folio --help\" for help)")
            Glibc.exit(64)
        }
        let keys = UserConfig.keys(environment: environment, noConfig: invocation.options.noConfig)
        // `--show-config`, `--show-keys`, `--dump-theme`.
        if let status = UserConfig.answer(invocation, configStatus: configStatus, keys: keys, environment: environment) {
            Glibc.exit(status)
        }
        for warning in invocation.warnings { reportError(warning) }
        var options = invocation.options
        options.keyFiles = keys.files
        var folio = Folio(options: options, optionWarnings: invocation.warnings, sections: invocation, keyWarnings: keys.errors)
        Glibc.exit(folio.run())
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
    mutating func run() -> Int32 {
        let environment = ProcessEnvironment.current
        CrashReport.crashIfAsked(at: "start", environment: environment)
        var arguments = options.files
        var startCommand: StartCommand?
        if let request = options.start {
            startCommand = Folio.startCommand(request)
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
        let mailbox = Mailbox()
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
                                    firstBytesWait: pager ? Folio.firstBytesWait : -1, filters: filters) {
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
                Folio.finishReading(&documents[i])
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
    func theme(forTerminal isTerminal: Bool, environment: [String: String], asking: Bool = false) -> Theme? {
        if options.plain { return nil }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let depth: ColorDepth
        switch options.color {
        case .always:
            depth = Folio.colorDepth(environment: environment, fallback: .ansi16)
        case .never:
            guard isTerminal else { return nil }
            depth = .none
        case .auto:
            guard isTerminal else { return nil }
            depth = Folio.colorDepth(environment: environment, fallback: .ansi16)
        }
        // NO_COLOR turns off the colours folio adds, not the input's own (a text document's
        // SGR: `git log --color=always | NO_COLOR=1 folio` keeps git's), as the convention asks.
        let own = !(noColor && options.color == .auto)
        var theme = Theme(depth: depth, palette: themes.palette(for: appearance(environment: environment,
                                                                               asking: asking && isTerminal && own && depth != .none)),
                          ownColours: own)
        theme.alternates = themes.alternates
        return theme
    }

    /// The palette `--theme` names; for `auto`, the terminal's answer when `asking` (print mode
    /// to a terminal) and it may answer, else the one to start with (`COLORFGBG`, else dark).
    func appearance(environment: [String: String], asking: Bool = false) -> Appearance {
        switch options.theme {
        case .dark: return .dark
        case .light: return .light
        case .auto:
            if asking, AppearanceDetection.shouldQuery(term: environment["TERM"], insideTmux: !(environment["TMUX"] ?? "").isEmpty,
                                                       depth: .ansi16),
               let answer = AppearanceDetection.appearance(replies: ColorQuery.ask(timeoutMilliseconds: Folio.printQueryTimeout)) {
                return answer
            }
            return AppearanceDetection.fallback(colorFgBg: environment["COLORFGBG"])
        }
    }

    /// Milliseconds print mode waits for the terminal's colours (`--theme=auto`).
    static let printQueryTimeout = 25

    /// Colour depth from `COLORTERM` and `TERM`.
    static func colorDepth(environment: [String: String], fallback: ColorDepth) -> ColorDepth {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        let term = (environment["TERM"] ?? "").lowercased()
        if term == "dumb" { return .none }
        if term.contains("direct") { return .trueColor }
        if term.contains("256") { return .palette256 }
        if term.isEmpty { return fallback }
        return .ansi16
    }

    func runPrintMode(_ documents: [LoadedDocument], stdoutIsTerminal: Bool, environment: [String: String]) {
        signal(SIGPIPE, SIG_IGN)
        let theme = theme(forTerminal: stdoutIsTerminal, environment: environment, asking: stdoutIsTerminal)
        let width = options.width ?? (stdoutIsTerminal ? TerminalWidth.ofStdout() : nil) ?? 80
        let layoutOptions = LayoutOptions(width: max(1, width), inlineLinkURLs: theme == nil,
                                          maxProseWidth: options.proseWidth, centerProse: options.align == .center,
                                          highlighter: Folio.codeHighlighter(theme: theme, deferred: false),
                                          markInlineCode: !(theme?.addsColour ?? false))
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
            for piece in PrintRenderer.render(source: loaded.bytes, options: layoutOptions, theme: theme) {
                if !writeAll(fd: 1, piece) { return }  // the reader went away (EPIPE): stop quietly
            }
        }
    }
}

/// What to do once the document is open, from `+N`, `+/pattern`, `-p`.
extension Folio {
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

/// Print mode for text: into a pipe or a file the bytes go out as they are (as less and cat
/// do); with `--plain` there, each line as the pager shows its text, unwrapped (styles and
/// links dropped, every other control made visible: `--plain` writes no escape sequence, and
/// one passed through from the input is one too); to a terminal, or with `--width` or colour,
/// as the pager shows the lines (wrapped, controls made visible). Either way the input streams
/// through in batches of whole lines (what each read brought, or a file's 1 MB windows), so an
/// endless or huge input is never held and a slow pipe's lines come out as they arrive. A line
/// longer than `batchBytes` is cut at a character boundary there: its wrapping restarts at the
/// cut, and a sequence cut in two there shows as text.
struct TextPrinter {
    enum Form: Equatable {
        /// The input's bytes.
        case raw
        /// Each line's decoded text (`TerminalTextDecoder`), then LF.
        case decoded
        /// Rows as the pager lays them out at `options.width`.
        case laidOut
    }

    let form: Form
    let options: LayoutOptions
    let theme: Theme?
    let tabWidth: Int
    static let batchBytes = 1 << 20

    /// Into a pipe or file without `--width` or colour the bytes go through, or with `--plain`
    /// their decoded lines; anything else is laid out.
    static func form(stdoutIsTerminal: Bool, width: Int?, colour: Bool, plain: Bool) -> Form {
        guard !stdoutIsTerminal, width == nil, !colour else { return .laidOut }
        return plain ? .decoded : .raw
    }

    /// Returns false when the reader of the output went away (stop quietly).
    func print(store: ByteStore, reader: StreamReader?, name: String) -> Bool {
        var pending: [UInt8] = []
        var ok = true
        var at = 0
        while ok && at < store.count {
            let end = min(store.count, at + TextPrinter.batchBytes)
            store.forEachPiece(in: at..<end) { piece, _ in ok = take(piece, into: &pending); return ok }
            at = end
        }
        guard ok else { return false }
        if let reader {
            let error = reader.forward { chunk in ok = take(chunk, into: &pending); return ok }
            guard ok else { return false }
            if let error { reportError("\(name): \(error)") }
        }
        return pending.isEmpty || emit(pending[...])
    }

    /// Adds bytes; writes out what is ready (everything when raw, whole lines otherwise).
    private func take(_ bytes: UnsafeRawBufferPointer, into pending: inout [UInt8]) -> Bool {
        if form == .raw { return writeAll(fd: 1, bytes) }
        pending.append(contentsOf: bytes)
        var cut = (pending.lastIndex(of: 0x0A) ?? -1) + 1
        if cut == 0 {
            guard pending.count >= TextPrinter.batchBytes else { return true }
            // One line longer than a batch: cut before a UTF-8 continuation byte run.
            cut = pending.count
            while cut > pending.count - 4, cut > 1, pending[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
            if cut > 1, pending[cut - 1] >= 0xC0 { cut -= 1 }
        }
        let ok = emit(pending[0..<cut], lineGoesOn: pending[cut - 1] != 0x0A)
        pending.removeFirst(cut)
        return ok
    }

    /// Writes whole lines (the last one without its LF at the end of input, or cut at
    /// `batchBytes` when `lineGoesOn`).
    private func emit(_ lines: ArraySlice<UInt8>, lineGoesOn: Bool = false) -> Bool {
        if form == .decoded { return writeAll(fd: 1, Self.decodedLines(lines, tabWidth: tabWidth, lineGoesOn: lineGoesOn)) }
        let store = ByteStore()
        lines.withUnsafeBytes { store.append($0) }
        let content = TextContent(store: store, tabWidth: tabWidth)
        content.indexMore(inputEnded: true)
        return writeAll(fd: 1, PrintRenderer.render(DocumentLayout(content: content, options: options), theme: theme))
    }

    /// Each line of `lines` as its decoded text and LF (the line end's CR dropped, as the pager
    /// does); the last line gets no LF when it goes on in the next batch.
    static func decodedLines(_ lines: ArraySlice<UInt8>, tabWidth: Int, lineGoesOn: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lines.count + 64)
        var start = lines.startIndex
        while start < lines.endIndex {
            let newline = lines[start...].firstIndex(of: 0x0A)
            let end = newline ?? lines.endIndex
            let line = lines[start..<end]
            var text = TerminalTextDecoder.decode(newline == nil && lineGoesOn ? line : line[..<LineEnds.contentEnd(of: line)],
                                                  tabWidth: tabWidth).text
            text.withUTF8 { out.append(contentsOf: $0) }
            if newline != nil || !lineGoesOn { out.append(0x0A) }
            start = newline.map { $0 + 1 } ?? lines.endIndex
        }
        return out
    }
}
