import ArgumentParser
import Pager

/// The command lines a pager gets most — `cmd | folio`, git's `LESS=FRX`, `folio FILE`, man's
/// `MANPAGER=folio` — are only operands and flags without values. They are parsed here, by
/// hand: ArgumentParser builds its argument tree by reflection, which costs about 4 ms of CPU
/// at every start (most of a pipe's first screen, measured with perf). Anything else (an
/// option with a value, `--help`, an unknown flag) returns nil and goes to ArgumentParser,
/// which also words the errors. Debug builds check every quick parse against
/// ArgumentParser's (`Folio.main`), so every end-to-end test checks that they agree.
enum QuickArguments {
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        // Every field is set (ArgumentParser's wrappers trap when read unset).
        options.files = []
        options.print = false
        options.width = nil
        options.color = .auto
        options.plain = false
        options.noInit = false
        options.quitIfOneScreen = false
        options.overlap = nil
        options.window = nil
        options.jumpTarget = nil
        options.noScrollbar = false
        options.mouse = false
        options.smartCase = false
        options.ignoreCase = false
        options.literal = false
        options.pattern = nil
        options.noRestore = false
        options.forget = false
        options.markdown = false
        options.text = false
        options.chopLongLines = false
        options.tabs = nil
        options.lineNumbers = false
        options.followName = false
        options.noWatch = false
        options.theme = .auto
        options.maxWidth = nil
        options.align = .left
        var files: [String] = []
        var operandsOnly = false
        for argument in arguments {
            if operandsOnly || argument == "-" || !argument.hasPrefix("-") {
                files.append(argument)
            } else if argument == "--" {
                operandsOnly = true
            } else if argument.hasPrefix("--") {
                guard setLong(argument.dropFirst(2), in: &options) else { return nil }
            } else {
                for c in argument.dropFirst() {
                    guard setShort(c, in: &options) else { return nil }
                }
            }
        }
        options.files = files
        return options
    }

    /// The short flags this parser takes, each the same as a long one (a list, not a
    /// dictionary: no hashing set up at every start for eight flags).
    static let shortNames: [(short: Character, long: Substring)] = [
        ("X", "no-init"), ("F", "quit-if-one-screen"), ("i", "smart-case"), ("I", "ignore-case"),
        ("M", "markdown"), ("T", "text"), ("S", "chop-long-lines"), ("N", "line-numbers"),
    ]

    private static func setShort(_ c: Character, in o: inout Options) -> Bool {
        guard let name = shortNames.first(where: { $0.short == c })?.long else { return false }
        return setLong(name, in: &o)
    }

    private static func setLong(_ name: Substring, in o: inout Options) -> Bool {
        switch name {
        case "print": o.print = true
        case "plain": o.plain = true
        case "no-init": o.noInit = true
        case "quit-if-one-screen": o.quitIfOneScreen = true
        case "no-scrollbar": o.noScrollbar = true
        case "mouse": o.mouse = true
        case "smart-case": o.smartCase = true
        case "ignore-case": o.ignoreCase = true
        case "literal": o.literal = true
        case "no-restore": o.noRestore = true
        case "forget": o.forget = true
        case "markdown": o.markdown = true
        case "text": o.text = true
        case "chop-long-lines": o.chopLongLines = true
        case "line-numbers": o.lineNumbers = true
        case "follow-name": o.followName = true
        case "no-watch": o.noWatch = true
        default:
            // `--name=value` for the few options a user sets in `$FOLIO` or an alias
            // (`--theme=light`); a bad value goes to ArgumentParser, which words the error.
            guard let eq = name.firstIndex(of: "=") else { return false }
            let value = String(name[name.index(after: eq)...])
            switch name[..<eq] {
            case "theme": guard let t = ThemeChoice(rawValue: value) else { return false }; o.theme = t
            case "color": guard let c = ColorChoice(rawValue: value) else { return false }; o.color = c
            case "align": guard let a = Alignment(rawValue: value) else { return false }; o.align = a
            case "max-width":
                guard let n = Int(value), (0...Options.widthRange.upperBound).contains(n) else { return false }
                o.maxWidth = n
            default: return false
            }
        }
        return true
    }
}

extension Options {
    /// Every field, for comparing two parses.
    var summary: String {
        "\(files) \(print) \(String(describing: width)) \(color) \(plain) \(noInit) \(quitIfOneScreen) "
            + "\(String(describing: overlap)) \(String(describing: window)) \(String(describing: jumpTarget)) "
            + "\(noScrollbar) \(mouse) \(smartCase) \(ignoreCase) \(literal) \(String(describing: pattern)) "
            + "\(noRestore) \(forget) \(markdown) \(text) \(chopLongLines) \(String(describing: tabs)) "
            + "\(lineNumbers) \(followName) \(noWatch) \(theme) \(String(describing: maxWidth)) \(align)"
    }
}
