import ByteInput
import LineLayout
import Styling
@testable import Pager
import Testing

/// `Ng`, `N%`, `G` and forward searches on input still being read: the pager asks for more
/// (`.readToEnd`) and goes there once it has arrived (then `.stopReading`); any key stops it.
/// And the preview of a search being typed does bounded work, whatever the document's size.
extension PagerHarness {
    /// The content rows without their trailing spaces.
    var trimmedContent: [String] {
        content.map { row in String(row.reversed().drop { $0 == " " }.reversed()) }
    }
}

@Suite struct SeekingTests {
    /// A text document whose first `arrived` of `total` lines (`line 1` …) have come in.
    struct Stream {
        let store = ByteStore()
        var index = TextLineIndex()
        var harness: PagerHarness
        let lines: [String]
        var sent = 0

        init(total: Int, arrived: Int, rows: Int = 6, line: (Int) -> String = { "line \($0)" }) {
            lines = (1...total).map(line)
            var h = PagerHarness(text: "", columns: 40, rows: rows)
            h.state = PagerState(documents: [DocumentSpec(name: "stdin", path: nil, text: TextContent(store: store, lines: index))],
                                 config: PagerHarness.plain, rows: rows, columns: 40)
            harness = h
            arrive(arrived)
        }

        /// `count` more lines arrive.
        mutating func arrive(_ count: Int) {
            let next = lines[sent..<min(lines.count, sent + count)].map { $0 + "\n" }.joined()
            sent = min(lines.count, sent + count)
            Array(next.utf8).withUnsafeBytes { store.append($0) }
            index.advance(over: store)
            harness.send(.textGrew(document: 0, content: TextContent(store: store, lines: index)))
            harness.send(.inputArrived(document: 0))
        }

        /// The rest arrives and the input ends.
        mutating func end() {
            let next = lines[sent...].map { $0 + "\n" }.joined()
            sent = lines.count
            Array(next.utf8).withUnsafeBytes { store.append($0) }
            index.advance(over: store, inputEnded: true)
            harness.send(.textGrew(document: 0, content: TextContent(store: store, lines: index)))
            harness.send(.inputEnded(document: 0, error: nil))
        }

        var top: String { rows.first ?? "" }
        var rows: [String] { harness.trimmedContent }
        var effects: [PagerEffect] { harness.effects }
    }

    @Test func aForwardSearchReadsOnUntilTheMatchArrives() {
        var s = Stream(total: 1000, arrived: 100)
        s.harness.send("/^line 500$<CR>")
        #expect(s.effects == [.readToEnd(document: 0)])
        #expect(s.harness.status.contains("searching"))
        #expect(s.top == "line 1")
        s.arrive(300)  // up to line 400: not yet
        #expect(s.harness.state.seeking != nil)
        #expect(s.top == "line 1")
        s.arrive(200)  // line 500 is in
        #expect(s.harness.state.seeking == nil)
        #expect(s.effects.last == .stopReading(document: 0))
        #expect(s.rows.contains("line 500"))
        #expect(!s.harness.status.contains("searching"))
    }

    @Test func onAStreamASearchDoesNotWrapToAnEarlierMatchUntilTheInputEnds() {
        var s = Stream(total: 300, arrived: 100) { $0 == 3 ? "target" : "line \($0)" }
        s.harness.send("50g")
        #expect(s.top == "line 50")
        s.harness.send("/target<CR>")
        #expect(s.harness.state.seeking != nil)
        #expect(s.top == "line 50")
        s.end()
        #expect(s.harness.state.seeking == nil)
        #expect(s.rows.contains("target"))
        #expect(s.harness.status.contains("Search hit BOTTOM"))
    }

    @Test func aPatternThatNeverArrivesIsNotFoundAtTheEnd() {
        var s = Stream(total: 300, arrived: 100)
        s.harness.send("/nowhere<CR>")
        #expect(s.harness.state.seeking != nil)
        s.end()
        #expect(s.harness.state.seeking == nil)
        #expect(s.harness.status.contains("Pattern not found"))
        #expect(s.top == "line 1")
    }

