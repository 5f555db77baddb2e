import ByteInput
import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import TextSearch
import Testing

extension PagerHarness {
    /// Text documents (lines, as `folio --text` shows them), whole, in this order.
    init(texts: [(name: String, text: String)], columns: Int, rows: Int, config: PagerConfig = PagerHarness.plain) {
        let specs = texts.map { doc -> DocumentSpec in
            let store = ByteStore()
            Array(doc.text.utf8).withUnsafeBytes { store.append($0) }
            let content = TextContent.whole(store)
            return DocumentSpec(name: doc.name, path: "/docs/" + doc.name, text: content)
        }
        self.init(state: PagerState(documents: specs, config: config, rows: rows, columns: columns))
    }

    init(state: PagerState) {
        self.state = state
    }

    /// The line (1-based) of the current match, in a text document.
    var matchLine: Int? { state.search?.current.map { $0.unit.index + 1 } }
}

/// less's search modifiers, typed first at the prompt: `!`/`^N` (lines that do not match),
/// `*`/`^E` (on into the next files), `@`/`^F` (from the first file), `^K` (highlight, do
/// not move), `^W` (wrap round the file), and `&!` (show the lines that do not match).
@Suite struct SearchModifierTests {
    /// 40 lines holding `keep`, except lines 12 and 25.
    static let text = (1...40).map { $0 == 12 || $0 == 25 ? "line \($0) other" : "line \($0) keep" }
        .joined(separator: "\n") + "\n"
    static var stopping: PagerConfig { var c = PagerHarness.plain; c.searchWraps = false; return c }

    @Test func thePromptShowsTheModifiersInLessWords() {
        var h = PagerHarness(text: Self.text, columns: 60, rows: 6)
        h.send("/!")
        #expect(h.status == "Non-match /")
        h.send("*")
        #expect(h.status == "Non-match EOF-ignore /")
        h.send("<C-w>")
        #expect(h.status == "Non-match Wrap-around /", "wrapping and crossing files exclude each other")
        h.send("<C-n><C-w>@<C-k>")
        #expect(h.status == "First-file Keep-pos /")
        h.send("<C-k><C-f>x!*")
        #expect(h.status == "/x!*", "after the first character of the pattern, they are the pattern")
        h.send("<Esc>?<C-e>")
        #expect(h.status == "EOF-ignore ?")
        h.send("<Esc>&!*")
        #expect(h.status == "Non-match &*", "the filter takes ! only")
        h.send("<Esc><A-/>")
        #expect(h.status == "EOF-ignore /", "Esc / starts with *")
    }

    @Test func nonMatchingFindsTheLinesWithout() {
        var h = PagerHarness(text: Self.text, columns: 30, rows: 6, config: Self.stopping)
        h.send("/!keep<CR>")
        #expect(h.matchLine == 12)
        #expect(h.top == 7, "line 12 brought to the bottom row")
        #expect(!h.status.contains("…"), "no count of matches for texts without one: \(h.status)")
        h.send("n")
        #expect(h.matchLine == 25)
        h.send("n")
        #expect(h.state.message == "Pattern not found")
        #expect(h.matchLine == 25)
        h.send("N")
        #expect(h.matchLine == 12)
        h.send("g/<C-n>keep<CR>")
        #expect(h.matchLine == 12, "^N is !")
        // Nothing highlighted: the lines found have no match.
        #expect(h.state.highlights(inUnit: 11).all.isEmpty && h.state.highlights(inUnit: 11).current == nil)
    }

    @Test func nonMatchingBlocksInMarkdown() {
        let doc = "Alpha keep.\n\nBeta keep.\n\nGamma.\n\nDelta keep.\n"
        var h = PagerHarness(markdown: doc, columns: 30, rows: 10)
        h.send("/!keep<CR>")
        #expect(h.state.search?.current?.unit == 2)
    }

    @Test func keepPositionHighlightsWithoutMoving() {
        var h = PagerHarness(text: Self.text, columns: 30, rows: 6)
        h.send("5j/<C-k>other<CR>")
        #expect(h.top == 5, "the view stays")
        #expect(h.state.search?.current == nil)
        #expect(h.state.search?.highlight == true)
        h.send("n")
        #expect(h.matchLine == 12, "n goes to the first match from the screen")
        #expect(h.state.search?.modifiers.contains(.keepPosition) == false, "^K acts once")
    }

    @Test func wrapModifierWrapsWithoutSearchWrap() {
        var h = PagerHarness(text: Self.text, columns: 30, rows: 6, config: Self.stopping)
        h.send("30j/other<CR>")
        #expect(h.state.message == "Pattern not found")
        h.send("/<C-w>other<CR>")
        #expect(h.matchLine == 12)
        #expect(h.state.message == "Search hit BOTTOM, continuing at TOP")
        h.send("n")
        #expect(h.matchLine == 25, "the modifier stays for n")
    }

