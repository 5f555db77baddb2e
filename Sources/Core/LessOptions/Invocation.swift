/// The options folio runs with, from five sources, each later one winning:
///
///     built-in defaults < config file < $LESS < $FOLIO < command line
///
/// The config file (`ConfigFile`) holds options as the command line writes them; its
/// `[markdown]` and `[text]` sections apply on top of its other lines, for documents of that
/// kind only (`markdownOptions`, `textOptions`), still below `$LESS`, `$FOLIO` and the command
/// line. `$LESS` (less's own variable: git sets `LESS=FRX`, systemd `LESS=FRSXMK`) and
/// `$FOLIO` are each read whole as less reads `$LESS`; the command line's words are read as
/// less reads its arguments (an option's value may be the next word: `-p pattern`,
/// `--width 80`).
///
/// A mistake in the config file, `$LESS` or `$FOLIO` is a warning and that setting is skipped
/// (a value less would take, such as `-j99999999999999999999`, must not stop every start;
/// the config file's warnings name its file and line); one on the command line is an error.
/// Unlike less, options may follow file names (`folio a.md -N`) until `--`.
public struct Invocation: Equatable, Sendable {
    /// The options for documents of either kind (the config file's `[markdown]` and `[text]`
    /// sections left out).
    public var options = Options()
    /// With the config file's `[markdown]` section, and with its `[text]` section.
    public var markdownOptions = Options()
    public var textOptions = Options()
    /// What was wrong in the config file, `$LESS` or `$FOLIO` (`$LESS: There is no -W option`,
    /// `config:3: There is no --bogus option`).
    public var warnings: [String] = []
    /// The first thing wrong on the command line.
    public var error: String?
    /// The config file read, if any.
    public var config: ConfigFile?
    /// Where each of `Options.settings` got its value, for every section: `default`, the
    /// config file's `name:line`, `$LESS`, `$FOLIO` or `command line`.
    public var origins: [ConfigFile.Section: [String: String]] = [:]

    public init(commandLine: [String], less: String?, folio: String?, config: ConfigFile? = nil) {
        self.config = config
        let all = Run(commandLine: commandLine, less: less, folio: folio, config: config, section: .all)
        options = all.options
        warnings = (config?.errors ?? []) + all.warnings
        error = all.error
        origins[.all] = all.origins
        for section in [ConfigFile.Section.markdown, .text] {
            let run = config.map { $0.lines.contains { $0.section == section } } == true
                ? Run(commandLine: commandLine, less: less, folio: folio, config: config, section: section) : all
            if section == .markdown { markdownOptions = run.options } else { textOptions = run.options }
            origins[section] = run.origins
            // Only the section's own lines can add warnings: the rest were read for `all`.
            warnings += run.sectionWarnings
        }
    }

    /// The options for the documents open: one kind's when they are all of it; with both
    /// kinds, `options` with each section's settings that concern only its kind (Markdown's
    /// `--max-width` and `--align`, text's `-S` and `-x`).
    public func options(markdown: Bool, text: Bool) -> Options {
        switch (markdown, text) {
        case (true, false): return markdownOptions
        case (false, true): return textOptions
        case (false, false): return options
        case (true, true):
            var mixed = options
            mixed.maxWidth = markdownOptions.maxWidth
            mixed.align = markdownOptions.align
            mixed.chopLongLines = textOptions.chopLongLines
            mixed.tabs = textOptions.tabs
            return mixed
        }
    }

    /// One reading of the sources, for one section of the config file.
    private struct Run {
        var options = Options()
        var warnings: [String] = []
        var sectionWarnings: [String] = []
        var error: String?
        var origins: [String: String] = [:]
        private var last: [String: String]

        init(commandLine: [String], less: String?, folio: String?, config: ConfigFile?, section: ConfigFile.Section) {
            last = Dictionary(options.settings.map { ($0.name, $0.value) }) { a, _ in a }
            for (name, _) in options.settings { origins[name] = "default" }
            if let config {
                let lines = config.lines.filter { $0.section == .all } + config.lines.filter { $0.section == section && section != .all }
                for line in lines {
                    let source = "\(config.name):\(line.number)"
                    var scanner = OptionScanner()
                    for word in line.words {
                        if scanner.isPending || word.utf8.count > 1 && (word.hasPrefix("-") || word.hasPrefix("+")) {
                            take(scanner.scan(word), from: source, inSection: line.section != .all)
                        } else {
                            note("\(source): '\(word)' is not an option (the config file holds options, not file names)",
                                 inSection: line.section != .all)
                        }
                    }
                    take(scanner.finish(), from: source, inSection: line.section != .all)
                    record(source)
                }
            }
            var scanner = OptionScanner()
            if let less { take(scanner.scan(less) + scanner.finish(), from: "$LESS"); record("$LESS") }
            if let folio { take(scanner.scan(folio) + scanner.finish(), from: "$FOLIO"); record("$FOLIO") }
            var operandsOnly = false
            for word in commandLine {
                if operandsOnly {
                    options.files.append(word)
                } else if scanner.isPending {
                    take(scanner.scan(word), from: nil)
                } else if word == "--" {
                    operandsOnly = true
                } else if word.utf8.count > 1, word.hasPrefix("-") || word.hasPrefix("+") {
                    take(scanner.scan(word), from: nil)
                } else {
                    options.files.append(word)
                }
            }
            take(scanner.finish(), from: nil)
            record("command line")
        }

        /// Each setting whose value changed since the last source came from `source`.
        private mutating func record(_ source: String) {
            for (name, value) in options.settings where last[name] != value {
                origins[name] = source
                last[name] = value
            }
        }

        private mutating func note(_ warning: String, inSection: Bool) {
            if inSection { sectionWarnings.append(warning) } else { warnings.append(warning) }
        }

        /// Applies what a string held; `source` names the variable or the config file's line
        /// (nil: the command line).
        private mutating func take(_ items: [OptionScanner.Item], from source: String?, inSection: Bool = false) {
            for item in items {
                var problem: String?
                switch item {
                case .setting(let setting):
                    problem = options.apply(setting, fromCommandLine: source == nil)
                case .command(let text, _):
                    options.start = .command(text)
                case .error(let message):
                    problem = message
                }
                guard let problem else { continue }
                if let source {
                    note("\(source): \(problem)", inSection: inSection)
                } else if error == nil {
                    error = problem
                }
            }
        }
    }
}
