import TestSupport
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// Seeded random key sequences (searches, filters, selection, outline, help, marks, mouse,
/// resizes) on generated documents at small sizes. Laws after every event: nothing crashes,
/// the frame is the screen's size, the top row is within 0…maxTop, a selection refers to an
/// element of the document in view.
@Suite struct FuzzTests {
    typealias SplitMix = SeededRandom

    static let pieces = allKeys + ["/link<CR>", "/words<CR>", "?Section<CR>", "&bold<CR>", "&<CR>", "/(<CR>",
                                   "/qu", "<Esc>", "n", "N", "3n", "<Tab>", "<S-Tab>", "<CR>", "<BS>", "o",
                                   "ojj<CR>", "ose<CR>", "h", "q", ":n", ":p", "ma", "'a", "''", "50%", "12g", "G"]

    @Test(arguments: 0..<6)
    func randomSessions(_ seed: Int) {
        var rng = SplitMix(state: UInt64(seed) &* 7919)
        let doc = generatedDocument(sections: 4)
        for _ in 0..<12 {
            var rows = Int.random(in: 1...9, using: &rng)
            var columns = Int.random(in: 1...30, using: &rng)
            var config = PagerHarness.plain
            config.scrollbar = Scrollbar.allCases.randomElement(using: &rng)!
            config.mouse = true
            var h = PagerHarness(documents: [("a.md", doc), ("b.md", numberedLines(30))],
                                 columns: columns, rows: rows, config: config)
            var trail: [String] = []
            for _ in 0..<40 {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    rows = Int.random(in: 1...9, using: &rng); columns = Int.random(in: 1...30, using: &rng)
                    trail.append("resize \(rows)x\(columns)")
                    h.send(.resize(rows: rows, columns: columns))
                case 1:
                    let r = Int.random(in: 0...rows, using: &rng), c = Int.random(in: 0...columns, using: &rng)
                    let kind: MouseEvent.Kind = [.press(.left), .drag(.left), .release(.left), .wheelDown, .wheelUp]
                        .randomElement(using: &rng)!
                    trail.append("mouse \(kind) \(r),\(c)")
                    h.send(.mouse(MouseEvent(kind: kind, row: r, column: c)))
                default:
                    let k = Self.pieces.randomElement(using: &rng)!
                    trail.append(k)
                    h.send(k)
                }
                let grid = h.state.frame()
                #expect(grid.rows == rows && grid.columns == columns)
                let doc = h.state.active
                #expect(h.top >= 0 && h.top <= doc.viewport.maxTop(in: doc.layout), "\(trail)")
                if let sel = h.state.selection {
                    #expect(doc.elements.indices.contains(sel.index) && doc.elements[sel.index] == sel.element,
                            "stale selection after \(trail)")
                }
            }
        }
    }
}