    @Test func filterShowsTheLinesThatDoNotMatch() {
        var h = PagerHarness(text: Self.text, columns: 40, rows: 6)
        h.send("&!keep<CR>")
        #expect(h.state.message == "Showing 2 non-matching lines (& alone shows all)")
        #expect(h.content.prefix(2) == ["line 12 other" + String(repeating: " ", count: 27),
                                        "line 25 other" + String(repeating: " ", count: 27)])
        h.send("j")
        #expect(h.status.hasPrefix("log [&!keep]"))
        h.send("&!line<CR>")
        #expect(h.state.message == "Every line matches")
        h.send("&<CR>")
        #expect(h.state.active.filterUnits == nil)
    }
}

/// Searches across files: `/*` and `^E` go on past the end of a file into the next ones
/// (backward: the previous), `/@` starts at the first file, `Esc n` / `Esc N` repeat across
/// files once; a search that finds nothing comes back to the file it began in.
@Suite struct SearchAcrossFilesTests {
    static func lines(_ n: Int, needles: [Int] = []) -> String {
        (1...n).map { needles.contains($0) ? "line \($0) needle" : "line \($0)" }.joined(separator: "\n") + "\n"
    }

    static func pager(wraps: Bool = false) -> PagerHarness {
        var config = PagerHarness.plain
        config.searchWraps = wraps
        return PagerHarness(texts: [("a.txt", lines(30)), ("b.txt", lines(30, needles: [20])),
                                    ("c.txt", lines(30, needles: [3, 9]))], columns: 30, rows: 6, config: config)
    }

    @Test func starGoesOnIntoTheNextFiles() {
        var h = Self.pager()
        h.send("/*needle<CR>")
        #expect(h.state.current == 1)
        #expect(h.matchLine == 20)
        #expect(h.effects.contains(.leftDocumentForSearch(0)))
        #expect(!h.effects.contains(.leftDocument(0)), "no saved position is restored over the match")
        h.send("n")
        #expect(h.state.current == 2, "* stays for n")
        #expect(h.matchLine == 3)
        h.send("nn")
        #expect(h.state.current == 2)
        #expect(h.state.message == "Pattern not found")
        #expect(h.matchLine == 9)
        h.send("N")
        #expect(h.matchLine == 3)
        h.send("N")
        #expect(h.state.current == 1, "backward into the previous file, from its end")
        #expect(h.matchLine == 20)
    }

    @Test func withoutStarTheSearchStaysInTheFile() {
        var h = Self.pager()
        h.send("/needle<CR>")
        #expect(h.state.current == 0)
        #expect(h.state.message == "Pattern not found")
        h.send("<A-n>")
        #expect(h.state.current == 1, "Esc n: across files, once")
        #expect(h.matchLine == 20)
        h.send("n")
        #expect(h.state.current == 1)
        #expect(h.state.message == "Pattern not found")
        h.send(":n<A-N>")
        #expect(h.state.current == 2, "Esc N from c.txt's screen: line 3, on it")
        #expect(h.matchLine == 3)
        h.send("<A-N>")
        #expect(h.state.current == 1, "nothing before it in c.txt: back into b.txt, from its end")
        #expect(h.matchLine == 20)
    }

    @Test func foundNowhereComesBackToTheFirstFile() {
        var h = Self.pager()
        h.send("5j/*zzz<CR>")
        #expect(h.state.current == 0)
        #expect(h.top == 5)
        #expect(h.state.message == "Pattern not found")
        #expect(h.state.search?.startedIn == nil)
    }

    @Test func atSignStartsAtTheFirstFile() {
        var h = Self.pager()
        h.send(":n:n")
        #expect(h.state.current == 2)
        h.send("/@needle<CR>")
        #expect(h.state.current == 2, "not in a.txt, and not across files: back")
        #expect(h.state.message == "Pattern not found")
        h.send("/@*needle<CR>")
        #expect(h.state.current == 1)
        #expect(h.matchLine == 20)
        h.send(":p?<C-f>needle<CR>")
        #expect(h.state.current == 2, "?@: from the last file's end")
        #expect(h.matchLine == 9)
    }

    /// A long file is searched in steps (keys go on meanwhile); across files, the steps go
    /// on into the next file.
    @Test func steppedSearchGoesOnIntoTheNextFile() {
        let long = (1...(PagerState.searchSliceTexts + 5_000)).map { "l\($0)" }.joined(separator: "\n") + "\n"
        var config = PagerHarness.plain
        config.searchWraps = false
        var h = PagerHarness(texts: [("long.txt", long), ("b.txt", Self.lines(30, needles: [20]))],
                             columns: 30, rows: 6, config: config)
        h.send("/*needle<CR>")
        #expect(h.state.current == 1)
        #expect(h.matchLine == 20)
        #expect(h.state.seeking == nil)
    }
}
