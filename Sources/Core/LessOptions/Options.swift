/// What folio was asked to do: the settings of `$LESS`, `$FOLIO` and the command line, in that
/// order (a later one wins). Defaults are folio's; where one differs from less's, an option
/// switches it (`--overlap=0`, `--case-sensitive`, `--no-search-wrap`, `--restore=never`,
/// `--max-width=0`, `--no-watch`, `--no-scrollbar`, `--text`, `--color=never`).
public struct Options: Equatable, Sendable {
    public var files: [String] = []
    /// `+cmd` and `-p`, the last one given.
    public var start: StartRequest?
    public var print = false
    public var width: Int?
    public var color: ColorChoice = .auto
    public var theme: ThemeChoice = .auto
    public var plain = false
    public var noInit = false
    public var quitIfOneScreen = false
    public var overlap: Int?
    public var window: Int?
    public var jumpTarget: JumpTarget?
    /// `--scrollbar` / `--no-scrollbar` (nil: Markdown only).
    public var scrollbar: Bool?
    public var mouse = false
    public var searchCase: SearchCase = .smart
    public var literal = false
    public var searchWraps = false
    public var restore: RestorePolicy = .documents
    public var forget = false
    public var kind: ForcedKind?
    public var chopLongLines = false
    public var tabs: Int?
    public var lineNumbers = false
    public var followName = false
    public var noWatch = false
    public var maxWidth: Int?
    public var align: Alignment = .left
    public var images: ImageMode = .auto
    /// `-K`: Ctrl-C quits.
    public var quitOnInterrupt = false
    public var quitAtEOF: QuitAtEOF = .never
    public var highlight: MatchHighlight = .all
    /// `-a`: a search starts past the screen.
    public var searchSkipsScreen = false
    /// `-#`: what `→` `←` move (nil: half the width).
    public var shift: HorizontalShift?
    /// `-V`/`--version`, `-?`/`--help` (from the command line only).
    /// `-f`: a file that looks binary is shown without the question.
    public var force = false
    /// `-L`: `$LESSOPEN` is not used.
    public var noLessOpen = false
    public var showVersion = false
    public var showHelp = false
    /// `--completion=SHELL` (from the command line only).
    public var completion: Completions.Shell?
    /// `--theme=NAME` naming a theme file (`theme` is then its appearance, once read).
    public var themeName: String?
    /// `--dark-theme`, `--light-theme`: theme files for each background.
    public var darkTheme: String?
    public var lightTheme: String?
    /// `--no-config`: no config file, key bindings or theme file.
    public var noConfig = false
    /// `--show-config`, `--show-keys`, `--dump-theme=NAME` (from the command line only).
    public var showConfig = false
    public var showKeys = false
    public var dumpTheme: String?
    /// The user's key files (lesskey, folio's keys), read at the start; the pager's bindings
    /// are made from them.
    public var keyFiles: [Lesskey] = []

    public init() {}

    public static let version = "0.1.0"

    /// Prose is capped at 100 columns unless told otherwise: lines much longer than ~100
    /// characters are hard to follow back to their start, and terminals of 100 columns or
    /// fewer (most) see no change. Left-aligned by default, where a pager's text always is.
    public static let defaultMaxWidth = 100
    /// The cap to lay out with (nil: none).
    public var proseWidth: Int? {
        let n = maxWidth ?? Options.defaultMaxWidth
        return n > 0 ? n : nil
    }

    public static let widthRange = 1...10_000
    public static let rowRange = 0...10_000

