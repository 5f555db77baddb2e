import ArgumentParser
import Foundation
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
        CrashReport.install(environment: ProcessInfo.processInfo.environment)
        do {
            let arguments = Invocation.arguments(commandLine: Array(CommandLine.arguments.dropFirst()),
                                                 environment: ProcessInfo.processInfo.environment)
            var command = try parseAsRoot(arguments)
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
        let environment = ProcessInfo.processInfo.environment
        CrashReport.crashIfAsked(at: "start", environment: environment)
        var arguments = options.files
        // less-style `+cmd` arguments: `+N` (source line) and `+/pattern`.
        var startCommand: StartCommand?
        arguments.removeAll { arg in
            guard arg.hasPrefix("+"), arg.count > 1 else { return false }
            let rest = arg.dropFirst()
            if rest.hasPrefix("/") { startCommand = .search(String(rest.dropFirst())); return true }
            if let n = Int(rest) { startCommand = .line(n); return true }
            if rest == "G" { startCommand = .end; return true }
            if rest == "F" { startCommand = .follow; return true }
            return false
        }
        if let p = options.pattern { startCommand = .search(p) }

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
            switch Input.openStream(argument, forced: options.forcedKind, mailbox: mailbox, doc: documents.count) {
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
            // Print mode and --forget need whole inputs.
            for i in documents.indices { Folio.finishReading(&documents[i]) }
        }
        if printMode {
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

    /// Resolves `--color`, `--plain` and `NO_COLOR` into a theme (nil: no escape sequences).
    func theme(forTerminal isTerminal: Bool, environment: [String: String]) -> Theme? {
        if options.plain { return nil }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        switch options.color {
        case .always:
            return Theme(depth: Folio.colorDepth(environment: environment, fallback: .ansi16))
        case .never:
            return isTerminal ? Theme(depth: .none) : nil
        case .auto:
            guard isTerminal else { return nil }
            return Theme(depth: noColor ? .none : Folio.colorDepth(environment: environment, fallback: .ansi16))
        }
    }

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
        let theme = theme(forTerminal: stdoutIsTerminal, environment: environment)
        let width = options.width ?? (stdoutIsTerminal ? TerminalWidth.ofStdout() : nil) ?? 80
        let layoutOptions = LayoutOptions(width: max(1, width), inlineLinkURLs: theme == nil)
        for (i, loaded) in documents.enumerated() {
            if i > 0 && !writeAll(fd: 1, [0x0A]) { return }
            if loaded.kind == .text, let store = loaded.store {
                if !stdoutIsTerminal && options.width == nil && theme == nil {
                    // Text into a pipe or a file: the bytes as they are, as less and cat do.
                    var ok = true
                    store.forEachPiece(in: 0..<store.count) { piece, _ in
                        ok = writeAll(fd: 1, Array(piece)); return ok
                    }
                    if !ok { return }
                    continue
                }
                // To a terminal: the lines as the pager shows them (controls made visible).
                let content = TextContent(store: store, tabWidth: options.tabs ?? 8)
                content.indexMore(inputEnded: true)
                var textOptions = layoutOptions
                textOptions.chopLongLines = options.chopLongLines
                let layout = DocumentLayout(content: content, options: textOptions)
                if !writeAll(fd: 1, PrintRenderer.render(layout, theme: theme)) { return }
                continue
            }
            for piece in PrintRenderer.render(source: loaded.bytes, options: layoutOptions, theme: theme) {
                if !writeAll(fd: 1, piece) { return }  // the reader went away (EPIPE): stop quietly
            }
        }
    }
}

/// What to do once the document is open, from `+N`, `+/pattern`, `-p`.
enum StartCommand: Equatable {
    case line(Int)
    case search(String)
    case end
    /// `+F`: follow the end of the input.
    case follow
}

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
