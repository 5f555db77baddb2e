import LessOptions
import TerminalScreen

/// folio's built-in keys written as a lesskey file, with less's action names where less has
/// the action and folio's own names otherwise: what `folio --show-keys` lists under the
/// user's bindings, and a starting point for a keys file. (The keymap itself is
/// `KeyInterpreter`; DefaultKeysTests checks that each line here does there what its action
/// does.) `Enter` also follows a selected link, and in text documents `[` and `]` are the
/// bracket commands, in Markdown `[[` and `]]` the heading keys.
public enum DefaultKeys {
    public static let source = #"""
        #command
        j       forw-line
        e       forw-line
        J       forw-line-force
        \kd     forw-line
        \r      forw-line
        ^N      forw-line
        ^E      forw-line
        k       back-line
        y       back-line
        K       back-line-force
        Y       back-line-force
        \ku     back-line
        ^P      back-line
        ^Y      back-line
        ^K      back-line
        \40     forw-screen
        f       forw-screen
        ^F      forw-screen
        ^V      forw-screen
        \kD     forw-screen
        \e\40   forw-screen-force
        b       back-screen
        ^B      back-screen
        \kU     back-screen
        \ev     back-screen
        z       forw-window
        w       back-window
        d       forw-scroll
        ^D      forw-scroll
        u       back-scroll
        ^U      back-scroll
        g       goto-line
        <       goto-line
        \kh     goto-line
        \e<     goto-line
        G       goto-end
        >       goto-end
        \ke     goto-end
        \e>     goto-end
        \eG     goto-end-buffered
        %       percent
        p       percent
        F       forw-forever
        \eF     forw-until-hilite
        m       set-mark
        M       set-mark-bottom
        \em     clear-mark
        '       goto-mark
        ^X^X    goto-mark
        /       forw-search
        ?       back-search
        \e/     forw-search-all
        \e?     back-search-all
        n       repeat-search
        N       reverse-search
        \en     repeat-search-all
        \eN     reverse-search-all
        &       filter
        \eu     undo-hilite
        \eU     clear-search
        {       forw-bracket {}
        }       back-bracket {}
        (       forw-bracket ()
        )       back-bracket ()
        \e^F    forw-bracket
        \e^B    back-bracket
        \kr     right-scroll
        \e)     right-scroll
        \kl     left-scroll
        \e(     left-scroll
        \kR     end-scroll
        \e}     end-scroll
        \kL     no-scroll
        \e{     no-scroll
        \t      next-link
        ^On     next-link
        ^O^N    next-link
        \kt     prev-link
        ^Op     prev-link
        ^O^P    prev-link
        \b      back
        \e\kl   back
        \e      clear-selection
        o       outline
        ]]      next-heading
        [[      prev-heading
        =       status
        ^G      status
        :f      status
        V       version
        h       help
        H       help
        \k1     help
        r       repaint
        ^L      repaint
        ^R      repaint
        R       repaint-flush
        :n      next-file
        :p      prev-file
        :x      index-file
        :d      remove-file
        E       examine
        :e      examine
        ^X^V    examine
        s       save-input
        !       shell
        |       pipe
        v       visual
        -       toggle-option
        _       display-option
        ^Z      suspend
        q       quit
        Q       quit
        :q      quit
        :Q      quit
        ZZ      quit
        """#

    /// The built-in keys as bindings (origin `built-in`).
    public static var bindings: KeyBindings {
        var b = KeyBindings()
        var file = Lesskey(name: "built-in", text: source)
        file.folioActions = true
        b.add(file)
        return b
    }
}

/// `folio --show-keys`: every key in effect, its action and where it was set.
public enum ShowKeys {
    /// `files`: the key files looked for, each with what became of it (`read`, `not found`).
    public static func text(_ user: KeyBindings, files: [String], lineEdits: KeyBindings = KeyBindings()) -> String {
        var out = "# folio's key bindings (folio --show-keys): keys in lesskey's notation, the action, where set\n"
        for file in files { out += "# \(file)\n" }
        let own = user.effective
        let ownKeys = Set(own.map(\.keys))
        var rows: [(String, String, String)] = own.map { (KeyBindings.notation($0.keys), describe($0), $0.origin) }
        if let stop = user.stop {
            out += "# #stop at \(stop): no built-in key but Ctrl-C\n"
        } else {
            // A built-in key a user's sequence starts with is taken by it too.
            for entry in DefaultKeys.bindings.effective where !ownKeys.contains(entry.keys)
                && !own.contains(where: { $0.keys.count > entry.keys.count && Array($0.keys.prefix(entry.keys.count)) == entry.keys })
                && !own.contains(where: { $0.keys.count < entry.keys.count && Array(entry.keys.prefix($0.keys.count)) == $0.keys }) {
                rows.append((KeyBindings.notation(entry.keys), describe(entry), "built-in"))
            }
        }
        let width = max(8, rows.map(\.0.count).max() ?? 0)
        let actionWidth = rows.map(\.1.count).max() ?? 0
        for (keys, action, origin) in rows {
            out += keys.padding(width) + "  " + action.padding(actionWidth) + "  " + origin + "\n"
        }
        if !lineEdits.isEmpty {
            out += "#line-edit\n"
            if let stop = lineEdits.stop { out += "# #stop at \(stop): the prompt's own editing keys are off\n" }
            for entry in lineEdits.effective {
                out += KeyBindings.notation(entry.keys).padding(width) + "  " + entry.actionName.padding(actionWidth) + "  " + entry.origin + "\n"
            }
        }
        return out
    }

    static func describe(_ entry: KeyBindings.Entry) -> String {
        var text = entry.actionName
        if case .command(.matchBracket(let open, let close, _)) = entry.action { text += " \(open)\(close)" }
        if !entry.extra.isEmpty { text += " " + KeyBindings.notation(entry.extra) }
        return text
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
