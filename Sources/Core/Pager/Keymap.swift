import TerminalScreen

/// Everything a key can ask the pager to do in the reading view.
public enum Command: Hashable, Sendable {
    case lineDown, lineUp
    case pageDown, pageUp
    /// less's `z`/`w`: a page, and a count sets the window size.
    case windowDown, windowUp
    case halfDown, halfUp
    case top, bottom
    case percent
    case setMark(Character), gotoMark(Character), previousPosition
    /// less's `M`: a mark on the bottom line; `Esc m`: a mark cleared.
    case setBottomMark(Character), clearMark(Character)
    case info, repaint, reread, help
    case nextFile, previousFile
    /// less's `:x` (the first file; with a count, the N-th), `:d` (the current file out of
    /// the list), `:e` / `E` / `^X ^V` (open a file), `s` (save piped input), `!` (a shell
    /// command), `|` and a mark (lines to a shell command).
    case firstFile, removeFile, examine, save, shell
    case pipeFrom(Character)
    case quit, interrupt, suspend
    case searchForward, searchBackward, filter
    case repeatSearch, repeatSearchReverse, toggleHighlight
    /// `Esc n` / `Esc N`: the search repeated, on into the other files (less's `*`).
    case repeatSearchAcrossFiles(reverse: Bool)
    /// `Esc /` / `Esc ?`: a search across files (the prompt starts with `*`).
    case searchAcrossFiles(forward: Bool)
    case selectNext, selectPrevious, follow, back, escape
    case outline, nextHeading, previousHeading
    /// less's `v`: edit the file in `$VISUAL`/`$EDITOR` at the current source line.
    case edit
    /// `F`: follow the end of the input as it grows.
    case followEnd
    /// `Esc F`: the same, until a line matching the search's pattern arrives.
    case followToMatch
    /// less's `{` `}` `(` `)` `[` `]`, `Esc ^F` and `Esc ^B`: the bracket that matches the
    /// N-th `open` on the top line (forward) or `close` on the bottom line (backward).
    case matchBracket(open: Character, close: Character, forward: Bool)
    /// `→` / `Esc )` and `←` / `Esc (`: scroll chopped text sideways (a count sets the columns).
    case shiftRight, shiftLeft
    /// `Esc }` / `^→`: sideways to the end of the longest line on screen; `Esc {` / `^←`:
    /// back to the first column.
    case shiftToLineEnd, shiftToStart
    /// `V`: the version.
    case version
    /// `Esc G`: the end of what has arrived, without reading on (less: the last buffered line).
    case bottomBuffered
    /// `Esc U`: highlighting off and the pattern forgotten (`n` has nothing to repeat).
    case clearSearch
    /// less's `-` and `_` commands: change an option while reading (`-i`, `-+S` back to the
    /// default, `-!N` the opposite of the default, `-j` then a value) or show it (`_j`).
    case option(Character, OptionChange)
    /// `--name` (`__name`): the same, for an option named at a prompt.
    case namedOption(OptionChange)
    case unknown(String)
}

/// Turns keys into commands with less's numeric prefixes and multi-key sequences
/// (`m<letter>`, `'<letter>`, `ZZ`, `:n`, `Ctrl-O Ctrl-N`, `]]`). Pure.
///
/// less's `Esc`-commands (`Esc u`, `Esc v`) arrive as `.alt(key)`: from an Alt/Meta key, or
/// from Esc and the key typed within `KeyDecoder.escapePrefixWindow` of each other (the
/// decoder joins them). A lone Esc is a command of its own (clear the selection, close the
/// help) and arms nothing here: the key after it, typed later, is just that key.
public struct KeyInterpreter: Hashable, Sendable {
    /// Digits typed so far (`12` in `12g`).
    public private(set) var digits = ""
    /// `[[` and `]]` go to headings (Markdown); without them (text documents) `[` and `]`
    /// are less's bracket commands. The pager sets it for the document in view.
    public var headingKeys = true
    /// The user's bindings (lesskey, folio's keys file), looked at before folio's own keys.
    public var bindings = KeyBindings()
    /// The user's `#line-edit` bindings, for the prompt (`lineEditKeys`).
    public var lineEdits = KeyBindings()
    /// Keys typed so far of a binding's sequence (in the reading view; at a prompt).
    private var typed: [Key] = []
    private var lineTyped: [Key] = []
    /// Keys a binding types after its action (lesskey's extra string), for the pager to
    /// feed as typed once the command ran (`takeExtraKeys`).
    public private(set) var extraKeys: [Key] = []
    private var pending: Pending?

