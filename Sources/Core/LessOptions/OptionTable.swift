/// Every option of less (its `opttbl.c`: letters, long names, how each takes a value) and
/// folio's own long options, in one table. The scanner reads options with it exactly as less
/// does; what folio makes of each is `OptionSpec.use` and `Options.apply`.
///
/// less's options come first: a long name abbreviated so that it is unique among less's
/// names means less's option even where a folio name shares the prefix (`--wi` is
/// `--window`, not `--width`), so every `$LESS` less accepts reads the same in folio.
public enum OptionTable {
    public static let all: [OptionSpec] = less + folio

    /// The option a letter names (`-i`; for a triple option its upper-case letter too, `-I`),
    /// as less's `findopt`.
    public static func spec(letter: Character) -> OptionSpec? {
        for spec in less {
            guard let l = spec.letter else { continue }
            if l == letter { return spec }
            if spec.kind == .triple, l.isLowercase, l.uppercased() == String(letter) { return spec }
        }
        return nil
    }

    public static func spec(_ id: OptionID) -> OptionSpec {
        all.first { $0.id == id }!
    }

    /// The outcome of looking up a long name (`--jump-target`, `--IGNORE-CASE`, `--quit-if`).
    public enum NameMatch: Equatable, Sendable {
        /// The option, how many bytes of the name matched, and whether the name was written
        /// in upper case (the upper-case form of a triple option).
        case found(OptionID, length: Int)
        case ambiguous
        case none
    }

    /// less's `findopt_name` over `name`'s bytes (the text after `--`, up to the end of its
    /// word or beyond): the longest match of a table name that the text does not go on past
    /// with a letter or `-`; a name may be abbreviated while it stays unique. A triple option
    /// (and, as in less, any option) also matches an upper-case spelling (`--IGNORE-CASE`).
    /// less's table is searched first, then folio's own names.
    public static func find(name: ArraySlice<UInt8>) -> NameMatch {
        let inLess = find(name: name, in: less)
        if inLess != .none { return inLess }
        return find(name: name, in: folio)
    }

    static func find(name: ArraySlice<UInt8>, in table: [OptionSpec]) -> NameMatch {
        var best: OptionID?
        var bestLength = 0
        var ambiguous = false
        var exact = false
        for spec in table {
            for optionName in spec.nameBytes {
                for uppercase in [false, true] {
                    let length = prefixLength(typed: name, name: optionName, uppercase: uppercase)
                    let next = name.index(name.startIndex, offsetBy: length)
                    if length == 0 || (next < name.endIndex && isOptionCharacter(name[next])) { continue }
                    if !exact && length == bestLength {
                        ambiguous = true
                    } else if length > bestLength {
                        best = spec.id
                        bestLength = length
                        ambiguous = false
                        exact = length == optionName.count
                    }
                    if spec.kind != .triple { break }
                }
            }
        }
        if ambiguous { return .ambiguous }
        guard let best else { return .none }
        return .found(best, length: bestLength)
    }

    /// less's `sprefix`: how many leading bytes of `typed` match `name`. With `uppercase`,
    /// `typed` must start with an upper-case letter and its letters are compared in lower
    /// case; a table name's letters after its first always compare in lower case.
    static func prefixLength(typed: ArraySlice<UInt8>, name: [UInt8], uppercase: Bool) -> Int {
        var length = 0
        var t = typed.startIndex
        for var n in name {
            var c: UInt8 = t < typed.endIndex ? typed[t] : 0
            if uppercase {
                if length == 0 && isLower(c) { return 0 }
                if isUpper(c) { c += 0x20 }
            }
            if length > 0 && isUpper(n) { n += 0x20 }
            if c != n { break }
            length += 1
            t += 1
        }
        return length
    }

    static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
    static func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
    static func isOptionCharacter(_ c: UInt8) -> Bool { isLower(c) || isUpper(c) || c == 0x2D }
}

/// One option: how it is written, how it takes a value, and what folio does with it.
public struct OptionSpec: Sendable {
    public let id: OptionID
    /// Its letter (`-S`); nil for an option with only a long name. A triple option's letter is
    /// its lower-case one; the upper-case letter is the option's other setting.
    public let letter: Character?
    /// Long names, the first the one shown (less's `--quiet` also answers to `--silent`).
    public let names: [String]
    public let kind: OptionKind
    /// less cannot change it while reading (`O_NO_TOGGLE`: `-X`, `-p`, `-k`…).
    public let fixedAtStart: Bool
    /// What the `-` command asks for a value option while reading (less's prompt).
    public let prompt: String?
    /// The value's name in `--help` and the man page.
    public let valueName: String?
    public let use: Use
    /// One line of `--help`.
    public let summary: String
    /// Left out of `--help` (an alias kept for old command lines).
    public let hidden: Bool
    let nameBytes: [[UInt8]]

