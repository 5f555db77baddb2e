import LessOptions
@testable import Pager
import TerminalScreen
import Testing

/// The user's key bindings (lesskey, folio's keys file) over folio's keymap.
@Suite struct KeyBindingsTests {
    static func text(_ n: Int = 60) -> String { (1...n).map { "line \($0)" }.joined(separator: "\n") + "\n" }

    static func config(_ files: (name: String, text: String, folio: Bool)...) -> (PagerConfig, [String]) {
        var config = PagerHarness.plain
        var errors: [String] = []
        for f in files {
            var file = Lesskey(name: f.name, text: f.text)
            file.folioActions = f.folio
            errors += config.keyBindings.add(file)
        }
        return (config, errors)
    }

    /// Every less action name folio carries out, and what it does.
    @Test func everyLessActionFolioSupports() {
        let expected: [String: BoundAction] = [
            "back-bracket": .keys([.alt(.ctrl("b"))]), "back-line": .command(.lineUp), "back-line-force": .command(.lineUp),
            "back-screen": .command(.pageUp), "back-scroll": .command(.halfUp),
            "back-search": .command(.searchBackward), "back-window": .command(.windowUp),
            "clear-mark": .keys([.alt(.char("m"))]), "clear-search": .command(.clearSearch), "digit": .digit,
            "display-flag": .keys([.char("_")]), "display-option": .keys([.char("_")]), "end": .command(.bottom),
            "end-scroll": .command(.shiftToLineEnd), "examine": .command(.examine), "filter": .command(.filter),
            "flush-repaint": .command(.reread), "forw-bracket": .keys([.alt(.ctrl("f"))]), "forw-forever": .command(.followEnd),
            "forw-line": .command(.lineDown), "forw-line-force": .command(.lineDown), "forw-screen": .command(.pageDown),
            "forw-screen-force": .command(.pageDown), "forw-scroll": .command(.halfDown), "forw-search": .command(.searchForward),
            "forw-until-hilite": .command(.followToMatch), "forw-window": .command(.windowDown), "goto-end": .command(.bottom),
            "goto-end-buffered": .command(.bottomBuffered), "goto-line": .command(.top), "goto-mark": .keys([.char("'")]),
            "help": .command(.help), "index-file": .command(.firstFile), "invalid": .invalid, "left-scroll": .command(.shiftLeft),
            "next-file": .command(.nextFile), "no-scroll": .command(.shiftToStart), "noaction": .nothing,
            "osc8-back-search": .command(.selectPrevious), "osc8-forw-search": .command(.selectNext), "osc8-open": .command(.follow),
            "percent": .command(.percent), "pipe": .keys([.char("|")]), "prev-file": .command(.previousFile), "quit": .command(.quit),
            "remove-file": .command(.removeFile), "repaint": .command(.repaint), "repaint-flush": .command(.reread),
            "repeat-search": .command(.repeatSearch), "repeat-search-all": .command(.repeatSearchAcrossFiles(reverse: false)),
            "reverse-search": .command(.repeatSearchReverse), "reverse-search-all": .command(.repeatSearchAcrossFiles(reverse: true)),
            "right-scroll": .command(.shiftRight), "set-mark": .keys([.char("m")]), "set-mark-bottom": .keys([.char("M")]),
            "shell": .command(.shell), "status": .command(.info), "toggle-flag": .keys([.char("-")]),
            "toggle-option": .keys([.char("-")]), "undo-hilite": .command(.toggleHighlight), "version": .command(.version),
            "visual": .command(.edit),
        ]
        #expect(KeyActions.less == expected)
        // With the ones folio has not, that is every name of less's lesskey_parse.c.
        let lessNames: Set<String> = [
            "back-bracket", "back-line", "back-line-force", "back-screen", "back-scroll", "back-search", "back-window",
            "clear-mark", "clear-search", "debug", "digit", "display-flag", "display-option", "end", "end-scroll", "examine",
            "filter", "first-cmd", "firstcmd", "flush-repaint", "forw-bracket", "forw-forever", "forw-line", "forw-line-force",
            "forw-screen", "forw-screen-force", "forw-scroll", "forw-search", "forw-until-hilite", "forw-window", "goto-end",
            "goto-end-buffered", "goto-line", "goto-mark", "help", "index-file", "invalid", "left-scroll", "mouse", "mouse6",
            "next-file", "next-tag", "no-scroll", "noaction", "osc8-forw-search", "osc8-back-search", "osc8-open", "percent",
            "pipe", "prev-file", "prev-tag", "pshell", "quit", "remove-file", "repaint", "repaint-flush", "repeat-search",
            "repeat-search-all", "reverse-search", "reverse-search-all", "right-scroll", "set-mark", "set-mark-bottom", "shell",
            "status", "toggle-flag", "toggle-option", "undo-hilite", "version", "visual",
        ]
        #expect(Set(KeyActions.less.keys).union(KeyActions.lessUnsupported.keys) == lessNames)
        #expect(Set(KeyActions.less.keys).isDisjoint(with: KeyActions.lessUnsupported.keys))
        for name in KeyActions.folio.keys { #expect(KeyActions.less[name] == nil, "\(name)") }
    }

    /// Each built-in key, written as a lesskey line, does in the keymap what its action does.
    @Test func theBuiltInKeysAsALesskeyFileMatchTheKeymap() {
        let defaults = DefaultKeys.bindings
        #expect(defaults.entries.count > 100)
        for entry in defaults.entries {
            var keymap = KeyInterpreter()
            keymap.headingKeys = entry.actionName.hasSuffix("-heading")
            var got: Command?
            for key in entry.keys { got = keymap.interpret(key) }
            switch entry.action {
            case .command(let c): #expect(got == c, "\(KeyBindings.notation(entry.keys)) \(entry.actionName)")
            case .keys(let keys):
                var other = KeyInterpreter()
                var want: Command?
                for key in keys { want = other.interpret(key) }
                #expect(got == want && keymap.pendingText == other.pendingText, "\(KeyBindings.notation(entry.keys))")
            case .digit, .invalid, .nothing: Issue.record("\(entry.actionName) among the built-in keys")
            }
        }
    }

    @Test func lesskeyStringsBecomeKeys() {
        func keys(_ text: String) -> [Key] { KeyBindings.keys(Lesskey(name: "k", text: text + " quit").commands[0].keys) }
        #expect(keys("j") == [.char("j")])
        #expect(keys("^X^V") == [.ctrl("x"), .ctrl("v")])
        #expect(keys(#"\ev"#) == [.alt(.char("v"))])
        #expect(keys(#"\e[A"#) == [.up])
        #expect(keys(#"\kd"#) == [.down])
        #expect(keys(#"\kD"#) == [.pageDown])
        #expect(keys(#"\e\kl"#) == [.alt(.left)])
        #expect(keys(#"\r"#) == [.enter])
        #expect(keys(#"\40"#) == [.char(" ")])
        #expect(keys(#"\e"#) == [.escape])
        #expect(keys("ZZ") == [.char("Z"), .char("Z")])
        #expect(KeyBindings.notation([.alt(.char("v")), .ctrl("x"), .down, .char(" "), .enter]) == #"\ev^X\kd\40\r"#)
    }

    /// The issue's lesskey file: j and k swapped, x quits; other keys as before.
    @Test func aLesskeyFileSwappingJAndK() {
        let (config, errors) = Self.config(("lesskey", "#command\nj back-line\nk forw-line\nx quit\n", false))
        #expect(errors.isEmpty)
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 5, config: config)
        h.send("kkk")
        #expect(h.screen.first?.hasPrefix("line 4") == true, "\(h.screen)")
        h.send("j")
        #expect(h.screen.first?.hasPrefix("line 3") == true)
        h.send("3k")  // a count still applies
        #expect(h.screen.first?.hasPrefix("line 6") == true)
        h.send("<Space>")  // unbound: as built in
        #expect(h.screen.first?.hasPrefix("line 9") == true)
        h.send("x")
        #expect(h.effects.contains(.quit))
    }

