import LessOptions
import Testing

/// The config file: words as a shell splits them, comments, sections, errors with line numbers.
@Suite struct ConfigFileTests {
    static let example = """
        # folio's config
        --mouse -i      # two options, then a comment

        --jump-target .3
        [markdown]
          --max-width=72 '--align=center'
        [text]
        --restore=never -S
        [all]
        "-j" "5"
        """

    @Test func linesSectionsAndComments() {
        let file = ConfigFile(name: "config", text: Self.example)
        #expect(file.errors.isEmpty)
        #expect(file.lines == [
            ConfigFile.Line(number: 2, section: .all, words: ["--mouse", "-i"]),
            ConfigFile.Line(number: 4, section: .all, words: ["--jump-target", ".3"]),
            ConfigFile.Line(number: 6, section: .markdown, words: ["--max-width=72", "--align=center"]),
            ConfigFile.Line(number: 8, section: .text, words: ["--restore=never", "-S"]),
            ConfigFile.Line(number: 10, section: .all, words: ["-j", "5"]),
        ])
    }

    @Test(arguments: [
        ("-p 'two words'", ["-p", "two words"]),
        ("-p \"say \\\"hi\\\"\"", ["-p", "say \"hi\""]),
        ("-p a\\ b", ["-p", "a b"]),
        ("-p 'a#b' # comment", ["-p", "a#b"]),
        ("-pa#b", ["-pa#b"]),
        ("--prompt=''", ["--prompt="]),
        ("\t-S\t-N  ", ["-S", "-N"]),
        ("# all comment", []),
        ("-p \"it's\"", ["-p", "it's"]),
    ])
    func wordsAreSplitAsAShellSplitsThem(_ line: String, _ words: [String]) throws {
        #expect(try ConfigFile.words(Substring(line)).get() == words)
    }

    @Test func errorsNameTheFileAndLineAndTheRestApplies() {
        let text = "--mouse\n-p 'open\n[colours]\n--width=3\n[markdown]\n--max-width=60\n[text\n"
        let file = ConfigFile(name: "my/config", text: text)
        #expect(file.errors == [
            "my/config:2: a ' is not closed",
            "my/config:3: unknown section [colours] (folio knows [markdown], [text] and [all]); its lines are skipped",
            "my/config:7: a section is written [markdown], [text] or [all]",
        ])
        #expect(file.lines.map(\.number) == [1, 6])
        #expect(file.lines.last?.section == .markdown)
    }

    @Test func badOptionsAreWarningsWithTheirLine() {
        let config = ConfigFile(name: "cfg", text: "--mouse\n--bogus -N\nREADME.md\n--width\n[markdown]\n--max-width=x\n")
        let inv = Invocation(commandLine: ["a.md"], less: nil, folio: nil, config: config)
        #expect(inv.error == nil)
        #expect(inv.warnings == [
            "cfg:2: There is no --bogus option",
            "cfg:3: 'README.md' is not an option (the config file holds options, not file names)",
            "cfg:4: Value is required after --width",
            "cfg:6: Number is required after --max-width",
            "cfg:6: Value is required after -x (--tabs)",  // less reads on after a bad number: `x` is -x
        ])
        #expect(inv.options.mouse)
        #expect(inv.options.lineNumbers)  // each word is read as a command-line word is
        #expect(inv.options.files == ["a.md"])
    }

    /// defaults < config file < $LESS < $FOLIO < command line, each source over the one before.
    @Test func precedenceAcrossTheFiveSources() {
        let config = ConfigFile(name: "cfg", text: "-j2 -z10 --overlap=3 -x4 --max-width=50\n")
        let inv = Invocation(commandLine: ["-j5"], less: "-j3 -z11 -x6", folio: "-j4 -z12", config: config)
        #expect(inv.warnings.isEmpty)
        let o = inv.options
        #expect(o.jumpTarget == .row(5))  // command line
        #expect(o.window == 12)  // $FOLIO
        #expect(o.tabs == 6)  // $LESS
        #expect(o.overlap == 3)  // config
        #expect(o.maxWidth == 50)  // config
        #expect(o.align == .left)  // default
        let origins = inv.origins[.all] ?? [:]
        #expect(origins["-j/--jump-target"] == "command line")
        #expect(origins["-z/--window"] == "$FOLIO")
        #expect(origins["-x/--tabs"] == "$LESS")
        #expect(origins["--overlap"] == "cfg:1")
        #expect(origins["--align"] == "default")
        // Without the config file the same variables give the same order.
        #expect(Invocation(commandLine: [], less: "-z11", folio: nil, config: config).options.window == 11)
    }

    /// A section applies to its kind only, above the file's other lines and below the rest.
    @Test func sectionsApplyByKind() {
        let config = ConfigFile(name: "cfg", text: "--max-width=80 -N\n[markdown]\n--max-width=60\n[text]\n-S --restore=never\n")
        let inv = Invocation(commandLine: [], less: nil, folio: nil, config: config)
        #expect(inv.options.maxWidth == 80)
        #expect(inv.markdownOptions.maxWidth == 60)
        #expect(inv.textOptions.maxWidth == 80)
        #expect(inv.textOptions.chopLongLines && !inv.markdownOptions.chopLongLines)
        #expect(inv.textOptions.restore == .never && inv.markdownOptions.restore == .documents)
        #expect(inv.markdownOptions.lineNumbers && inv.textOptions.lineNumbers)
        #expect(inv.origins[.markdown]?["--max-width"] == "cfg:3")
        // $FOLIO is above a section.
        let over = Invocation(commandLine: [], less: nil, folio: "--max-width=90", config: config)
        #expect(over.markdownOptions.maxWidth == 90)
        // Both kinds open: each section's settings for its own kind only.
        let mixed = inv.options(markdown: true, text: true)
        #expect(mixed.maxWidth == 60 && mixed.chopLongLines && mixed.restore == .documents)
        #expect(inv.options(markdown: true, text: false) == inv.markdownOptions)
        #expect(inv.options(markdown: false, text: true) == inv.textOptions)
    }

    @Test func commandLineOnlyOptionsDoNothingInTheFile() {
        let config = ConfigFile(name: "cfg", text: "--help -V --show-config --completion=bash --dump-theme=dark\n")
        let inv = Invocation(commandLine: [], less: nil, folio: nil, config: config)
        #expect(inv.warnings.isEmpty)
        #expect(!inv.options.showHelp && !inv.options.showVersion && !inv.options.showConfig)
        #expect(inv.options.completion == nil && inv.options.dumpTheme == nil)
    }

    @Test func showConfigListsEverySettingAndItsSource() {
        let config = ConfigFile(name: "cfg", text: "--mouse\n[markdown]\n--max-width=60\n")
        let inv = Invocation(commandLine: ["-N"], less: "-S", folio: "--overlap=2", config: config)
        let text = ShowConfig.text(inv, configFile: "cfg (read)")
        let lines = text.split(separator: "\n").map(String.init)
        func row(_ name: String) -> String? { lines.first { $0.hasPrefix(name + " ") } }
        func words(_ name: String) -> [String] { row(name)?.split(separator: " ").map(String.init) ?? [] }
        #expect(words("--mouse") == ["--mouse", "on", "cfg:1"], "\(text)")
        #expect(words("-S/--chop-long-lines") == ["-S/--chop-long-lines", "on", "$LESS"])
        #expect(words("--overlap") == ["--overlap", "2", "$FOLIO"])
        #expect(words("-N/--line-numbers") == ["-N/--line-numbers", "on", "command", "line"])
        #expect(words("--align") == ["--align", "left", "default"])
        #expect(text.contains("[markdown]\n--max-width"))
        #expect(text.contains("cfg:3"))
        #expect(text.contains("[text]  # as above"))
        for (name, _) in Options().settings { #expect(row(name) != nil, "\(name)") }
    }

    @Test func pathsFollowXDGAndLess() {
        let p = ConfigPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/x"])
        #expect(p.configFile?.path == "/x/folio/config")
        #expect(p.lesskeySources == ["/x/lesskey", "/h/.config/lesskey", "/h/.lesskey"])
        #expect(p.keysFile == "/x/folio/keys")
        #expect(p.themesDirectory == "/x/folio/themes")
        let relative = ConfigPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel"])
        #expect(relative.configFile?.path == "/h/.config/folio/config")
        #expect(relative.lesskeySources == ["/h/.config/lesskey", "/h/.lesskey"])
        let named = ConfigPaths(environment: ["HOME": "/h", "FOLIO_CONFIG": "/c", "LESSKEYIN": "/k"])
        #expect(named.configFile?.path == "/c" && named.configFile?.named == true)
        #expect(named.lesskeySources == ["/k"])
        #expect(ConfigPaths(environment: [:]).configFile == nil)
    }
}