    private enum Pending: Hashable, Sendable {
        case mark, gotoMark, z, colon, ctrlO, closeBracket, openBracket
        /// `M`, `Esc m`: a mark letter comes next; `^X`: `^X ^X` is `'`, `^X ^V` is `:e`.
        case bottomMark, clearMark, ctrlX
        /// `|`: a mark letter (or `^`, `$`, `.`, Enter) comes next.
        case pipeMark
        /// `Esc ^F`, `Esc ^B`: two bracket characters come next (the first, once typed).
        case brackets(forward: Bool, open: Character?)
        /// `-` (and `-+`, `-!`), `_`: an option letter comes next.
        case option(OptionChange)
    }

    public init() {}

    /// The count typed before the command, if any, at most `maxCount` (a held-down digit key
    /// or `+9223372036854775807` must not overflow the arithmetic of rows and lines).
    public var count: Int? { digits.isEmpty ? nil : min(Int(digits) ?? Self.maxCount, Self.maxCount) }
    public static let maxCount = 100_000_000
    /// Something is half-typed (for the status line).
    public var isPending: Bool { pending != nil || !digits.isEmpty || !typed.isEmpty }
    public var pendingText: String {
        switch pending {
        case .colon: return digits + ":"
        case .clearMark: return "clear mark: "
        case .pipeMark: return "|mark: "
        case .brackets(_, let open): return "Brackets: " + (open.map { String($0) } ?? "")
        case .option(let change): return digits + change.prefix
        default: return digits + typed.map { Self.describe($0) }.joined()
        }
    }

    public mutating func reset() { digits = ""; pending = nil; typed = [] }

    /// The keys the last binding types after its action, once.
    public mutating func takeExtraKeys() -> [Key] {
        defer { extraKeys = [] }
        return extraKeys
    }

    /// Clears the count after a command ran.
    public mutating func commandDone() {
        digits = ""
        pending = nil
    }

    /// The command for `key`, or nil while a sequence is incomplete. The count is read with
    /// `count` before calling `reset()`. `afterEscape`: the key before was a lone Esc, so an
    /// `.alt(key)` that is no `Esc`-command is the key typed after that Esc (`Esc j`: `j`).
    ///
    /// The user's `bindings` come first, as less searches the lesskey tables before its own:
    /// keys that begin a longer binding wait; a sequence that leads nowhere drops its keys and
    /// the last one is read alone (less matches the tail of what was typed); a key no binding
    /// has goes to folio's keymap, unless the files said `#stop`. While folio's keymap waits
    /// for more (`m` then a letter) the bindings are not looked at.
    public mutating func interpret(_ key: Key, afterEscape: Bool = false) -> Command? {
        guard !bindings.isEmpty, pending == nil else { return builtIn(key, afterEscape: afterEscape) }
        let sequence = typed + [key]
        switch bindings.match(sequence) {
        case .prefix:
            typed = sequence
            return nil
        case .found(let entry):
            typed = []
            extraKeys = entry.extra
            switch entry.action {
            case .command(let command): return command
            case .keys(let keys):
                var command: Command?
                for k in keys { command = builtIn(k, afterEscape: false) }
                return command
            case .digit: return builtIn(key, afterEscape: afterEscape)
            case .invalid:
                digits = ""
                return .unknown(Self.describe(key))
            case .nothing:
                return nil
            }
        case .none:
            if !typed.isEmpty {
                // A sequence that led nowhere: its keys are dropped and this one is read
                // alone, as less reads the tail of what was typed.
                typed = []
                return interpret(key, afterEscape: afterEscape)
            }
            if bindings.stop != nil && key != .ctrl("c") {
                digits = ""
                return .unknown(Self.describe(key))
            }
            return builtIn(key, afterEscape: afterEscape)
        }
    }

    /// What a key typed at a prompt is, after the user's `#line-edit` bindings: the keys the
    /// prompt gets (none while a sequence is half typed, or for an `invalid` one). With
    /// `#stop` there, the prompt's own editing keys go (characters, Enter, Esc and Ctrl-C
    /// stay).
    public mutating func lineEditKeys(_ key: Key) -> [Key] {
        guard !lineEdits.isEmpty else { return [key] }
        let sequence = lineTyped + [key]
        switch lineEdits.match(sequence) {
        case .prefix:
            lineTyped = sequence
            return []
        case .found(let entry):
            lineTyped = []
            if case .keys(let keys) = entry.action { return keys }
            return []
        case .none:
            if !lineTyped.isEmpty {
                lineTyped = []
                return lineEditKeys(key)
            }
            if lineEdits.stop != nil {
                switch key {
                case .char, .enter, .escape, .ctrl("c"), .ctrl("g"): return [key]
                default: return []
                }
            }
            return [key]
        }
    }

