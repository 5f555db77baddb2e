/// Every setting folio runs with, as `--show-config` lists it: one name (the option that sets
/// it, as written in a config file) and its value in words. Two `Options` with the same
/// settings behave the same; `Invocation` compares them source by source to say where each
/// setting came from.
extension Options {
    public var settings: [(name: String, value: String)] {
        func on(_ b: Bool) -> String { b ? "on" : "off" }
        func number(_ n: Int?, _ none: String) -> String { n.map(String.init) ?? none }
        let startText: String
        switch start {
        case nil: startText = "none"
        case .command(let c)?: startText = "+" + c
        case .pattern(let p)?: startText = "-p " + p
        }
        let jump: String
        switch jumpTarget {
        case nil: jump = "minimal (as little as needed)"
        case .row(let n)?: jump = "row \(n)"
        case .fraction(let f)?: jump = "\(f) of the screen"
        }
        let shiftText: String
        switch shift {
        case nil: shiftText = "half the width"
        case .columns(let n)?: shiftText = "\(n) columns"
        case .fraction(let f)?: shiftText = "\(f) of the width"
        }
        return [
            ("--color", color.rawValue),
            ("--theme", themeName ?? theme.rawValue),
            ("--dark-theme", darkTheme ?? "dark (built in)"),
            ("--light-theme", lightTheme ?? "light (built in)"),
            ("--plain", on(plain)),
            ("--print", on(print)),
            ("--width", number(width, "the terminal's (else 80)")),
            ("--max-width", maxWidth.map { $0 == 0 ? "0 (the whole width)" : String($0) } ?? "\(Options.defaultMaxWidth)"),
            ("--align", align.rawValue),
            ("--images", images.rawValue),
            ("--markdown/--text", kind.map { $0 == .markdown ? "markdown" : "text" } ?? "by name and content"),
            ("--scrollbar", scrollbar.map { $0 ? "always" : "never" } ?? "Markdown only"),
            ("--overlap", number(overlap, "1")),
            ("-z/--window", number(window, "the screen")),
            ("-j/--jump-target", jump),
            ("-i/-I/--case-sensitive", searchCase == .smart ? "smart case" : searchCase == .insensitive ? "ignore case" : "match case"),
            ("--literal", on(literal)),
            ("--search-wrap", on(searchWraps)),
            ("-a/--search-skip-screen", on(searchSkipsScreen)),
            ("-g/-G/--hilite-search", highlight == .all ? "every match" : highlight == .current ? "the current match" : "none"),
            ("--restore", restore.rawValue),
            ("-S/--chop-long-lines", on(chopLongLines)),
            ("-x/--tabs", number(tabs, "8")),
            ("-#/--shift", shiftText),
            ("-N/--line-numbers", on(lineNumbers)),
            ("--mouse", on(mouse)),
            ("-X/--no-init", on(noInit)),
            ("-F/--quit-if-one-screen", on(quitIfOneScreen)),
            ("-e/-E/--quit-at-eof", quitAtEOF == .never ? "never" : quitAtEOF == .atEnd ? "at the end (-E)" : "past the end (-e)"),
            ("-K/--quit-on-intr", on(quitOnInterrupt)),
            ("-f/--force", on(force)),
            ("-L/--no-lessopen", on(noLessOpen)),
            ("--follow-name", on(followName)),
            ("--no-watch", on(noWatch)),
            ("+cmd/-p", startText),
        ]
    }
}
