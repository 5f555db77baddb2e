/// The options folio runs with: `$LESS` (less's own variable: git sets `LESS=FRX`, systemd
/// `LESS=FRSXMK`), then `$FOLIO` (folio's defaults), each read whole as less reads `$LESS`,
/// then the command line, whose words are read as less reads its arguments (an option's value
/// may be the next word: `-p pattern`, `--width 80`). A later setting wins.
///
/// A mistake in `$LESS` or `$FOLIO` is a warning and that setting is skipped (a value less
/// would take, such as `-j99999999999999999999`, must not stop every start); one on the
/// command line is an error. Unlike less, options may follow file names (`folio a.md -N`)
/// until `--`.
public struct Invocation: Equatable, Sendable {
    public var options = Options()
    /// What was wrong in `$LESS` or `$FOLIO` (`$LESS: There is no -W option`).
    public var warnings: [String] = []
    /// The first thing wrong on the command line.
    public var error: String?

    public init(commandLine: [String], less: String?, folio: String?) {
        var scanner = OptionScanner()
        if let less { take(scanner.scan(less) + scanner.finish(), from: "$LESS") }
        if let folio { take(scanner.scan(folio) + scanner.finish(), from: "$FOLIO") }
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
    }

    /// Applies what a string held; `source` names the variable (nil: the command line).
    private mutating func take(_ items: [OptionScanner.Item], from source: String?) {
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
                warnings.append("\(source): \(problem)")
            } else if error == nil {
                error = problem
            }
        }
    }
}
