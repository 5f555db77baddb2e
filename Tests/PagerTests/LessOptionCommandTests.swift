import LessOptions
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// less's `-` and `_` commands while reading (`-j` then a value, `-+x`, `-!x`, `--name`,
/// `_x`), and the reading options they change: `-K`, `-e`/`-E`, `-g`/`-G`, `-a`, `-#`,
/// `--no-search-wrap`.
@Suite struct LessOptionCommandTests {
    static let text = (1...40).map { "line \($0)" }.joined(separator: "\n") + "\n"

    func pager(_ config: PagerConfig = PagerHarness.plain, text: String = LessOptionCommandTests.text) -> PagerHarness {
        PagerHarness(text: text, columns: 30, rows: 6, config: config)
    }

    @Test func aValueOptionAsksForItsValueInLessWords() {
        var h = pager()
        h.send("-j")
        #expect(h.status == "Target line:")
        h.send("5<CR>")
        #expect(h.state.config.jumpTarget == .row(4))
        #expect(h.state.message == "Position target at screen line 5")
        h.send("_j")
        #expect(h.state.message == "Position target at screen line 5")
        h.send("-j.5<CR>")
        #expect(h.state.config.jumpTarget == .fraction(0.5))
        #expect(h.state.message == "Position target at screen position .5")
        h.send("-jx<CR>")
        #expect(h.state.message == "Invalid target line: x")
        #expect(h.state.config.jumpTarget == .fraction(0.5))
        h.send("-+j")
        #expect(h.state.config.jumpTarget == .minimal)
        h.send("-j<Esc>")
        #expect(h.state.prompt == nil && h.state.config.jumpTarget == .minimal)
    }

    @Test func dashZSetsThePageAndDashHashTheSidewaysStep() {
        var h = pager()
        h.send("-z3<CR><Space>")
        #expect(h.top == 3)
        #expect(h.state.message == nil)  // the key cleared it
        h.send("_z")
        #expect(h.state.message == "Scroll window size is 3 lines")

        var chopped = pager(text: String(repeating: "abcdefghij", count: 10) + "\n")
        chopped.send("-S-#4<CR>")
        #expect(chopped.state.message == "Horizontal shift 4 columns")
        chopped.send("<Right>")
        #expect(chopped.state.horizontalShift == 4)
        chopped.send("-#.5<CR><Right>")
        #expect(chopped.state.horizontalShift == 4 + chopped.state.layoutOptions.width / 2)
        // A count moves that far and becomes the step, as in less.
        chopped.send("2<Left><Left>")
        #expect(chopped.state.horizontalShift == 4 + chopped.state.layoutOptions.width / 2 - 4)
    }

    @Test func triplesFollowLessRules() {
        var h = pager()
        #expect(h.state.config.searchCase == .smart)
        h.send("-I")
        #expect(h.state.config.searchCase == .insensitive)
        #expect(h.state.message == "Ignore case in searches")
        h.send("-I")
        #expect(h.state.config.searchCase == .sensitive)
        h.send("-+i")
        #expect(h.state.config.searchCase == .smart)
        #expect(h.state.message == "Ignore case in searches (unless the pattern has capitals)")
        h.send("-!I")
        #expect(h.state.config.searchCase == .insensitive)
        h.send("_i")
        #expect(h.state.message == "Ignore case in searches")
        #expect(h.state.config.searchCase == .insensitive)
        h.send("-N")
        #expect(h.state.config.lineNumbers)
        h.send("-n")
        #expect(!h.state.config.lineNumbers)
        #expect(h.state.message == "Line numbers off")
    }

    @Test func theStatusLineShowsWhatIsBeingTyped() {
        var h = pager()
        h.send("-")
        #expect(h.status.hasPrefix("- "))
        h.send("+")
        #expect(h.status.hasPrefix("-+ "))
        h.send("S")
        h.send("_")
        #expect(h.status.hasPrefix("_ "))
        h.send("<C-c>")
        #expect(h.state.keys.pendingText.isEmpty)
    }

    @Test func optionsFolioCannotChangeOrIgnoresSaySo() {
        var h = pager()
        h.send("-X")
        #expect(h.state.message == "Cannot change the -X (--no-init) option")
        h.send("-R")
        #expect(h.state.message == "-R (--RAW-CONTROL-CHARS): folio always shows colour and styles, safely")
        h.send("_M")
        #expect(h.state.message == "-M (--LONG-PROMPT): folio's status line is fixed")
        h.send("-r")
        #expect(h.state.message == "-r (--raw-control-chars): folio always shows colour and styles, safely")
        h.send("-F")
        #expect(h.state.message == "-F (--quit-if-one-screen) acts at the start only")
        h.send("-V")
        #expect(h.state.message == "folio \(Options.version)")
        h.send("-+P")
        #expect(h.state.message?.hasSuffix("folio's status line is fixed") == true)
    }

