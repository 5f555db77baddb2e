import ArgumentParser
import FoundationEssentials
import LineLayout
import MarkdownModel
import Pager
import TerminalIO
import TerminalScreen
#if canImport(Glibc)
import Glibc
#endif

@main
struct Folio: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "A Markdown pager for the terminal: reads like less, renders like a Markdown viewer.",
        discussion: """
            Keys are less's: Space/b page with a one-line overlap, j/k line, g/G top/bottom, \
            /pattern search, n/N next/previous, Tab selects links and headings, o opens the \
            outline, q quits. Press h inside folio for the full list, or see folio(1).
            """,
        version: version)

    @OptionGroup var options: Options

    /// ArgumentParser's `main` over `$LESS`'s shared options, `$FOLIO`'s and the command line
    /// (whose flags win: see `Invocation`), except that an error is one line on standard error with its
    /// control characters made visible (an argument may hold an ESC), and a crash prints a
    /// short report instead of handing the terminal to the backtracer (see `CrashReport`).
    static func main() {
        CrashReport.install(environment: ProcessEnvironment.current)
        do {
            // From argv's bytes: a file operand that is not UTF-8 still names its file (`FileName`).
            let arguments = Invocation.arguments(commandLine: Array(FileName.commandLine().dropFirst()),
                                                 environment: ProcessEnvironment.current)
            var command: ParsableCommand
            if let quick = QuickArguments.parse(arguments) {
                #if DEBUG
                // Every debug run (the end-to-end tests) checks the quick parse against
                // ArgumentParser's.
                let full = (try? parseAsRoot(arguments)) as? Folio
                if full?.options.summary != quick.summary {
                    fatalError("quick argument parse differs: \(quick.summary) vs \(String(describing: full?.options.summary))")
                }
                #endif
                var folio = Folio()
                folio.options = quick
                command = folio
            } else {
                command = try parseAsRoot(arguments)
            }
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if error is ExitCode { Glibc.exit(code.rawValue) }
            if code == .success {
                // --help, --version: ArgumentParser's own text, to standard output.
                Swift.print(fullMessage(for: error))
                Glibc.exit(0)
            }
            reportError(message(for: error) + " (\"folio --help\" for help)")
            Glibc.exit(code.rawValue)
        }
    }

    mutating func run() throws {
        let environment = ProcessEnvironment.current
        CrashReport.crashIfAsked(at: "start", environment: environment)
        var arguments = options.files
        // less-style `+cmd` arguments: `+N` (source line) and `+/pattern`.
        var startCommand: StartCommand?
        arguments.removeAll { arg in
            guard arg.hasPrefix("+"), arg.count > 1 else { return false }
            let rest = arg.dropFirst()
            if rest.hasPrefix("/") { startCommand = .search(FileName.text(String(rest.dropFirst()))); return true }
            if let n = Int(rest) { startCommand = .line(n); return true }
            if rest == "G" { startCommand = .end; return true }
            if rest == "F" { startCommand = .follow; return true }
            return false
        }
        if let p = options.pattern { startCommand = .search(FileName.text(p)) }

        let stdinIsTerminal = isatty(0) == 1
        let stdoutIsTerminal = isatty(1) == 1
        if arguments.isEmpty {
            if stdinIsTerminal {
                reportError("missing filename (\"folio --help\" for help)")
                throw ExitCode(2)
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
        for argument in arguments {
            // The pager does not wait for a stream's first bytes: it opens at once and says it
            // is waiting (`waitForKind`), so `q` works on a FIFO nobody writes to.
            let pager = !(options.print || !stdoutIsTerminal || options.forget || options.quitIfOneScreen)
            switch Input.openStream(argument, forced: options.forcedKind, mailbox: mailbox, doc: documents.count,
                                    firstBytesWait: pager ? Folio.firstBytesWait : -1) {
            case .success(let doc): documents.append(doc)
            case .failure(let error): reportError(error.description); failed = true; errors.append(error.description)
            }
        }

        if options.forget {
            let warning = PositionsBridge.forget(documents, environment: environment)
            if let warning { reportError(warning) }
            throw ExitCode(failed ? 1 : 0)
        }

        let printMode = options.print || !stdoutIsTerminal
        if printMode || options.forget {
            // --forget and Markdown print need whole inputs; text prints as it streams in.
            for i in documents.indices where options.forget || documents[i].kind == .markdown {
                Folio.finishReading(&documents[i])
            }
        }
        if printMode {
            for doc in documents { if let notice = doc.notice { reportError(notice) } }
            runPrintMode(documents, stdoutIsTerminal: stdoutIsTerminal, environment: environment)
            // Everything is written (unbuffered, with write(2)); freeing a large document's
            // millions of small objects would only delay the exit, so leave now.
            Glibc.exit(failed ? 1 : 0)
        }
        guard !documents.isEmpty else { throw ExitCode(1) }
        let status = try runInteractive(documents, startCommand: startCommand, environment: environment,
                                        errors: errors, mailbox: mailbox)
        throw ExitCode(status)
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
        return Theme(depth: depth, palette: .named(appearance(environment: environment, asking: asking && isTerminal && own && depth != .none)),
                     ownColours: own)
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
                let printer = TextPrinter(raw: !stdoutIsTerminal && options.width == nil && theme == nil,
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
        if let reader = doc.reader, !reader.finished {
            if let error = reader.readSynchronously() { reportError("\(doc.name): \(error)") }
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
/// do); to a terminal, or with `--width` or colour, as the pager shows the lines (controls
/// made visible). Either way the input streams through in batches of whole lines (what each
/// read brought, or a file's 1 MB windows), so an endless or huge input is never held and
/// a slow pipe's lines come out as they arrive. A line longer than `batchBytes` is cut at a
/// character boundary there: the only difference is that its wrapping restarts at the cut.
struct TextPrinter {
    let raw: Bool
    let options: LayoutOptions
    let theme: Theme?
    let tabWidth: Int
    static let batchBytes = 1 << 20

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
        if raw { return writeAll(fd: 1, bytes) }
        pending.append(contentsOf: bytes)
        var cut = (pending.lastIndex(of: 0x0A) ?? -1) + 1
        if cut == 0 {
            guard pending.count >= TextPrinter.batchBytes else { return true }
            // One line longer than a batch: cut before a UTF-8 continuation byte run.
            cut = pending.count
            while cut > pending.count - 4, cut > 1, pending[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
            if cut > 1, pending[cut - 1] >= 0xC0 { cut -= 1 }
        }
        let ok = emit(pending[0..<cut])
        pending.removeFirst(cut)
        return ok
    }

    private func emit(_ lines: ArraySlice<UInt8>) -> Bool {
        let store = ByteStore()
        lines.withUnsafeBytes { store.append($0) }
        let content = TextContent(store: store, tabWidth: tabWidth)
        content.indexMore(inputEnded: true)
        return writeAll(fd: 1, PrintRenderer.render(DocumentLayout(content: content, options: options), theme: theme))
    }
}
