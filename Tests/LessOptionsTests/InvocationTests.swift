import LessOptions
import Testing

private func options(_ words: [String], less: String? = nil, folio: String? = nil) -> Options {
    let invocation = Invocation(commandLine: words, less: less, folio: folio)
    #expect(invocation.error == nil, "\(words): \(invocation.error ?? "")")
    #expect(invocation.warnings.isEmpty, "\(invocation.warnings)")
    return invocation.options
}

/// `$LESS`, then `$FOLIO`, then the command line, into folio's settings.
@Suite struct InvocationTests {
    /// The issue's command lines: `PAGER='folio -R'`, `core.pager='folio -FRX'`, `alias less=folio`.
    @Test(arguments: [["-R"], ["-FRX"], ["-r", "-K", "-e", "-s", "-m", "-q", "-P", "x", "-#", "8"],
                      ["-Ps%f$", "-Pm$"], ["-M", "five.txt"], ["-T", "tags"], ["--RAW-CONTROL-CHARS"]])
    func lessCommandLinesAreAccepted(_ words: [String]) {
        _ = options(words)
    }

    /// `-M` is less's long prompt: `folio -M five.txt` no longer forces Markdown.
    @Test func lessLettersKeepLessMeanings() {
        let o = options(["-M", "five.txt"])
        #expect(o.kind == nil)
        #expect(o.files == ["five.txt"])
        #expect(options(["--markdown"]).kind == .markdown)
        #expect(options(["--text"]).kind == .text)
        #expect(options(["--text", "--markdown"]).kind == .markdown)
        #expect(options(["--text", "--+text"]).kind == nil)
        #expect(options(["-T", "tags.file"]).files.isEmpty)  // -T takes a tags file, as in less
        // --line-numbers is less's -n (none); --LINE-NUMBERS is -N.
        #expect(!options(["-N", "--line-numbers"]).lineNumbers)
        #expect(options(["--LINE-NUMBERS"]).lineNumbers)
        #expect(options(["-N"]).lineNumbers)
        // --ignore-case is less's -i (smart case); --IGNORE-CASE is -I.
        #expect(options(["--ignore-case"]).searchCase == .smart)
        #expect(options(["--IGNORE-CASE"]).searchCase == .insensitive)
    }