    @Test func anOptionByItsLongName() {
        var h = pager()
        h.send("--quit-on<CR>")
        #expect(h.state.config.quitOnInterrupt)
        #expect(h.state.message == "Interrupt (ctrl-C) quits folio")
        h.send("--jump-target=3<CR>")
        #expect(h.state.config.jumpTarget == .row(2))
        h.send("--IGNORE<CR>")
        #expect(h.state.config.searchCase == .insensitive)
        h.send("--bogus<CR>")
        #expect(h.state.message == "There is no --bogus option")
        h.send("--no-s<CR>")
        #expect(h.state.message == "--no-s is an ambiguous abbreviation")
        h.send("--no-search-w<CR>")
        #expect(!h.state.config.searchWraps)
        h.send("__no-search-w<CR>")
        #expect(h.state.message == "Searches stop at the ends")
    }

    @Test func dashKThenControlCQuits() {
        var h = pager()
        h.send("<C-c>")
        #expect(h.effects.isEmpty)
        h.send("-K")
        #expect(h.state.message == "Interrupt (ctrl-C) quits folio")
        h.send("<C-c>")
        #expect(h.effects == [.quit])
    }

    /// 40 lines, 5 on screen: the end shows from top 35.
    @Test func dashCapitalEQuitsWhenAForwardMoveReachesTheEnd() {
        var config = PagerHarness.plain
        config.quitAtEOF = .atEnd
        var h = pager(config)
        h.send("G")
        #expect(h.effects.isEmpty, "a jump is not a forward move")
        h.send("g")
        for _ in 0..<8 { h.send("<Space>") }
        #expect(h.effects.isEmpty)
        h.send("<Space>")
        #expect(h.effects == [.quit])
    }

    @Test func dashEQuitsOnAForwardMoveAtTheEnd() {
        var config = PagerHarness.plain
        config.quitAtEOF = .atSecondEnd
        var h = pager(config)
        h.send("34j")
        h.send("j")
        #expect(h.effects.isEmpty, "reaching the end")
        h.send("k")
        #expect(h.effects.isEmpty, "backward")
        h.send("jj")
        #expect(h.effects == [.quit])
    }

    @Test func dashEGoesOnToTheNextFileFirst() {
        var config = PagerHarness.plain
        config.quitAtEOF = .atSecondEnd
        var h = PagerHarness(documents: [("a.md", "one"), ("b.md", "two")], columns: 30, rows: 6, config: config)
        h.send("j")
        #expect(h.effects == [.leftDocument(0)])
        #expect(h.state.current == 1)
        h.send("j")
        #expect(h.effects == [.leftDocument(0), .quit])
    }

    @Test func dashGHighlightsNoMatchAndDashLittleGOnlyTheCurrentOne() {
        var h = pager(text: "x x\nx\n")
        h.send("/x<CR>")
        #expect(h.state.highlights(inUnit: 0).all.count == 2)
        h.send("-g")
        #expect(h.state.message == "Highlight matches for previous search only")
        #expect(h.state.highlights(inUnit: 0).all.isEmpty)
        #expect(h.state.highlights(inUnit: 0).current == 0..<1)
        h.send("-+g")
        #expect(h.state.highlights(inUnit: 0).all.count == 2)
        #expect(h.state.message == "Highlight all matches for previous search pattern")
        h.send("-G")
        #expect(h.state.highlights(inUnit: 0).current == nil)
        #expect(h.state.message == "Don't highlight search matches")
        // The upper-case letter toggles on-plus and off, as in less.
        h.send("-G")
        #expect(h.state.highlights(inUnit: 0).all.count == 2)
    }

    @Test func dashASearchesPastTheScreen() {
        let text = "x on screen\n" + (2...40).map { $0 == 30 ? "x below" : "line \($0)" }.joined(separator: "\n") + "\n"
        var h = pager(text: text)
        h.send("/x<CR>")
        #expect(h.state.search?.current?.unit == 0)
        h.send("-a")
        #expect(h.state.message == "Search skips displayed screen")
        h.send("g/x<CR>")
        #expect(h.state.search?.current?.unit == 29)
    }

    @Test func noSearchWrapStopsAtTheEnd() {
        let text = "x at the top\n" + (2...40).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var h = pager(text: text)
        h.send("G/x<CR>")
        #expect(h.state.search?.current?.unit == 0, "wraps by default")
        var config = PagerHarness.plain
        config.searchWraps = false
        var n = pager(config, text: text)
        n.send("G/x<CR>")
        #expect(n.state.search?.current == nil)
        #expect(n.state.message == "Pattern not found")
        n.send("g/x<CR>Gn")
        #expect(n.state.message == "Pattern not found")
    }
}
