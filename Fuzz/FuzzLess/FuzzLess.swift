import FuzzSupport
import LessOptions

/// libFuzzer target: `$LESS`/`$FOLIO` and the command line read as less reads them, and the
/// configuration files (folio's config, a lesskey source, `$LESSKEY_CONTENT`), on arbitrary
/// bytes.
///
/// The input is cut at its NUL bytes: the first piece is `$LESS`, the second `$FOLIO`, the
/// rest are command-line words (bytes that are not UTF-8 arrive as U+FFFD, as in an
/// environment string decoded by folio). Checked: no crash or trap; the same input gives the
/// same options (the reading is pure); the environment alone never makes an error (only
/// warnings); in each piece scanned on its own, only a bad number lets the scan read on past
/// an error, every setting has the form its option's kind allows, and nothing is pending once
/// the piece is finished. The whole input is also read as a config file and as lesskey
/// source (as a file and as `$LESSKEY_CONTENT`): the same text gives the same result, and every
/// line and error a reading names is a line of the text, in order, and a binding left without
/// keys has an error on its line (`configFiles`).
enum FuzzLess {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        configFiles(String(decoding: bytes, as: UTF8.self))
        let pieces = bytes.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let less = pieces.first
        let folio = pieces.count > 1 ? pieces[1] : nil
        let words = Array(pieces.dropFirst(2))

        let invocation = Invocation(commandLine: words, less: less, folio: folio)
        if invocation != Invocation(commandLine: words, less: less, folio: folio) {
            fatalError("the same input read twice gave different options")
        }
        // The environment never fails the start: its mistakes are warnings.
        let environmentOnly = Invocation(commandLine: [], less: less, folio: folio)
        if environmentOnly.error != nil { fatalError("an environment string made an error: \(environmentOnly.error!)") }

        for piece in pieces {
            var scanner = OptionScanner()
            let items = scanner.scan(piece)
            for (k, item) in items.enumerated() {
                switch item {
                case .error(let message):
                    // Only a bad number lets less read on in the same string.
                    if k != items.count - 1 && !message.hasPrefix("Number ") {
                        fatalError("read on past '\(message)': \(items)")
                    }
                case .setting(let setting):
                    if !fits(setting) { fatalError("\(setting) does not fit its option's kind") }
                case .command:
                    break
                }
            }
            let tail = scanner.finish()
            if scanner.isPending || tail.count > 1 { fatalError("still pending after finish: \(tail)") }
            var options = Options()
            for case .setting(let setting) in items {
                _ = options.apply(setting)
            }
        }
    }

    static func configFiles(_ text: String) {
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let config = ConfigFile(name: "c", text: text)
        if config != ConfigFile(name: "c", text: text) { fatalError("the same config read twice differs") }
        let numbers = config.lines.map(\.number)
        if numbers != numbers.sorted() || Set(numbers).count != numbers.count || !numbers.allSatisfy({ (1...lineCount).contains($0) }) {
            fatalError("config lines \(numbers) of a text of \(lineCount) lines")
        }
        if config.lines.contains(where: \.words.isEmpty) { fatalError("a config line without words") }
        if !config.errors.allSatisfy({ $0.hasPrefix("c:") }) { fatalError("an error without its place: \(config.errors)") }
        for keys in [Lesskey(name: "k", text: text), Lesskey(name: "k", content: text)] {
            let lines = keys.commands.map(\.line) + keys.lineEdits.map(\.line) + keys.variables.map(\.line)
            if !lines.allSatisfy({ $0 >= 1 && $0 <= max(lineCount, text.utf8.count + 1) }) {
                fatalError("lesskey lines \(lines) of a text of \(lineCount) lines")
            }
            // A binding can lose all its keys (`\\kz quit`: less keeps it, with nothing to
            // match), never silently: its line has an error.
            for binding in keys.commands + keys.lineEdits where binding.keys.isEmpty {
                if !keys.errors.contains(where: { $0.hasPrefix("k:\(binding.line):") }) {
                    fatalError("a binding without keys and without an error: \(binding)")
                }
            }
        }
        if Lesskey(name: "k", text: text) != Lesskey(name: "k", text: text) { fatalError("the same lesskey read twice differs") }
    }

    /// A setting has the form its option's kind allows: a value for a string option, a
    /// number for a number option, upper case only for a triple option.
    static func fits(_ setting: OptionScanner.Setting) -> Bool {
        switch (OptionTable.spec(setting.option).kind, setting.form) {
        case (.string, .value), (.number, .number), (.action, .on): return true
        case (.bool, .on), (.bool, .reset), (.triple, .on), (.triple, .onPlus), (.triple, .reset): return true
        default: return false
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzLess.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzLessMain {
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzLess.run($0) }
    }
}
#endif