    @Test func nReadsOnToTheNextMatch() {
        var s = Stream(total: 1000, arrived: 100) { $0 % 200 == 0 ? "mark \($0)" : "line \($0)" }
        s.harness.send("/mark<CR>")
        s.arrive(150)
        #expect(s.rows.contains("mark 200"))
        s.harness.send("n")
        #expect(s.harness.state.seeking != nil)
        #expect(s.effects.last == .readToEnd(document: 0))
        s.arrive(200)
        #expect(s.rows.contains("mark 400"))
        #expect(s.harness.state.seeking == nil)
    }

    @Test func lineNReadsOnToLineN() {
        var s = Stream(total: 1000, arrived: 100)
        s.harness.send("700g")
        #expect(s.effects == [.readToEnd(document: 0)])
        #expect(s.harness.status.contains("reading to line 700"))
        s.arrive(500)
        #expect(s.top == "line 1")
        s.arrive(200)
        #expect(s.top == "line 700")
        #expect(s.effects.last == .stopReading(document: 0))
        // A line that has arrived: no reading.
        s.harness.effects = []
        s.harness.send("20g")
        #expect(s.top == "line 20")
        #expect(s.effects.isEmpty)
    }

    @Test func percentWaitsForTheWhole() {
        var s = Stream(total: 1000, arrived: 100)
        s.harness.send("50%")
        #expect(s.effects == [.readToEnd(document: 0)])
        s.arrive(500)
        #expect(s.top == "line 1")
        s.end()
        // As less: the line holding byte 50% of the input (lines 1000 and up are longer).
        let bytes = s.lines.map { $0.utf8.count + 1 }
        var offset = 0
        let half = bytes.reduce(0, +) / 2
        let line = bytes.firstIndex { offset += $0; return offset > half }! + 1
        #expect(line == 507)
        #expect(s.top == "line \(line)")
        #expect(s.harness.state.seeking == nil)
    }

    @Test func lineNBeyondTheEndStopsAtTheEnd() {
        var s = Stream(total: 300, arrived: 100)
        s.harness.send("5000g")
        s.end()
        #expect(s.harness.state.seeking == nil)
        #expect(s.rows.contains("line 300"))
    }

    @Test func ctrlCStopsTheReadingAndLeavesTheViewWhereItWas() {
        var s = Stream(total: 1000, arrived: 100)
        s.harness.send("/^line 900$<CR>")
        s.harness.effects = []
        s.harness.send("<C-c>")
        #expect(s.effects == [.stopReading(document: 0)])
        #expect(s.harness.state.seeking == nil)
        s.arrive(900)
        #expect(s.top == "line 1")
    }

    /// `G` (or `F`) stopped by a key leaves the view on the rows it shows: lines that arrive
    /// afterwards do not move it (at the bottom it followed them, and the loop read on
    /// without end to keep it filled).
    @Test(arguments: ["G", "F"], ["<C-c>", "q", "k"])
    func aStoppedGOrFHoldsTheView(start: String, stop: String) {
        var s = Stream(total: 10_000, arrived: 100)
        s.harness.send(start)
        s.arrive(100)
        #expect(s.harness.state.active.viewport.position == .bottom, "following the end while it reads")
        let shown = s.rows
        s.harness.effects = []
        s.harness.send(stop)
        #expect(s.effects.first == .stopReading(document: 0))
        let held = stop == "k" ? s.rows : shown
        s.arrive(500)
        #expect(s.rows == held, "new lines do not move the view")
        if case .bottom = s.harness.state.active.viewport.position { Issue.record("still at the sticky bottom") }
    }

    /// The preview while typing looks at `previewTextLimit` lines at most: a match further
    /// on is found by Enter, not by each key.
    @Test func thePreviewOfASearchBeingTypedDoesBoundedWork() {
        let far = PagerState.previewTextLimit * 3
        let text = (1...(far + 10)).map { $0 == far ? "needle" : $0 == 40 ? "pin" : "line \($0)" }.joined(separator: "\n")
        var h = PagerHarness(text: text, columns: 40, rows: 6)
        h.send("/needle")
        #expect(h.trimmedContent.first == "line 1")
        h.send("<CR>")
        #expect(h.trimmedContent.contains("needle"))
        h.send("g/pin")
        #expect(h.trimmedContent.contains("pin"))
        h.send("<Esc>")
        #expect(h.trimmedContent.first == "line 1")
    }
}

