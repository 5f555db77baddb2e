import FuzzSupport
import LessOptions

/// libFuzzer target: `$LESS`/`$FOLIO` and the command line read as less reads them, on
/// arbitrary bytes.
///
/// The input is cut at its NUL bytes: the first piece is `$LESS`, the second `$FOLIO`, the
/// rest are command-line words (bytes that are not UTF-8 arrive as U+FFFD, as in an
/// environment string decoded by folio). Checked: no crash or trap; the same input gives the
/// same options (the reading is pure); the environment alone never makes an error (only
/// warnings); in each piece scanned on its own, only a bad number lets the scan read on past
/// an error, every setting has the form its option's kind allows, and nothing is pending once
/// the piece is finished.
enum FuzzLess {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
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
