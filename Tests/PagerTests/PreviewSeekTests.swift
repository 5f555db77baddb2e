import MarkdownModel
import Pager
import Testing

/// A large Markdown file shows a preview of its beginning until its full parse is in (and a
/// Markdown stream, a parse of what has arrived). Keys that need the whole document — `G`,
/// `Ng`, `N%`, a search for text past the preview — wait for it, as on a pipe still being
/// read, instead of acting on the preview alone (`50%` went to the middle of the preview
/// and stayed there; a search said "Pattern not found").
@Suite struct PreviewSeekTests {
    static let full = (1...200).map { "## Section \($0)\n\nParagraph \($0) of the document." }.joined(separator: "\n\n") + "\n"
    static let preview = (1...10).map { "## Section \($0)\n\nParagraph \($0) of the document." }.joined(separator: "\n\n") + "\n"

    static func harness() -> PagerHarness {
        var h = PagerHarness(markdown: "", columns: 40, rows: 8)
        let spec = DocumentSpec(name: "doc.md", path: nil, document: MarkdownParser.parse(preview), isPreview: true)
        h.send(.documentReady(document: 0, spec: spec, changedUnits: []))
        return h
    }

    static func arrives(_ h: inout PagerHarness) {
        h.send(.documentReady(document: 0, spec: DocumentSpec(name: "doc.md", path: nil, document: MarkdownParser.parse(full)),
                              changedUnits: []))
    }

    /// The same keys on the whole document from the start: where the preview's keys must end.
    static func whole(_ keys: String) -> PagerHarness {
        var h = PagerHarness(markdown: full, columns: 40, rows: 8)
        h.send(keys)
        return h
    }

    @Test(arguments: ["50%", "400g", "G", "/Paragraph 150 <CR>", "3/Paragraph 1<CR>"])
    func keysThatNeedTheWholeDocumentWaitForIt(keys: String) {
        var h = Self.harness()
        h.send(keys)
        #expect(!h.screen.contains { $0.contains("not found") }, "\(h.screen)")
        Self.arrives(&h)
        let expected = Self.whole(keys)
        #expect(h.top == expected.top, "top \(h.top), whole document: \(expected.top)")
        #expect(h.content == expected.content)
        #expect(h.top > 0)
    }

    /// Keys within the preview act at once.
    @Test func pagingWithinThePreviewDoesNotWait() {
        var h = Self.harness()
        h.send("<Space>")
        #expect(h.top > 0)
        #expect(h.top == Self.whole("<Space>").top)
    }
}

/// What the run loop's reading positions hand to the pager, as events (the edge no longer
/// writes the state's documents or history).
@Suite struct PlacementEventTests {
    static let doc = (1...60).map { "Paragraph \($0) of the notes." }.joined(separator: "\n\n") + "\n"

    @Test func placedMovesTheViewAndSetsMarksAndPrevious() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        let layout = h.state.active.layout
        let there = layout.anchor(atRow: 40), mark = layout.anchor(atRow: 20)
        h.send(.placed(document: 0, position: .anchor(there), previous: .anchor(mark), marks: ["a": .anchor(mark)]))
        #expect(h.top == 40)
        h.send("'a")
        #expect(h.top == 20)
        h.send("g")
        h.send("''")
        #expect(h.top == 20, "'' goes back to where g came from")
    }

    @Test func placedOnRowZeroIsTheTopAndNilStays() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("<Space>")
        let paged = h.top
        h.send(.placed(document: 0, position: nil, previous: nil, marks: [:]))
        #expect(h.top == paged)
        h.send(.placed(document: 0, position: .anchor(h.state.active.layout.anchor(atRow: 0)), previous: nil, marks: [:]))
        #expect(h.top == 0)
        #expect(h.state.active.viewport.position == .top)
    }

    /// A file read again after it changed: replaced with no effects, the view kept by unit
    /// (the edge then places it by text), the changed units cued until the next key.
    @Test func reloadedReplacesMarksTheChangesAndKeepsTheView() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("<Space>")
        let top = h.top
        #expect(top > 0)
        let edited = Self.doc.replacingOccurrences(of: "Paragraph 5 of", with: "Paragraph 5, edited, of")
        let spec = DocumentSpec(name: "doc.md", path: nil, document: MarkdownParser.parse(edited))
        let effects = h.sendWithoutIdle(.reloaded(document: 0, spec: spec, changedUnits: [4]))
        #expect(effects.isEmpty)
        #expect(h.top == top)
        let cued = h.content.filter { $0.hasSuffix("▐") }
        #expect(cued.count == 1 && cued.first?.hasPrefix("Paragraph 5, edited, of") == true, "\(h.content)")
    }

    /// Following (`F`) a Markdown file that grows: the reload shows its new end.
    @Test func reloadedWhileFollowingShowsTheNewEnd() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send("F")
        let longer = Self.doc + "\nA new last paragraph.\n"
        let spec = DocumentSpec(name: "doc.md", path: nil, document: MarkdownParser.parse(longer))
        h.send(.reloaded(document: 0, spec: spec, changedUnits: [60]))
        #expect(h.content.contains { $0.hasPrefix("A new last paragraph.") }, "\(h.content)")
    }

    @Test func historyIsTakenOnlyWhenTheSessionHasNone() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send(.searchHistoryLoaded(["older", "old"]))
        #expect(h.state.searchHistory == ["older", "old"])
        h.send("/Paragraph 3<CR>")
        h.send(.searchHistoryLoaded(["other"]))
        #expect(h.state.searchHistory == ["older", "old", "Paragraph 3"])
    }
}

/// The command line's start command (`+N`, `+/pattern`, `+G`, `+F`) reaches the pager as
/// `.start` and acts as its keys would.
@Suite struct StartCommandTests {
    static let doc = (1...60).map { "Paragraph \($0) of the notes." }.joined(separator: "\n\n") + "\n"

    static func keys(_ keys: String) -> PagerHarness {
        var h = PagerHarness(markdown: doc, columns: 40, rows: 8)
        h.send(keys)
        return h
    }

    @Test func lineAndEndAreTheirKeys() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send(.start(.line(61)))
        #expect(h.content.first?.hasPrefix("Paragraph 31 of") == true, "\(h.content)")
        #expect(h.top == Self.keys("61g").top)
        h.send(.start(.end))
        #expect(h.top == Self.keys("G").top)
        #expect(h.top > 61)
    }

    @Test func searchFindsTheFirstMatchAndABadPatternIsSaid() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        h.send(.start(.search("Paragraph 4[0-9] ")))
        #expect(h.content.contains { $0.hasPrefix("Paragraph 40 of") }, "\(h.content)")
        #expect(h.state.searchHistory == ["Paragraph 4[0-9] "])
        var bad = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        let effects = bad.sendWithoutIdle(.start(.search("(")))
        #expect(effects.isEmpty)
        #expect(bad.top == 0)
        #expect(bad.state.message?.isEmpty == false)
    }

    @Test func followFollowsAndReadsOn() {
        var h = PagerHarness(markdown: Self.doc, columns: 40, rows: 8)
        let effects = h.sendWithoutIdle(.start(.follow))
        #expect(h.state.following)
        #expect(effects == [.readToEnd(document: 0)])
        #expect(h.top == Self.keys("G").top)
    }
}