    @Test func aBadEnvironmentValueIsAWarningNotAFailure() {
        let inv = Invocation(commandLine: ["f.md"], less: "-j99999999999999999999", folio: nil)
        #expect(inv.error == nil)
        #expect(inv.warnings.count == 1)
        #expect(inv.warnings.first?.hasPrefix("$LESS: -j/--jump-target expects a row") == true)
        #expect(inv.options.jumpTarget == nil)
        #expect(inv.options.files == ["f.md"])

        let more = Invocation(commandLine: [], less: "-S -W? -Ä -X", folio: "--theme=pi/nk -N --bogus")
        #expect(more.error == nil)
        #expect(more.warnings == ["$LESS: There is no -Ä option", "$FOLIO: --theme expects auto, dark, light or a theme file's name (got 'pi/nk')",
                                  "$FOLIO: There is no --bogus option"])
        #expect(more.options.chopLongLines)
        #expect(!more.options.noInit)  // after `-Ä` less reads no more of that string
        #expect(more.options.lineNumbers)
        #expect(Invocation(commandLine: [], less: "-P", folio: nil).warnings == ["$LESS: Value is required after -P (--prompt)"])
    }

    @Test func theCommandLineFailsOnItsFirstMistake() {
        #expect(Invocation(commandLine: ["--bogus"], less: nil, folio: nil).error == "There is no --bogus option")
        #expect(Invocation(commandLine: ["-Ä"], less: nil, folio: nil).error == "There is no -Ä option")
        #expect(Invocation(commandLine: ["-j", "x"], less: nil, folio: nil).error?.hasPrefix("-j/--jump-target expects") == true)
        #expect(Invocation(commandLine: ["--width", "0"], less: nil, folio: nil).error == "--width must be between 1 and 10000 (got 0)")
        #expect(Invocation(commandLine: ["-z99999999"], less: nil, folio: nil).error == "-z/--window must be between -10000 and 10000 (got 99999999)")
        #expect(Invocation(commandLine: ["--restore=sometimes"], less: nil, folio: nil).error
                == "--restore expects documents, all or never (got 'sometimes')")
        #expect(Invocation(commandLine: ["f.md", "-P"], less: nil, folio: nil).error == "Value is required after -P (--prompt)")
    }

    @Test func laterSettingsWin() {
        #expect(!options([], less: "-S", folio: "-+S").chopLongLines)
        #expect(options([], less: "-+S", folio: "-S").chopLongLines)
        #expect(!options(["-n"], less: "-N").lineNumbers)
        #expect(options(["-j", "2"], less: "-j5", folio: "--jump-target=3").jumpTarget == .row(2))
        #expect(options(["--restore=all"], folio: "--no-restore").restore == .all)
        #expect(options(["--no-restore"], folio: "--restore=all").restore == .never)
    }

    @Test func wordsBecomeFilesAndValues() {
        #expect(options(["a.md", "-N", "b.md"]).files == ["a.md", "b.md"])
        #expect(options(["-", "--", "-N", "+G"]).files == ["-", "-N", "+G"])
        #expect(options(["-p", "needle", "f"]).start == .pattern("needle"))
        #expect(options(["-p", "-N"]).start == .pattern("-N"))
        #expect(options(["+G", "f"]).start == .command("G"))
        #expect(options(["+/two words"]).start == .command("/two words"))
        #expect(options(["+12", "-pword"]).start == .pattern("word"))
        #expect(options(["-j", "-5"]).jumpTarget == .row(-5))
        #expect(options(["-j.5"]).jumpTarget == .fraction(0.5))
        #expect(options(["--width", "80", "--width=90"]).width == 90)
        #expect(options(["+"]).files == ["+"])
    }

    /// folio's defaults that differ from less, and the way back to less's.
    @Test func everyDefaultThatDiffersFromLessCanBeSwitched() {
        let defaults = options([])
        #expect(defaults.searchCase == .smart)
        #expect(options(["--case-sensitive"]).searchCase == .sensitive)
        #expect(options([], less: "-+i", folio: "--case-sensitive").searchCase == .sensitive)
        #expect(options(["--case-sensitive", "-+i"]).searchCase == .smart)
        #expect(options(["-I"]).searchCase == .insensitive)
        #expect(options(["-I", "-i"]).searchCase == .smart)
        #expect(options(["--smart-case"]).searchCase == .smart)
        #expect(!defaults.searchWraps, "a search stops at the end, as less's")
        #expect(options(["--search-wrap"]).searchWraps)
        #expect(!options(["--search-wrap", "--no-search-wrap"]).searchWraps)
        #expect(options(["--search-options=W"]).searchWraps)
        // The scroll indicator: Markdown only by default, everywhere or nowhere if asked.
        #expect(defaults.scrollbar == nil)
        #expect(options(["--scrollbar"]).scrollbar == true)
        #expect(options(["--no-scrollbar"]).scrollbar == false)
        #expect(options(["--search-options=R"]).literal)
        #expect(defaults.overlap == nil && options(["--overlap=0"]).overlap == 0)
        #expect(defaults.restore == .documents && options(["--restore=never"]).restore == .never)
        #expect(options(["--no-restore"]).restore == .never)
        #expect(defaults.proseWidth == 100 && options(["--max-width=0"]).proseWidth == nil)
        #expect(options(["--no-watch", "--no-scrollbar"]).noWatch)
        #expect(options(["--color=never"]).color == .never)
        #expect(options(["-Dd+r", "--color=always"]).color == .always)
        #expect(options(["--color=Sky"]).color == .auto)
    }

    @Test func lessReadingOptionsBecomeSettings() {
        #expect(options(["-K"]).quitOnInterrupt)
        #expect(!options(["-K", "-+K"]).quitOnInterrupt)
        #expect(options(["-e"]).quitAtEOF == .atSecondEnd)
        #expect(options(["-E"]).quitAtEOF == .atEnd)
        #expect(options(["--QUIT-AT-EOF", "-+e"]).quitAtEOF == .never)
        #expect(options([]).highlight == .all)
        #expect(options(["-g"]).highlight == .current)
        #expect(options(["-G"]).highlight == .none)
        #expect(options(["-a"]).searchSkipsScreen)
        #expect(!options(["-A"]).searchSkipsScreen)
        #expect(options(["-#8"]).shift == .columns(8))
        #expect(options(["-#", ".25"]).shift == .fraction(0.25))
        #expect(options(["-#0"]).shift == .fraction(0.5))
        #expect(options(["-x4,8"]).tabs == 4)
        #expect(options(["-x0"]).tabs == nil)
        #expect(options(["-z-3"]).window == -3)
        #expect(options(["-12"]).window == 12)
        #expect(options(["--mouse"]).mouse && options(["--MOUSE"]).mouse)
        #expect(options(["--follow-name"]).followName)
    }

    @Test func versionAndHelpActOnlyFromTheCommandLine() {
        #expect(options(["-V"]).showVersion)
        #expect(options(["--version"]).showVersion)
        #expect(options(["-?"]).showHelp && options(["--help"]).showHelp)
        let fromEnvironment = options([], less: "-V?", folio: "--help")
        #expect(!fromEnvironment.showVersion && !fromEnvironment.showHelp)
    }
}