/// The time between keys lays out (and highlights) the pages around the view, so a key that
/// pages into them runs no highlighter.
@Suite struct PrefetchTests {
    final class Calls: @unchecked Sendable { var count = 0 }

    @Test func idleTimeHighlightsThePagesAheadSoPagingDoesNot() {
        let markdown = (1...200).map { "```sh\necho \($0)\necho more\n```\n" }.joined(separator: "\n")
        var h = PagerHarness(markdown: markdown, columns: 40, rows: 12)
        let calls = Calls()
        h.send(.highlighterReady(CodeHighlighter { _, code in
            calls.count += 1
            return Highlighting(runs: [SyntaxRun(range: 0..<min(4, code.utf8.count), role: .keyword)])
        }))
        #expect(!h.state.wantsIdle)
        let start = calls.count
        for _ in 0..<10 {
            let before = calls.count
            _ = h.sendWithoutIdle(.key(.char(" ")))
            #expect(calls.count == before, "the key itself highlighted \(calls.count - before) blocks")
            #expect(h.state.wantsIdle)
            h.drainIdle()
        }
        #expect(calls.count > start, "idle time highlighted the pages ahead")
    }
}

/// A forward search through a long document goes a slice of lines at a time, in the time
/// between keys, so that any key (`Ctrl-C`) stops it; found, not found and wrapped read as a
/// search that ran at once.
@Suite struct SlicedSearchTests {
    static let lines = PagerState.searchSliceTexts * 3 + 10

    func pager(marks: [Int: String]) -> PagerHarness {
        let text = (1...Self.lines).map { marks[$0] ?? "line \($0)" }.joined(separator: "\n")
        return PagerHarness(text: text, columns: 40, rows: 6)
    }

    @Test func aMatchNearTheEndIsFoundInSteps() {
        let far = Self.lines - 5
        var h = pager(marks: [far: "needle"])
        for k in "/needle" { h.sendWithoutIdle(.key(.char(k))) }
        h.sendWithoutIdle(.key(.enter))
        #expect(h.state.seeking != nil, "the first slice does not reach it")
        #expect(h.status.contains("searching"))
        #expect(h.state.wantsIdle)
        var steps = 0
        while h.state.seeking != nil && steps < 10 { h.sendWithoutIdle(.idle); steps += 1 }
        #expect(steps >= 2 && steps <= 4)
        #expect(h.trimmedContent.contains("needle"))
        #expect(!h.status.contains("searching"))
    }

    @Test func ctrlCStopsASearchThroughALongDocument() {
        var h = pager(marks: [Self.lines - 5: "needle"])
        for k in "/needle" { h.sendWithoutIdle(.key(.char(k))) }
        h.sendWithoutIdle(.key(.enter))
        h.sendWithoutIdle(.key(.ctrl("c")))
        #expect(h.state.seeking == nil)
        h.drainIdle()
        #expect(h.trimmedContent.first == "line 1")
        #expect(!h.trimmedContent.contains("needle"))
    }

    @Test func itWrapsToAMatchAboveTheView() {
        var h = pager(marks: [3: "needle"])
        h.send("\(Self.lines / 2)g")
        h.send("/needle<CR>")
        #expect(h.state.seeking == nil)
        #expect(h.trimmedContent.contains("needle"))
        #expect(h.status.contains("Search hit BOTTOM"))
    }

    @Test func aPatternNowhereIsNotFound() {
        var h = pager(marks: [:])
        h.send("100g")
        h.send("/nowhere<CR>")
        #expect(h.state.seeking == nil)
        #expect(h.status.contains("Pattern not found"))
        #expect(h.trimmedContent.first == "line 100")
    }

    @Test func nFindsTheNextMatchFarAway() {
        let a = 10, b = Self.lines - 20
        var h = pager(marks: [a: "mark A", b: "mark B"])
        h.send("/mark<CR>")
        #expect(h.trimmedContent.contains("mark A"))
        h.send("n")
        #expect(h.trimmedContent.contains("mark B"))
        h.send("n")
        #expect(h.trimmedContent.contains("mark A"))
        #expect(h.status.contains("Search hit BOTTOM"))
    }
}
