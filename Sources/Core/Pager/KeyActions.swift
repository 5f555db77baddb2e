import TerminalScreen

/// What a bound key does (`KeyBindings`).
public enum BoundAction: Hashable, Sendable {
    case command(Command)
    /// Keys typed into folio's own keymap: a command that reads more keys (`set-mark` is `m`,
    /// then the mark's letter).
    case keys([Key])
    /// less's `digit`: the key is a digit of the count.
    case digit
    /// less's `invalid`: the key does nothing and says so.
    case invalid
    /// less's `noaction`: nothing but the extra keys, if any.
    case nothing
}

/// The actions a key file may name: less's (lesskey(1)'s `#command` names, which a lesskey
/// file may use) and folio's own, named in the same style (only in folio's `keys` file, since
/// less would reject them in its own).
public enum KeyActions {
    /// less's action names folio carries out, and what each does in folio.
    public static let less: [String: BoundAction] = [
        "back-bracket": .keys([.alt(.ctrl("b"))]),
        "back-line": .command(.lineUp),
        "back-line-force": .command(.lineUp),
        "back-screen": .command(.pageUp),
        "back-scroll": .command(.halfUp),
        "back-search": .command(.searchBackward),
        "back-window": .command(.windowUp),
        "clear-mark": .keys([.alt(.char("m"))]),
        "clear-search": .command(.clearSearch),
        "digit": .digit,
        "display-flag": .keys([.char("_")]),
        "display-option": .keys([.char("_")]),
        "end": .command(.bottom),
        "end-scroll": .command(.shiftToLineEnd),
        "examine": .command(.examine),
        "filter": .command(.filter),
        "flush-repaint": .command(.reread),
        "forw-bracket": .keys([.alt(.ctrl("f"))]),
        "forw-forever": .command(.followEnd),
        "forw-line": .command(.lineDown),
        "forw-line-force": .command(.lineDown),
        "forw-screen": .command(.pageDown),
        "forw-screen-force": .command(.pageDown),
        "forw-scroll": .command(.halfDown),
        "forw-search": .command(.searchForward),
        "forw-until-hilite": .command(.followToMatch),
        "forw-window": .command(.windowDown),
        "goto-end": .command(.bottom),
        "goto-end-buffered": .command(.bottomBuffered),
        "goto-line": .command(.top),
        "goto-mark": .keys([.char("'")]),
        "help": .command(.help),
        "index-file": .command(.firstFile),
        "invalid": .invalid,
        "left-scroll": .command(.shiftLeft),
        "next-file": .command(.nextFile),
        "no-scroll": .command(.shiftToStart),
        "noaction": .nothing,
        "osc8-back-search": .command(.selectPrevious),
        "osc8-forw-search": .command(.selectNext),
        "osc8-open": .command(.follow),
        "percent": .command(.percent),
        "pipe": .keys([.char("|")]),
        "prev-file": .command(.previousFile),
        "quit": .command(.quit),
        "remove-file": .command(.removeFile),
        "repaint": .command(.repaint),
        "repaint-flush": .command(.reread),
        "repeat-search": .command(.repeatSearch),
        "repeat-search-all": .command(.repeatSearchAcrossFiles(reverse: false)),
        "reverse-search": .command(.repeatSearchReverse),
        "reverse-search-all": .command(.repeatSearchAcrossFiles(reverse: true)),
        "right-scroll": .command(.shiftRight),
        "set-mark": .keys([.char("m")]),
        "set-mark-bottom": .keys([.char("M")]),
        "shell": .command(.shell),
        "status": .command(.info),
        "toggle-flag": .keys([.char("-")]),
        "toggle-option": .keys([.char("-")]),
        "undo-hilite": .command(.toggleHighlight),
        "version": .command(.version),
        "visual": .command(.edit),
    ]

    /// less's action names folio has nothing for, and why: a binding to one is reported and
    /// left out (the key keeps what it did).
    public static let lessUnsupported: [String: String] = [
        "debug": "less's debugging",
        "first-cmd": "folio has no first-command prompt",
        "firstcmd": "folio has no first-command prompt",
        "mouse": "folio reads the mouse itself",
        "mouse6": "folio reads the mouse itself",
        "next-tag": "folio has no tags",
        "prev-tag": "folio has no tags",
        "pshell": "folio has no prompt-expanded shell command",
    ]

    /// folio's own actions (its `keys` file).
    public static let folio: [String: BoundAction] = [
        "next-link": .command(.selectNext),
        "prev-link": .command(.selectPrevious),
        "follow-link": .command(.follow),
        "back": .command(.back),
        "outline": .command(.outline),
        "next-heading": .command(.nextHeading),
        "prev-heading": .command(.previousHeading),
        "clear-selection": .command(.escape),
        "save-input": .command(.save),
        "suspend": .command(.suspend),
        "forw-search-all": .command(.searchAcrossFiles(forward: true)),
        "back-search-all": .command(.searchAcrossFiles(forward: false)),
    ]

    /// less's `#line-edit` actions folio's prompt has, as the key that does it there.
    public static let lineEdit: [String: BoundAction] = [
        "left": .keys([.left]), "right": .keys([.right]), "home": .keys([.home]), "end": .keys([.end]),
        "backspace": .keys([.backspace]), "delete": .keys([.delete]), "kill-line": .keys([.end, .ctrl("u")]),
        "word-backspace": .keys([.ctrl("w")]), "up": .keys([.up]), "down": .keys([.down]), "abort": .keys([.escape]),
        "forw-complete": .keys([.tab]), "invalid": .invalid,
    ]

    /// `#line-edit` actions folio's prompt has not.
    public static let lineEditUnsupported: [String: String] = [
        "back-complete": "folio's completion goes forward only",
        "expand": "folio's completion offers names in turn",
        "insert": "folio's prompt always inserts",
        "literal": "folio's prompt takes controls as keys",
        "word-left": "folio's prompt moves by characters",
        "word-right": "folio's prompt moves by characters",
        "word-delete": "folio's prompt deletes words backward only",
        "mouse": "folio reads the mouse itself",
        "mouse6": "folio reads the mouse itself",
    ]

    /// The action a name means in a lesskey file (`folioNames` false) or folio's keys file.
    public static func action(named name: String, folioNames: Bool) -> BoundAction? {
        if let a = less[name] { return a }
        return folioNames ? folio[name] : nil
    }

    /// `forw-bracket {}`: less takes the extra string's two characters as the brackets.
    static func bracketCommand(_ name: String, extra: [Key]) -> Command? {
        guard name == "forw-bracket" || name == "back-bracket", extra.count == 2,
              case .char(let open) = extra[0], case .char(let close) = extra[1] else { return nil }
        return .matchBracket(open: open, close: close, forward: name == "forw-bracket")
    }
}