    /// Takes one setting; returns what is wrong with it (nothing changes then). Numbers a
    /// user can mistype by orders of magnitude are checked here, once, with the valid range in
    /// the message (`--width 0`, `-z99999999`): nothing past this point has to guard against
    /// overflow or absurd allocations. `fromCommandLine`: `-V` and `--help` act only there.
    public mutating func apply(_ setting: OptionScanner.Setting, fromCommandLine: Bool = true) -> String? {
        let form = setting.form
        /// A bool option's new value: set, or its default (false) again.
        var on: Bool { form != .reset }
        switch setting.option {
        case .quitIfOneScreen: quitIfOneScreen = on
        case .force: force = on
        case .noLessopen: noLessOpen = on
        case .noInit: noInit = on
        case .chopLongLines: chopLongLines = on
        case .quitOnIntr: quitOnInterrupt = on
        case .followName: followName = on
        case ._print: print = on
        case ._plain: plain = on
        case ._noScrollbar: scrollbar = on ? false : nil
        case ._scrollbar: scrollbar = on ? true : nil
        case ._literal: literal = on
        case ._noSearchWrap: searchWraps = !on
        case ._searchWrap: searchWraps = on
        case ._forget: forget = on
        case ._noWatch: noWatch = on
        case ._markdown: kind = on ? .markdown : nil
        case ._text: kind = on ? .text : nil
        case ._noRestore: restore = on ? .never : .documents
        case ._smartCase: searchCase = .smart
        case ._caseSensitive: searchCase = on ? .sensitive : .smart
        case .mouse: mouse = on
        case .ignoreCase:
            // less's -i is smart case, -I ignores case always; folio's default is -i.
            searchCase = Triple.state(form, lessDefault: .off).map { [.sensitive, .smart, .insensitive][$0.rawValue] } ?? .smart
        case .lineNumbers:
            // less's -n turns line numbers off, -N shows them.
            lineNumbers = Triple.state(form, lessDefault: .on) == .onPlus
        case .quitAtEOF:
            quitAtEOF = Triple.state(form, lessDefault: .off).map { [.never, .atSecondEnd, .atEnd][$0.rawValue] } ?? .never
        case .hiliteSearch:
            highlight = Triple.state(form, lessDefault: .onPlus).map { [.none, .current, .all][$0.rawValue] } ?? .all
        case .searchSkipScreen:
            // -a skips the screen; -A (less: from the target line) starts as the default does.
            searchSkipsScreen = Triple.state(form, lessDefault: .onPlus) == .on
        case .version: if fromCommandLine { showVersion = true }
        case .help: if fromCommandLine { showHelp = true }
        case .pattern:
            if case .value(let p) = form { start = .pattern(p) }
        case .jumpTarget:
            guard case .value(let text) = form else { return nil }
            guard let target = JumpTarget(text) else {
                return "-j/--jump-target expects a row (1...10000, negative counts from the bottom) or a fraction such as .5 (got '\(text)')"
            }
            jumpTarget = target
        case .window:
            guard case .number(let n) = form else { return nil }
            if let e = Self.check("-z/--window", n, in: -Self.rowRange.upperBound...Self.rowRange.upperBound) { return e }
            window = n
        case .tabs:
            // The first stop of a list (`-x4,8`); 0 or nothing keeps the default, as in less.
            guard case .value(let text) = form else { return nil }
            if let n = Int(text.prefix { $0 != "," }), n > 0 { tabs = n }
        case .shift:
            guard case .value(let text) = form else { return nil }
            guard let s = HorizontalShift(text) else {
                return "-#/--shift expects columns (0...10000) or a fraction such as .5 (got '\(text)')"
            }
            shift = s
        case .color:
            // folio's --color=auto|always|never; any other value is less's colour description.
            if case .value(let text) = form, let c = ColorChoice(rawValue: text) { color = c }
        case .searchOptions:
            guard case .value(let text) = form else { return nil }
            if text.contains("R") { literal = true }
            if text.contains("W") { searchWraps = true }
        case ._width:
            guard case .number(let n) = form else { return nil }
            if let e = Self.check("--width", n, in: Self.widthRange) { return e }
            width = n
        case ._overlap:
            guard case .number(let n) = form else { return nil }
            if let e = Self.check("--overlap", n, in: Self.rowRange) { return e }
            overlap = n
        case ._maxWidth:
            guard case .number(let n) = form else { return nil }
            if let e = Self.check("--max-width", n, in: 0...Self.widthRange.upperBound) { return e }
            maxWidth = n
        case ._completion:
            guard case .value(let text) = form, fromCommandLine else { return nil }
            guard let shell = Completions.Shell(rawValue: text) else {
                return "--completion expects bash, zsh or fish (got '\(text)')"
            }
            completion = shell
        case ._theme:
            guard case .value(let text) = form else { return nil }
            if let t = ThemeChoice(rawValue: text) {
                theme = t
                themeName = nil
            } else {
                guard Self.isThemeName(text) else {
                    return "--theme expects auto, dark, light or a theme file's name (got '\(text)')"
                }
                themeName = text
                theme = .dark
            }
        case ._darkTheme, ._lightTheme:
            guard case .value(let text) = form else { return nil }
            let name = setting.option == ._darkTheme ? "--dark-theme" : "--light-theme"
            guard Self.isThemeName(text) || ThemeChoice(rawValue: text) != nil else {
                return "\(name) expects a theme file's name (got '\(text)')"
            }
            let value = ThemeChoice(rawValue: text) == nil ? text : nil  // `dark`, `light`: the built-in
            if setting.option == ._darkTheme { darkTheme = value } else { lightTheme = value }
        case ._dumpTheme:
            guard case .value(let text) = form, fromCommandLine else { return nil }
            guard Self.isThemeName(text) else { return "--dump-theme expects dark, light or a theme file's name (got '\(text)')" }
            dumpTheme = text
        case ._noConfig: noConfig = on
        case ._showConfig: if fromCommandLine { showConfig = on }
        case ._showKeys: if fromCommandLine { showKeys = on }
        case ._images:
            guard case .value(let text) = form else { return nil }
            guard let m = ImageMode(rawValue: text) else {
                return "--images expects auto, kitty, sixel, iterm, blocks or off (got '\(text)')"
            }
            images = m
        case ._align:
            guard case .value(let text) = form else { return nil }
            guard let a = Alignment(rawValue: text) else { return "--align expects left or center (got '\(text)')" }
            align = a
        case ._restore:
            guard case .value(let text) = form else { return nil }
            guard let r = RestorePolicy(rawValue: text) else {
                return "--restore expects documents, all or never (got '\(text)')"
            }
            restore = r
        default:
            // Accepted, with no effect in folio (`OptionSpec.use` says why).
            break
        }
        return nil
    }