    @Test func escSequencesMultipleKeysAndExtras() {
        let (config, errors) = Self.config(("keys", #"""
            \ej    forw-line
            gg     goto-line
            ,t     toggle-option S
            \e[B   back-line
            T      noaction 5j
            """#, false))
        #expect(errors.isEmpty)
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 5, config: config)
        h.send("<A-j><A-j>")
        #expect(h.screen.first?.hasPrefix("line 3") == true, "\(h.screen)")
        h.send("<Down>")  // \e[B is the down arrow: bound to back-line
        #expect(h.screen.first?.hasPrefix("line 2") == true)
        h.send("T")  // noaction, then 5j typed
        #expect(h.screen.first?.hasPrefix("line 7") == true)
        h.send("g")  // the start of gg: waits
        #expect(h.screen.first?.hasPrefix("line 7") == true)
        h.send("g")
        #expect(h.screen.first?.hasPrefix("line 1") == true)
        h.send("gj")  // g leads nowhere with j: j is read alone
        #expect(h.screen.first?.hasPrefix("line 2") == true)
        h.send(",t")  // -S typed by the extra string
        #expect(h.state.config.chopLongLines)
    }

    /// An extra string that reaches its own binding is typed once, not for ever.
    @Test func anExtraStringTypingItsOwnKeyEnds() {
        let (config, _) = Self.config(("lk", "x forw-line x\n", false))
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 5, config: config)
        h.send("x")
        #expect(h.screen.first?.hasPrefix("line 3") == true, "\(h.screen)")
    }

    /// `#stop`: only the file's keys; everything else is invalid, Ctrl-C still interrupts.
    @Test func stopLeavesOnlyTheFilesKeys() {
        let (config, _) = Self.config(("lesskey", "#command\nn forw-line\n0 digit\n1 digit\nq quit\n#stop\n", false))
        var h = PagerHarness(text: Self.text(), columns: 20, rows: 5, config: config)
        h.send("j")
        #expect(h.status.contains("Unknown key: j"), "\(h.status)")
        #expect(h.screen.first?.hasPrefix("line 1") == true)
        h.send("10n")
        #expect(h.screen.first?.hasPrefix("line 11") == true)
        h.send("5n")  // 5 is no digit here: invalid, then n one line
        #expect(h.screen.first?.hasPrefix("line 12") == true)
        h.send("q")
        #expect(h.effects.contains(.quit))
    }

    @Test func folioActionsInFoliosKeysFileOnly() {
        let (_, lessErrors) = Self.config(("lk", "o next-link\nw frob\nt next-tag\n", false))
        #expect(lessErrors == ["lk:1: unknown action \"next-link\" (a folio action: it belongs in folio's keys file)",
                               "lk:2: unknown action \"frob\"",
                               "lk:3: next-tag is not in folio (folio has no tags); the binding is left out"])
        let (config, errors) = Self.config(("lesskey", "x quit\n", false), ("keys", "x outline\nw frob\n", true))
        #expect(errors == ["keys:2: unknown action \"frob\""])
        #expect(config.keyBindings.effective.map(\.actionName) == ["outline"])
        #expect(config.keyBindings.effective.first?.origin == "keys:1")
    }

    @Test func showKeysNamesTheFileThatChangedEachKey() {
        let (config, _) = Self.config(("my/lesskey", "j back-line\n", false), ("my/keys", "^G outline\n", true))
        let text = ShowKeys.text(config.keyBindings, files: ["lesskey: my/lesskey (read)"])
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["j", "back-line", "my/lesskey:1"]), "\(text)")
        #expect(rows.contains(["^G", "outline", "my/keys:1"]))
        #expect(rows.contains(["k", "back-line", "built-in"]))
        #expect(!rows.contains(["j", "forw-line", "built-in"]))
        #expect(!rows.contains(["^G", "status", "built-in"]))
        #expect(rows.contains(["{", "forw-bracket", "{}", "built-in"]))
        let (stopped, _) = Self.config(("lk", "q quit\n#stop\n", false))
        #expect(!ShowKeys.text(stopped.keyBindings, files: []).split(separator: "\n").contains { $0.hasSuffix("built-in") })
    }
}

/// The `h` screen lists the user's bindings and where each was set.
@Suite struct HelpKeyBindingsTests {
    @Test func theHelpListsTheUsersBindings() {
        let (config, _) = KeyBindingsTests.config(("my/lesskey", "j back-line\n|x pipe\n", false))
        var h = PagerHarness(text: KeyBindingsTests.text(), columns: 70, rows: 200, config: config)
        h.send("h")
        let screen = h.screen.joined(separator: "\n")
        #expect(screen.contains("Your key bindings"), "\(screen)")
        #expect(h.screen.contains { $0.contains("j") && $0.contains("back-line") && $0.contains("my/lesskey:1") })
        #expect(h.screen.contains { $0.contains("|x") && $0.contains("pipe") && $0.contains("my/lesskey:2") })
        var plain = PagerHarness(text: KeyBindingsTests.text(), columns: 70, rows: 200)
        plain.send("h")
        #expect(!plain.screen.joined().contains("Your key bindings"))
    }
}

/// A lesskey file's `#line-edit` section, at folio's prompt.
@Suite struct LineEditBindingsTests {
    static func harness(_ lesskey: String) -> (PagerHarness, [String]) {
        var config = PagerHarness.plain
        let file = Lesskey(name: "lk", text: lesskey)
        let errors = config.lineEditBindings.addLineEdits(file)
        return (PagerHarness(text: KeyBindingsTests.text(), columns: 40, rows: 6, config: config), errors)
    }

    static func typed(_ h: PagerHarness) -> String { String(h.state.prompt?.editor.characters ?? []) }

    @Test func keysDoTheirActionsAtThePrompt() {
        var (h, errors) = Self.harness("#line-edit\n^A home\n^Xk kill-line\n\\eb word-left\n^O invalid\n")
        #expect(errors == ["lk:4: #line-edit word-left is not in folio (folio's prompt moves by characters); the binding is left out"])
        h.send("/abc<C-a>x")
        #expect(Self.typed(h) == "xabc")
        h.send("<C-o>y")  // invalid: nothing
        #expect(Self.typed(h) == "xyabc")
        h.send("<C-x>k")
        #expect(Self.typed(h) == "")
        h.send("<C-x>z")  // a sequence that leads nowhere: z alone
        #expect(Self.typed(h) == "z")
        h.send("<C-u>")  // the prompt's own keys stay
        #expect(Self.typed(h) == "")
    }

    @Test func stopLeavesOnlyTheFilesEditingKeys() {
        var (h, _) = Self.harness("#line-edit\n^A home\n#stop\n")
        h.send("/abc<C-u><Left>x<C-a>y")
        #expect(Self.typed(h) == "yabcx")
        h.send("<CR>")
        #expect(h.state.prompt == nil)
    }
}
