import MarkdownModel

extension PagerState {
    /// `h`: the key reference, a Markdown document of the session opened as a followed link
    /// is: the place it was opened from goes on the back stack, and Backspace (or `q`, `h`,
    /// Esc, Ctrl-C: `leaveHelp`) comes back to it. It opens at its top each time, made again
    /// from the text and the user's key bindings (as every opening did when it was a
    /// separate view: its marks, filter and `''` do not outlive it).
    ///
    /// Where the help is not a file like the others (`DocumentState.isHelp`): it is not in
    /// the file list (`:n`, `:p`, `:x`, `/*`, `file 2/3`), no reading position is kept for it
    /// (the session gives it an input slot with nothing to read), `#` never names it, it has
    /// no input to edit, save, pipe or follow (`v`, `s`, `|`, `F`), `-e`/`-E` never leave it,
    /// and the keys that quit a file leave it instead.
    mutating func openHelp() -> [PagerEffect] {
        let text = PagerState.helpMarkdown + PagerState.userKeysMarkdown(config.keyBindings)
        var help = DocumentState(name: "help", path: nil, document: MarkdownParser.parse(text),
                                 options: layoutOptions(isText: false), contentRows: contentRows)
        help.isHelp = true
        if active.isHelp {
            // `-?` inside the help: the help again, from its top.
            documents[current] = help
            selection = nil
            search?.forgetPosition()
            return []
        }
        pushBack()
        let index: Int
        if let open = documents.firstIndex(where: \.isHelp) {
            index = open
            documents[index] = help
        } else {
            index = documents.count
            documents.append(help)  // documents are only ever appended; never in the file list
        }
        return switchTo(index)
    }

    /// Leaves the help for the place it was opened from: less's `q` in its help returns to
    /// the file (only `q` in a file quits), so `q`, `h`, Esc and Ctrl-C come back from the
    /// help however deep the reader went in it, and the commands on the file list (`:n`,
    /// `:p`, `:x`, `:d`, `:e`) start from that file. Backspace goes back one step, as
    /// after any link (a heading of the help followed from its contents, then the file).
    /// Nothing outside the help.
    mutating func leaveHelp() -> [PagerEffect] {
        guard active.isHelp else { return [] }
        // The help's own jumps, then the entry its opening pushed.
        while let last = backStack.last, last.document == current { backStack.removeLast() }
        // (Two hundred jumps inside the help pushed that entry out: the first file, then.)
        if backStack.isEmpty { return switchTo(fileList.first ?? 0) }
        return goBack()
    }

    /// The user's key bindings (lesskey, folio's keys file) as a section of the help, each with
    /// the file and line that set it; nothing without any.
    static func userKeysMarkdown(_ bindings: KeyBindings) -> String {
        guard !bindings.isEmpty else { return "" }
        func cell(_ text: String) -> String {
            let escaped = text.replacingPipes()
            return text.contains("`") ? "`` " + escaped + " ``" : "`" + escaped + "`"
        }
        var out = "\n## Your key bindings\n\nThese come first; `folio --show-keys` lists every key.\n"
        if let stop = bindings.stop { out += "`#stop` (\(stop.replacingPipes())): no other key works but Ctrl-C.\n" }
        out += "\n| Keys | Action | Set in |\n|---|---|---|\n"
        for entry in bindings.effective {
            out += "| \(cell(KeyBindings.notation(entry.keys))) | \(ShowKeys.describe(entry).replacingPipes()) | \(entry.origin.replacingPipes()) |\n"
        }
        return out
    }