    /// A theme file's name: letters, digits, `-`, `_` and `.`, not starting with `.` (no
    /// path: themes live in one folder).
    public static func isThemeName(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic || ("0"..."9").contains($0)) || "-_.".unicodeScalars.contains($0) }
    }

    static func check(_ name: String, _ value: Int, in range: ClosedRange<Int>) -> String? {
        range.contains(value) ? nil : "\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(value))"
    }
}

/// less's three-state options: off, on (the lower-case letter) and on-plus (the upper-case).
public enum Triple: Int, Sendable {
    case off, on, onPlus

    /// The state a setting read at start leaves: the lower-case form turns less's default
    /// to on (or off when it is on already), the upper-case to on-plus (or off when that is
    /// the default), as less's `flip_triple`; nil for `-+x` (folio's default).
    static func state(_ form: OptionScanner.Setting.Form, lessDefault: Triple) -> Triple? {
        switch form {
        case .on: return lessDefault.flipped(lowerCase: true)
        case .onPlus: return lessDefault.flipped(lowerCase: false)
        default: return nil
        }
    }

    /// less's `flip_triple`: the lower-case letter toggles on, the upper-case on-plus.
    public func flipped(lowerCase: Bool) -> Triple {
        if lowerCase { return self == .on ? .off : .on }
        return self == .onPlus ? .off : .onPlus
    }
}

/// A `+cmd` or `-p` to run once the first document is open.
public enum StartRequest: Equatable, Sendable {
    /// `+cmd` (`+G`, `+/x`, `+42`) as written, without the `+`.
    case command(String)
    /// `-p pattern`.
    case pattern(String)
}

public enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

public enum ThemeChoice: String, CaseIterable, Hashable, Sendable {
    case auto, dark, light
}

public enum Alignment: String, CaseIterable, Sendable {
    case left, center
}

/// How Markdown images show (`--images`): `auto` picks the best the terminal answers to
/// (kitty's graphics, sixel), else coloured block characters; `off` shows each image as its
/// caption, `[image: alt]`.
public enum ImageMode: String, CaseIterable, Sendable {
    case auto, kitty, sixel, iterm, blocks, off
}

public enum SearchCase: Equatable, Sendable {
    case sensitive, smart, insensitive
}

/// What `--restore` reopens where it was left.
public enum RestorePolicy: String, CaseIterable, Sendable {
    /// Files and piped Markdown (the default; piped text opens at the top).
    case documents
    /// Piped text too.
    case all
    case never
}

public enum ForcedKind: Equatable, Sendable {
    case markdown, text
}

/// `-e` / `-E`.
public enum QuitAtEOF: Equatable, Sendable {
    case never
    /// `-e`: a forward move at the end of the last document quits (of another, goes to the next).
    case atSecondEnd
    /// `-E`: reaching the end quits.
    case atEnd
}

/// `-g` / `-G`: which matches of the last search are highlighted.
public enum MatchHighlight: Equatable, Sendable {
    case all, current, none
}

extension Options {
    /// less's fraction notation for `-j` and `-#`: `.5` is half; `.` alone or any other
    /// character is no fraction.
    static func fraction(_ text: String) -> Double? {
        guard text.hasPrefix("."), text.count > 1, text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Double("0" + text)
    }
}

/// less's `-j` argument: a row (`5`, `-5`: from the bottom) or a fraction of the screen (`.5`).
public enum JumpTarget: Equatable, Sendable {
    case row(Int)
    case fraction(Double)

    /// nil when it is neither or out of range (rows beyond 10,000).
    public init?(_ text: String) {
        if text.hasPrefix(".") {
            guard let f = Options.fraction(text) else { return nil }
            self = .fraction(f)
            return
        }
        guard let n = Int(text), abs(n) <= Options.rowRange.upperBound else { return nil }
        self = .row(n)
    }
}

/// less's `-#` argument: columns, or a fraction of the width (`.5`); 0 is the default, half.
public enum HorizontalShift: Equatable, Sendable {
    case columns(Int)
    case fraction(Double)

    public init?(_ text: String) {
        if text.hasPrefix(".") {
            guard let f = Options.fraction(text) else { return nil }
            self = .fraction(f)
            return
        }
        guard let n = Int(text), Options.rowRange.contains(n) else { return nil }
        self = n == 0 ? .fraction(0.5) : .columns(n)
    }

    /// Columns to move on a screen `width` columns wide: at least 1.
    public func columns(width: Int) -> Int {
        switch self {
        case .columns(let n): return max(1, n)
        case .fraction(let f): return max(1, Int(Double(width) * f))
        }
    }
}
