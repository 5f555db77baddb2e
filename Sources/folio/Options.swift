import ArgumentParser
import Pager
import TextModel

/// Command-line options. Names follow less where less has the option (`-X`, `-F`, `-z`, `-j`,
/// `-i`, `-I`, `-p`, `+cmd`), long names otherwise.
struct Options: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Markdown files to show; '-' or none reads standard input. An argument '+N' opens at source line N, '+/PATTERN' at the first match.",
        valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "Write the rendered document to standard output and exit (the default when standard output is not a terminal).")
    var print = false

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Render for N columns, 1...10000 (print mode; default: the terminal's width, else 80).", valueName: "N"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Colour: auto (a terminal and NO_COLOR unset), always, never.", valueName: "when"))
    var color: ColorChoice = .auto

    @Option(name: .long, help: ArgumentHelp("Palette: auto (ask the terminal for its background, else COLORFGBG, else dark), dark, light.", valueName: "theme"))
    var theme: ThemeChoice = .auto

    @Flag(name: .long, help: "No escape sequences at all: plain text, link URLs written out.")
    var plain = false

    @Flag(name: [.customShort("X"), .customLong("no-init")], help: "Do not use the alternate screen; the last page stays on the terminal after quitting.")
    var noInit = false

    @Flag(name: [.customShort("F"), .customLong("quit-if-one-screen")], help: "Print the document and exit if it fits on one screen.")
    var quitIfOneScreen = false

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Rows shared by consecutive pages, 0...10000 (default 1).", valueName: "N"))
    var overlap: Int?

    @Option(name: [.customShort("z", allowingJoined: true), .customLong("window")], parsing: .unconditional,
            help: ArgumentHelp("As in less: scroll N rows per page; -z-N scrolls the screen height minus N.", valueName: "N"))
    var window: Int?

    @Option(name: [.customShort("j", allowingJoined: true), .customLong("jump-target")], parsing: .unconditional,
            help: ArgumentHelp("As in less: put search targets on screen row N (1-based, negative from the bottom, .5 = centre) when the view must move. Default: move as little as possible.", valueName: "N"))
    var jumpTarget: String?

    @Flag(name: .long, help: "Hide the scroll indicator on the right edge.")
    var noScrollbar = false

    @Flag(name: .long, help: "Full mouse reporting: click links, drag to select and copy. Without it the wheel still scrolls and the terminal's own selection works.")
    var mouse = false

    @Flag(name: [.customShort("i"), .customLong("smart-case")], help: "Search ignores case unless the pattern has an upper-case letter (the default).")
    var smartCase = false

    @Flag(name: [.customShort("I"), .customLong("ignore-case")], help: "Search always ignores case.")
    var ignoreCase = false

    @Flag(name: .long, help: "Search patterns are literal text, not regular expressions (Ctrl-R at the prompt toggles).")
    var literal = false

    @Option(name: [.customShort("p"), .customLong("pattern")], help: ArgumentHelp("Open at the first match of PATTERN.", valueName: "pattern"))
    var pattern: String?

    @Flag(name: .long, help: "Open at the top, ignoring the saved reading position.")
    var noRestore = false

    @Flag(name: .long, help: "Forget the saved reading position of the documents given, then exit.")
    var forget = false

    @Flag(name: [.customShort("M"), .customLong("markdown")], help: "Show every input as Markdown (default: by file name, else by its first 64 KB).")
    var markdown = false

    @Flag(name: [.customShort("T"), .customLong("text")], help: "Show every input as text lines, as written (git, man, logs).")
    var text = false

    @Flag(name: [.customShort("S"), .customLong("chop-long-lines")], help: "Text: cut long lines at the width instead of wrapping; ← and → scroll sideways.")
    var chopLongLines = false

    @Option(name: [.customShort("x", allowingJoined: true), .customLong("tabs")], help: ArgumentHelp("Text: tab stops every N columns (default 8).", valueName: "N"))
    var tabs: Int?

    @Flag(name: [.customShort("N"), .customLong("line-numbers")], help: "Show line numbers in the left margin (Markdown: each row's source line).")
    var lineNumbers = false

    @Flag(name: .long, help: "F follows a file by name: reopen it when it is replaced (log rotation), as less's --follow-name.")
    var followName = false

    @Flag(name: .long, help: "Do not reload a file shown when it changes on disk.")
    var noWatch = false

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Markdown: prose at most N columns wide, 0...10000 (default \(Options.defaultMaxWidth); 0: the whole width). Code blocks and tables may be wider.", valueName: "N"))
    var maxWidth: Int?

    @Option(name: .long, help: ArgumentHelp("Markdown: where the reading column of --max-width stands: left or center (default left).", valueName: "where"))
    var align: Alignment = .left

    /// Prose is capped at 100 columns unless told otherwise: lines much longer than ~100
    /// characters are hard to follow back to their start, and terminals of 100 columns or
    /// fewer (most) see no change. Left-aligned by default, where a pager's text always is.
    static let defaultMaxWidth = 100
    /// The cap to lay out with (nil: none).
    var proseWidth: Int? {
        let n = maxWidth ?? Options.defaultMaxWidth
        return n > 0 ? n : nil
    }

    /// The kind every input is forced to, if any.
    var forcedKind: DocumentKind? { markdown ? .markdown : (text ? .text : nil) }

    /// Numbers a user can mistype by orders of magnitude are checked here, once, with the
    /// valid range in the message (`--width 0`, `--width 9223372036854775807`): nothing past
    /// this point has to guard against overflow or absurd allocations.
    mutating func validate() throws {
        try Options.check("--width", width, in: Options.widthRange)
        try Options.check("--overlap", overlap, in: Options.rowRange)
        try Options.check("--max-width", maxWidth, in: 0...Options.widthRange.upperBound)
        if let z = window { try Options.check("-z/--window", z, in: -Options.rowRange.upperBound...Options.rowRange.upperBound) }
        if let j = jumpTarget, Options.jumpTarget(j) == nil {
            throw ValidationError("-j/--jump-target expects a row (1...10000, negative counts from the bottom) or a fraction such as .5 (got '\(j)')")
        }
    }

    static let widthRange = 1...10_000
    static let rowRange = 0...10_000

    static func check(_ name: String, _ value: Int?, in range: ClosedRange<Int>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(value))")
    }

    /// less's `-j` argument: a row (`5`, `-5`: from the bottom) or a fraction of the screen
    /// (`.5`, `0.5`); nil when it is neither or out of range.
    static func jumpTarget(_ text: String) -> JumpTarget? {
        if text.hasPrefix(".") || text.hasPrefix("0.") {
            guard let f = Double(text.hasPrefix(".") ? "0" + text : text), f >= 0, f < 1 else { return nil }
            return .fraction(f)
        }
        guard let n = Int(text), abs(n) <= rowRange.upperBound else { return nil }
        return .row(n)
    }

    enum JumpTarget: Equatable {
        case row(Int)
        case fraction(Double)
    }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

enum Alignment: String, ExpressibleByArgument, CaseIterable {
    case left, center
}

extension ThemeChoice: ExpressibleByArgument {}
