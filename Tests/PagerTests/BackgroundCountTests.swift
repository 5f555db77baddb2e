import LineLayout
import MarkdownModel
import Styling
@testable import Pager
import Testing
import Viewport

/// A large document re-laid out at a new width is shown from estimated counts (exact around
/// the view) until exact counts made elsewhere are handed over; the run loop counts them on
/// another thread (`EventLoop.startCounting`), here they are counted in place.
@Suite struct BackgroundCountTests {
    /// Enough units to be counted in the background: one paragraph per unit, some wrapping.
    static let markdown = (1...(DocumentState.backgroundCountUnits + 100)).map { n in
        n % 7 == 0 ? "Paragraph \(n) is long enough to wrap at a narrow width, with words and more words." : "P\(n)"
    }.joined(separator: "\n\n")

    static func state() -> DocumentState {
        DocumentState(name: "big", path: nil, document: MarkdownParser.parse(markdown),
                      options: LayoutOptions(width: 80), contentRows: 10)
    }

    @Test func aNewWidthWaitsForCountsAndKeepsItsPlace() {
        var doc = Self.state()
        #expect(doc.countsWanted == nil)
        doc.jump(to: .anchor(Anchor(block: doc.content.id(ofUnit: 3000), offset: 0)))
        let before = doc.layout.anchor(atRow: doc.top)
        doc.relayout(options: LayoutOptions(width: 30), contentRows: 10)
        #expect(doc.countsWanted == LayoutOptions(width: 30))
        #expect(!doc.layout.isExact)
        #expect(doc.layout.anchor(atRow: doc.top) == before)

        let counts = doc.content.rowCounts(of: doc.layout.unitRange, options: LayoutOptions(width: 30))
        doc.takeRowCounts(counts, options: LayoutOptions(width: 30), content: doc.content)
        #expect(doc.countsWanted == nil)
        #expect(doc.layout.isExact)
        #expect(doc.layout.rowCount == counts.reduce(0, +))
        #expect(doc.layout.anchor(atRow: doc.top) == before)
        // Back and forth: both widths are cached now, nothing is wanted.
        doc.relayout(options: LayoutOptions(width: 80), contentRows: 10)
        doc.relayout(options: LayoutOptions(width: 30), contentRows: 10)
        #expect(doc.countsWanted == nil && doc.layout.isExact)
    }

    /// The highlighter joins after the first frame, and a large document's full parse may
    /// have been counted without it: highlighting never changes rows, so neither its arrival
    /// nor a document built without it waits for a count; the rows are laid out again with
    /// it (their spans carry the colours).
    @Test func theHighlighterJoiningCountsNothingAgain() {
        let highlighter = CodeHighlighter { _, _ in Highlighting(runs: []) }
        var options = LayoutOptions(width: 80)
        var doc = Self.state()
        options.highlighter = highlighter
        doc.relayout(options: options, contentRows: 10)
        #expect(doc.countsWanted == nil)
        #expect(doc.layout.isExact)
        #expect(doc.layout.options.highlighter === highlighter)
        // A document built off the loop before the highlighter joined.
        var spec = DocumentSpec(name: "big", path: nil, document: MarkdownParser.parse(Self.markdown))
        spec.prebuild(for: LayoutOptions(width: 80))
        let adopted = DocumentState(spec: spec, options: options, contentRows: 10)
        #expect(adopted.countsWanted == nil)
        #expect(adopted.layout.isExact)
        #expect(adopted.layout.options.highlighter === highlighter)
        #expect(adopted.layout.rowCount == doc.layout.rowCount)
        // Another width still waits for its counts.
        var wider = adopted
        options.width = 60
        wider.relayout(options: options, contentRows: 10)
        #expect(wider.countsWanted == options)
        // The highlighter joining while they are made: the counts, made without it, are taken.
        var plain = Self.state()
        plain.relayout(options: LayoutOptions(width: 60), contentRows: 10)
        #expect(plain.countsWanted == LayoutOptions(width: 60))
        plain.relayout(options: options, contentRows: 10)
        #expect(plain.countsWanted == options)
        let counts = plain.content.rowCounts(of: plain.layout.unitRange, options: LayoutOptions(width: 60))
        plain.takeRowCounts(counts, options: LayoutOptions(width: 60), content: plain.content)
        #expect(plain.countsWanted == nil)
        #expect(plain.layout.isExact)
        #expect(plain.layout.options.highlighter === highlighter)
    }

    @Test func countsForAnotherWidthOrContentAreDropped() {
        var doc = Self.state()
        doc.relayout(options: LayoutOptions(width: 30), contentRows: 10)
        let stale = doc.content.rowCounts(of: doc.layout.unitRange, options: LayoutOptions(width: 30))
        doc.relayout(options: LayoutOptions(width: 50), contentRows: 10)
        doc.takeRowCounts(stale, options: LayoutOptions(width: 30), content: doc.content)
        #expect(doc.countsWanted == LayoutOptions(width: 50) && !doc.layout.isExact)

        let other = Self.state()
        let counts = other.content.rowCounts(of: other.layout.unitRange, options: LayoutOptions(width: 50))
        doc.takeRowCounts(counts, options: LayoutOptions(width: 50), content: other.content)
        #expect(doc.countsWanted == LayoutOptions(width: 50) && !doc.layout.isExact)
    }

    /// A small document is still counted at once (no waiting, exact at every width).
    @Test func aSmallDocumentIsCountedAtOnce() {
        var doc = DocumentState(name: "small", path: nil, document: MarkdownParser.parse(generatedDocument()),
                                options: LayoutOptions(width: 80), contentRows: 10)
        doc.relayout(options: LayoutOptions(width: 30), contentRows: 10)
        #expect(doc.countsWanted == nil && doc.layout.isExact)
    }
}