    public static let helpMarkdown = """
    # folio — keys

    folio reads like `less`. A number typed before a key is its count: `5j`, `3 Space`, `40%`, `12g`.
    `Esc u` is Esc then `u` within half a second, or Alt-`u`. Press `q`, `h` or `Esc` to leave
    this help.

    ## Moving

    | Keys | Action |
    |---|---|
    | `j` `e` `J` `↓` `Enter` `^N` `^E` | one line down (N lines) |
    | `k` `y` `K` `Y` `↑` `^P` `^Y` `^K` | one line up (N lines) |
    | `Space` `f` `^F` `^V` `Esc Space` `PgDn` | one page down; a page keeps one row of the last (N lines) |
    | `b` `^B` `Esc v` `PgUp` | one page up (N lines) |
    | `z` / `w` | page down / up; N sets the page size |
    | `d` `^D` / `u` `^U` | half a page down / up; N sets the half-page size |
    | `g` `<` `Home` | top; `Ng` goes to source line N |
    | `G` `>` `End` | bottom; `NG` goes to source line N |
    | `Esc G` | the end of what has arrived, without reading on |
    | `N%` `Np` | N percent into the document (text: of its bytes, as in less; Markdown: of its rows) |
    | `]]` / `[[` | next / previous heading |
    | `{` `(` / `}` `)` | to the bracket matching the one on the top line / the bottom line (`[` `]` too in text; `Esc ^F` `Esc ^B` then two characters: any pair) |
    | mouse wheel | three lines a notch |

    ## Marks and going back

    | Keys | Action |
    |---|---|
    | `m` letter / `M` letter | mark the top line / the bottom line |
    | `'` letter, `^X ^X` letter | return to a mark (`'^` `'$`: top, bottom) |
    | `Esc m` letter | clear a mark |
    | `''` | back to where you were before the last jump |
    | `Backspace` `Esc ←` | back to where the last followed link or outline jump came from |

    ## Searching

    | Keys | Action |
    |---|---|
    | `/pattern` | search forward (a regular expression; `^R` at the prompt: literal text) |
    | `?pattern` | search backward |
    | `n` / `N` | next / previous match (`3n`: the third) |
    | `Esc n` / `Esc N` | next / previous match, on into the other files |
    | `&pattern` / `&!pattern` | show only the lines (blocks) that match / that do not; `&` alone shows all |
    | `Esc u` | highlighting on / off |
    | `Esc U` | highlighting off, pattern forgotten |

    Typed first at the prompt, as in less: `!` lines that do not match, `*` on into the next
    files (`Esc /` starts so), `@` from the first file, `^K` highlight without moving, `^W`
    wrap round the file, `^R` literal text.

    Matching ignores case unless the pattern has a capital letter. The view moves only as far
    as needed to show a match. At the prompt: `←` `→` `Home` `End` `^U` `^W` edit, `↑` `↓`
    recall earlier patterns, `Esc` cancels and returns the view to where it was.

    ## Links and headings

    | Keys | Action |
    |---|---|
    | `Tab` `^O ^N` | select the next link or heading |
    | `Shift-Tab` `^O ^P` | select the previous link or heading |
    | `Enter` | follow the selected link (`#anchors`, local Markdown files, URLs in the browser) |
    | `Esc` | clear the selection |
    | `o` | outline: `j` `k` `Tab` move, type to filter, `Enter` jumps, `Esc` `q` close |

    With `--mouse`: click a link to select it, click again to follow it; drag to select text and
    copy it (past the top or bottom edge the view scrolls).

    ## Files and the screen

    | Keys | Action |
    |---|---|
    | `:n` / `:p` / `:x` | next / previous / first file |
    | `:e` file | open a file (`Tab` completes the name) |
    | `:d` | take this file out of the list |
    | `v` | edit the file in `$VISUAL` / `$EDITOR` at the line on top; folio reloads it and keeps your place |
    | `!`cmd / `!!` | run a shell command (`%`: this file) / the last one again |
    | `\\|` mark cmd | pipe the lines from the mark to the screen to a command (`\\|.`: the screen) |
    | `s` file | save piped input to a file (never over one unasked) |
    | `=` `^G` `:f` | where am I: name, source lines, position |
    | `F` | follow the end as it grows; any key stops |
    | `Esc F` | the same, until a line matching the search arrives |
    | `→` `←` `Esc )` `Esc (` | scroll chopped text and wide tables (`-S`) sideways |
    | `Esc }` `^→` / `Esc {` `^←` | to the end of the longest line on screen / back to the first column |
    | `-x` | change option x as in less: `-N` `-n` line numbers, `-S` chop long lines, `-i` `-I` case, `-j` `-z` `-#` ask for a value, `-K` `-e` `-E` `-g` `-G` `-a` |
    | `-+x` / `_x` | option x back to its default / show its setting; `--name`, `__name` by name |
    | `r` `^L` | repaint the screen |
    | `h` `H` | this help |
    | `V` | folio's version |
    | `^Z` | suspend (`fg` resumes) |
    | `q` `Q` `ZZ` `:q` | quit |
    | `^C` | stop a search or reading on; quits only with `-K`, as in less |

    folio remembers where you were in every document and reopens it there.
    """
}

extension String {
    /// `|` escaped for a cell of a Markdown table.
    func replacingPipes() -> String {
        var out = ""
        for c in self { if c == "|" { out += "\\|" } else { out.append(c) } }
        return out
    }
}