    public enum Use: Equatable, Sendable {
        /// folio does what the option asks (for less's options, what less does).
        case used
        /// Accepted, with no effect in folio, for the reason given.
        case ignored(String)
    }

    /// How less names it in messages: `-b (--buffers)`, `--rscroll`; `upper`: a triple
    /// option's upper-case form (`-R (--RAW-CONTROL-CHARS)`).
    public func display(upper: Bool = false) -> String {
        let upper = upper && kind == .triple
        let name = upper ? names[0].uppercased() : names[0]
        if let letter { return "-\(upper ? letter.uppercased() : String(letter)) (--\(name))" }
        return "--\(name)"
    }

    init(_ id: OptionID, _ letter: Character?, _ names: [String], _ kind: OptionKind, fixed: Bool = false,
         prompt: String? = nil, value: String? = nil, _ use: Use, _ summary: String, hidden: Bool = false) {
        self.id = id
        self.letter = letter
        self.names = names
        self.kind = kind
        self.fixedAtStart = fixed
        self.prompt = prompt
        self.valueName = value
        self.use = use
        self.summary = summary
        self.hidden = hidden
        self.nameBytes = names.map { Array($0.utf8) }
    }
}

/// How an option takes its setting (less's option types).
public enum OptionKind: Equatable, Sendable {
    /// On, or back to the default with `-+`.
    case bool
    /// Three states: the lower-case letter (or name) sets one, the upper-case the other.
    case triple
    /// An integer (`-b64`, `-z-2`, `--window=10`).
    case number
    /// A string, read as `ValueSyntax` says.
    case string(ValueSyntax)
    /// Acts at once (`-V`, `-?`).
    case action
}

/// Where a string option's value ends (less's `optstring` with its valid characters): at
/// `$` or the end of the word always, and before the first character the syntax does not allow.
public enum ValueSyntax: String, Equatable, Sendable {
    /// Anything (`-P`, `-p`, `-t`): spaces included.
    case rest = ""
    /// Up to a space (`--color=xcolor`, `--intr`).
    case word = "s"
    /// Digits, optionally after `-` and `.` (`-j-5`, `-j.5`).
    case signedFraction = "-.d"
    /// Digits separated by commas (`-x4,8`, `--header=2,1`).
    case list = "d,"
    /// Digits, optionally after `.` (`-#8`, `-#.25`).
    case fraction = ".d"
}

/// Every option folio reads. Raw values name less's variable or folio's field, for tests and
/// messages; folio's own options start with `_` (they are no less option's).
public enum OptionID: String, CaseIterable, Sendable {
    // less, by letter.
    case searchSkipScreen, buffers, autoBuffers, clearScreen, dumb, color, quitAtEOF, force, quitIfOneScreen
    case hiliteSearch, maxBackScroll, ignoreCase, jumpTarget, statusColumn, lesskeyFile, quitOnIntr, noLessopen
    case longPrompt, lineNumbers, logFile, logFileOverwrite, pattern, prompt, quiet, rawControlChars
    case squeezeBlankLines, chopLongLines, tag, tagFile, underlineSpecial, version, hiliteUnread, tabs, noInit
    case maxForwScroll, window, quotes, tilde, help, shift
    // less, long names only.
    case lesskeySource, lesskeyContent, noKeypad, oldBot, followName, useBackslash, rscroll, noHistDups
    case mouse, emouse, rmouse, wheelLines, saveMarks, lineNumWidth, statusColWidth, incsearch, useColor
    case fileSize, statusLine, header, noPaste, formFeed, pastEOF, noEditWarn, noNumberHeaders
    case noSearchHeaders, noSearchHeaderLines, noSearchHeaderColumns, redrawOnQuit, searchOptions
    case exitFollowOnClose, modelines, noVbell, intr, wordwrap, showPreprocErrors, procBackspace, procTab
    case procReturn, firstCommand, matchShift, autosave, hiliteTarget, endPrompt
    // folio's own.
    case _print, _width, _maxWidth, _align, _theme, _plain, _overlap, _noScrollbar, _scrollbar, _smartCase
    case _caseSensitive, _literal, _searchWrap, _noSearchWrap, _restore, _noRestore, _forget, _markdown, _text, _noWatch
    case _completion, _noConfig, _showConfig, _showKeys, _dumpTheme, _darkTheme, _lightTheme, _images
}
