/// `folio --help`, made from the option table so that it lists every option folio reads.
public enum HelpText {
    public static var text: String {
        var out = """
            folio \(Options.version): a Markdown pager for the terminal. It reads like less,
            renders like a Markdown viewer, and stands in for less as PAGER, GIT_PAGER and
            MANPAGER.

            USAGE: folio [options] [+N | +/pattern | +G | +F] [file ...]

            Options are read as less reads them: from the config file
            ($XDG_CONFIG_HOME/folio/config, else ~/.config/folio/config), then $LESS, then
            $FOLIO, then the command line, which wins. Letters run together (-FRX); a value
            joins its letter or follows it (-j5, -j 5, --jump-target=5); long names may be
            abbreviated; -+X sets X back to its default; +cmd runs a command at the start.
            Keys: the lesskey source (LESSKEYIN, ~/.lesskey), then ~/.config/folio/keys.
            Themes: ~/.config/folio/themes/NAME.theme (--theme=NAME).

            less's options that folio follows:

            """
        let used = OptionTable.less.filter { $0.use == .used }
        let ignored = OptionTable.less.filter { $0.use != .used }
        for spec in used { out += entry(spec) }
        out += "\nfolio's own options:\n\n"
        for spec in OptionTable.folio where !spec.hidden { out += entry(spec) }
        out += "\nless's options folio accepts and ignores (why: folio(1)):\n\n"
        var items = ignored.map { usage($0).joined(separator: " ") + "," }
        items[items.count - 1].removeLast()
        out += wrap(items, indent: "  ")
        out += """

            Keys are less's: Space/b page with a one-line overlap, j/k line, g/G top/bottom,
            /pattern search, n/N next/previous, Tab selects links and headings, o opens the
            outline, -X changes option X while reading, q quits. Press h inside folio for
            the full list, or see folio(1).

            """
        return out
    }

    /// `  -j N, --jump-target=N` and the summary under it.
    static func entry(_ spec: OptionSpec) -> String {
        "  " + usage(spec).joined(separator: ", ") + "\n"
            + wrap(spec.summary.split(separator: " ").map(String.init), indent: "        ")
    }

    /// How to write it, with its value: `-j N`, `--jump-target=N`.
    static func usage(_ spec: OptionSpec) -> [String] {
        let value = spec.valueName
        var result: [String] = []
        if let letter = spec.letter {
            let letters = spec.kind == .triple ? ["\(letter)", letter.uppercased()] : ["\(letter)"]
            result += letters.map { "-" + $0 + (value.map { " " + $0 } ?? "") }
        }
        let names = spec.kind == .triple ? [spec.names[0], spec.names[0].uppercased()] : [spec.names[0]]
        result += names.map { "--" + $0 + (value.map { "=" + $0 } ?? "") }
        return result
    }

    /// `words` in lines of at most 80 columns after `indent`.
    static func wrap(_ words: [String], indent: String) -> String {
        var out = ""
        var line = indent
        for word in words {
            if line.count > indent.count && line.count + 1 + word.count > 80 {
                out += line + "\n"
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        return out + line + "\n"
    }
}