    /// folio's own keymap.
    mutating func builtIn(_ key: Key, afterEscape: Bool) -> Command? {
        if let p = pending {
            pending = nil
            switch (p, key) {
            case (.mark, .char(let c)) where c.isLetter: return .setMark(c)
            case (.bottomMark, .char(let c)) where c.isLetter: return .setBottomMark(c)
            case (.clearMark, .char(let c)) where c.isLetter: return .clearMark(c)
            case (.ctrlX, .ctrl("x")): pending = .gotoMark; return nil
            case (.ctrlX, .ctrl("v")): return .examine
            case (.pipeMark, .char(let c)) where c.isLetter || c == "^" || c == "$" || c == ".": return .pipeFrom(c)
            case (.pipeMark, .enter): return .pipeFrom(".")
            case (.brackets(let forward, nil), .char(let c)): pending = .brackets(forward: forward, open: c); return nil
            case (.brackets(let forward, let open?), .char(let close)):
                return .matchBracket(open: open, close: close, forward: forward)
            case (.gotoMark, .char("'")): return .previousPosition
            case (.gotoMark, .char(let c)) where c.isLetter: return .gotoMark(c)
            case (.gotoMark, .char("^")): return .top
            case (.gotoMark, .char("$")): return .bottom
            case (.z, .char("Z")): return .quit
            case (.colon, .char("n")): return .nextFile
            case (.colon, .char("p")): return .previousFile
            case (.colon, .char("q")), (.colon, .char("Q")): return .quit
            case (.colon, .char("x")): return .firstFile
            case (.colon, .char("d")): return .removeFile
            case (.colon, .char("e")): return .examine
            case (.colon, .char("f")): return .info
            case (.ctrlO, .ctrl("n")), (.ctrlO, .char("n")): return .selectNext
            case (.ctrlO, .ctrl("p")), (.ctrlO, .char("p")): return .selectPrevious
            case (.closeBracket, .char("]")): return .nextHeading
            case (.openBracket, .char("[")): return .previousHeading
            case (.option(.toggle), .char("+")): pending = .option(.reset); return nil
            case (.option(.toggle), .char("!")): pending = .option(.setOpposite); return nil
            // `--name`, `-+-name`, `-!-name`, and `__name` (the query's long form).
            case (.option(let change), .char("-")): digits = ""; return .namedOption(change)
            case (.option(.query), .char("_")): digits = ""; return .namedOption(.query)
            case (.option(let change), .char(let c)) where c.isASCII && !c.isWhitespace:
                digits = ""
                return .option(c, change)
            case (_, .ctrl("c")), (_, .ctrl("g")): digits = ""; return nil
            case (_, .escape): digits = ""; return .escape
            default:
                digits = ""
                return .unknown(Self.describe(key))
            }
        }
        switch key {
        case .char(let c) where c.isASCII && c.isNumber:
            if digits.count < 12 { digits.append(c) }  // more could not change the (capped) count
            return nil
        case .char("j"), .char("e"), .char("J"), .down, .enter, .ctrl("n"), .ctrl("e"): return .lineDown
        case .char("k"), .char("y"), .char("K"), .char("Y"), .up, .ctrl("p"), .ctrl("y"), .ctrl("k"): return .lineUp
        case .char(" "), .char("f"), .ctrl("f"), .ctrl("v"), .pageDown: return .pageDown
        case .char("b"), .ctrl("b"), .pageUp: return .pageUp
        case .char("z"): return .windowDown
        case .char("w"): return .windowUp
        case .char("d"), .ctrl("d"): return .halfDown
        case .char("u"), .ctrl("u"): return .halfUp
        case .char("g"), .char("<"), .home: return .top
        case .char("G"), .char(">"), .end: return .bottom
        case .char("%"), .char("p"): return .percent
        case .char("m"): pending = .mark; return nil
        case .char("M"): pending = .bottomMark; return nil
        case .ctrl("x"): pending = .ctrlX; return nil
        case .char("V"): return .version
        case .char("E"): return .examine
        case .char("s"): return .save
        case .char("!"): return .shell
        case .char("|"): pending = .pipeMark; return nil
        case .char("'"): pending = .gotoMark; return nil
        case .char("="), .ctrl("g"): return .info
        case .char("r"), .ctrl("l"), .ctrl("r"): return .repaint
        case .char("R"): return .reread
        case .char("h"), .char("H"), .function(1): return .help
        case .char("q"), .char("Q"): return .quit
        case .char("Z"): pending = .z; return nil
        case .char(":"): pending = .colon; return nil
        case .ctrl("c"): return .interrupt
        case .ctrl("z"): return .suspend
        case .char("/"): return .searchForward
        case .char("?"): return .searchBackward
        case .char("&"): return .filter
        case .char("n"): return .repeatSearch
        case .char("N"): return .repeatSearchReverse
        case .escape: return .escape
        case .tab: return .selectNext
        case .backTab: return .selectPrevious
        case .ctrl("o"): pending = .ctrlO; return nil
        case .char("o"): return .outline
        case .char("v"): return .edit
        case .char("F"): return .followEnd
        case .char("-"): pending = .option(.toggle); return nil
        case .char("_"): pending = .option(.query); return nil
        case .right: return .shiftRight
        case .left: return .shiftLeft
        case .modified(.right, .ctrl): return .shiftToLineEnd
        case .modified(.left, .ctrl): return .shiftToStart
        case .char("]") where headingKeys: pending = .closeBracket; return nil
        case .char("[") where headingKeys: pending = .openBracket; return nil
        case .char("{"): return .matchBracket(open: "{", close: "}", forward: true)
        case .char("}"): return .matchBracket(open: "{", close: "}", forward: false)
        case .char("("): return .matchBracket(open: "(", close: ")", forward: true)
        case .char(")"): return .matchBracket(open: "(", close: ")", forward: false)
        case .char("["): return .matchBracket(open: "[", close: "]", forward: true)
        case .char("]"): return .matchBracket(open: "[", close: "]", forward: false)
        case .backspace: return .back
        case .alt(.char("m")): pending = .clearMark; return nil
        case .alt(.ctrl("f")): pending = .brackets(forward: true, open: nil); return nil
        case .alt(.ctrl("b")): pending = .brackets(forward: false, open: nil); return nil
        case .alt(let inner):
            if let command = Self.escapeCommand(inner) { return command }
            // Esc, then a key that makes no Esc-command with it: that key, as typed.
            if afterEscape { return builtIn(inner, afterEscape: false) }
            digits = ""
            return .unknown(Self.describe(key))
        default:
            digits = ""
            return .unknown(Self.describe(key))
        }
    }

    /// less's `Esc`-commands: `Esc` then `key` (or Alt-`key`).
    static func escapeCommand(_ key: Key) -> Command? {
        switch key {
        case .char("u"): return .toggleHighlight
        case .char("v"): return .pageUp
        case .left, .backspace: return .back
        case .char("<"): return .top
        case .char(">"): return .bottom
        case .char(")"): return .shiftRight
        case .char("("): return .shiftLeft
        case .char("n"): return .repeatSearchAcrossFiles(reverse: false)
        case .char("N"): return .repeatSearchAcrossFiles(reverse: true)
        case .char("/"): return .searchAcrossFiles(forward: true)
        case .char("?"): return .searchAcrossFiles(forward: false)
        case .char("}"): return .shiftToLineEnd
        case .char("{"): return .shiftToStart
        case .char(" "): return .pageDown
        case .char("G"): return .bottomBuffered
        case .char("U"): return .clearSearch
        case .char("F"): return .followToMatch
        default: return nil
        }
    }

    /// `x`, `^X`, `Esc-x`, `<PageDown>`: how an unknown key is named in the message.
    static func describe(_ key: Key) -> String {
        switch key {
        case .char(let c): return String(c)
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .alt(let k): return "Esc-" + describe(k)
        case .function(let n): return "F\(n)"
        default: return "\(key)"
        }
    }
}

/// What the `-` command does to an option (less's `toggle_option`).
public enum OptionChange: Hashable, Sendable {
    /// `-x`: a bool on / off; a triple's letter on / off; a value option asks for its value.
    case toggle
    /// `-+x`: back to the default.
    case reset
    /// `-!x`: the opposite of the default.
    case setOpposite
    /// `_x`: say the current setting.
    case query

    /// What the status line shows while the letter is awaited.
    var prefix: String {
        switch self {
        case .toggle: return "-"
        case .reset: return "-+"
        case .setOpposite: return "-!"
        case .query: return "_"
        }
    }
}
