import TestSupport
import Testing
@testable import TerminalScreen

/// The main correctness proof: renderer bytes, replayed through `TestTerminal` on top of the
/// previous frame, reproduce the new frame exactly — text, wide characters and styles.
@Suite struct FrameRendererTests {
    static let samples: [String] = ["a", "b", "x", " ", "é", "e\u{301}", "中", "文", "😀", "👍🏽", "-", "Z",
                                    "क्ष", "स्त्री", "\u{600}\u{600}1"]
    static let styles: [CellStyle] = [
        .plain, CellStyle(bold: true), CellStyle(foreground: .ansi(1)), CellStyle(background: .palette(200)),
        CellStyle(foreground: .rgb(10, 200, 30), underline: true), CellStyle(dim: true, italic: true),
        CellStyle(reverse: true, strikethrough: true), CellStyle(hyperlink: "https://example.com/a"),
        CellStyle(bold: true, hyperlink: "https://example.com/b"),
    ]

    static func randomGrid(rows: Int, columns: Int, using rng: inout SeededRandom) -> Grid {
        var grid = Grid(rows: rows, columns: columns)
        for _ in 0..<Int.random(in: 0...(rows * 3), using: &rng) {
            let text = (0..<Int.random(in: 1...6, using: &rng)).map { _ in samples.randomElement(using: &rng)! }.joined()
            grid.put(text, style: styles.randomElement(using: &rng)!,
                     row: Int.random(in: 0..<rows, using: &rng), column: Int.random(in: -1..<columns, using: &rng))
        }
        return grid
    }

    /// Renders `old` onto a garbage screen, then `new`, and checks the emulator shows `new`.
    static func replay(_ old: Grid, _ new: Grid, scrollRows: Range<Int>? = nil) -> (TestTerminal, bytes: Int) {
        var renderer = FrameRenderer()
        var terminal = TestTerminal(rows: old.rows, columns: old.columns, garbage: true)
        terminal.feed(renderer.render(old, depth: .trueColor))
        #expect(terminal.screen == old, "first frame\n\(terminal.screen.dump(styles: true))\nexpected\n\(old.dump(styles: true))")
        let bytes = renderer.render(new, depth: .trueColor, scrollRows: scrollRows)
        terminal.feed(bytes)
        return (terminal, bytes.count)
    }

    @Test(arguments: 0..<300)
    func randomPairsReplayExactly(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed))
        let rows = Int.random(in: 1...7, using: &rng), columns = Int.random(in: 1...11, using: &rng)
        let old = Self.randomGrid(rows: rows, columns: columns, using: &rng)
        var new: Grid
        switch seed % 3 {
        case 0: new = Self.randomGrid(rows: rows, columns: columns, using: &rng)
        case 1:  // a few edits on top of the old frame
            new = old
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                new.put(Self.samples.randomElement(using: &rng)!, style: Self.styles.randomElement(using: &rng)!,
                        row: Int.random(in: 0..<rows, using: &rng), column: Int.random(in: 0..<columns, using: &rng))
            }
        default:  // a shift of part of the frame, plus an edit
            new = old
            let top = Int.random(in: 0..<rows, using: &rng), bottom = Int.random(in: top...rows, using: &rng)
            new.scroll(region: top..<bottom, by: Int.random(in: -3...3, using: &rng))
            new.put("中x", style: .plain, row: Int.random(in: 0..<rows, using: &rng), column: 0)
        }
        let (terminal, _) = Self.replay(old, new)
        #expect(terminal.errors == [])
        #expect(terminal.screen == new, "got\n\(terminal.screen.dump(styles: true))\nexpected\n\(new.dump(styles: true))")
    }

    static func page(_ first: Int, rows: Int = 24, columns: Int = 80) -> Grid {
        var grid = Grid(rows: rows, columns: columns)
        for r in 0..<(rows - 1) {
            let n = first + r
            let text = "Line \(n): the quick brown fox jumps over the lazy dog \(n * 7919 % 1000) and more text here"
            grid.put(text, style: n % 5 == 0 ? CellStyle(bold: true) : .plain, row: r, column: 0)
        }
        grid.put("doc.md  line \(first)", style: CellStyle(reverse: true), row: rows - 1, column: 0)
        grid.fill(rows: (rows - 1)..<rows, columns: 16..<columns, style: CellStyle(reverse: true))
        grid.put("doc.md  line \(first)", style: CellStyle(reverse: true), row: rows - 1, column: 0)
        return grid
    }

    @Test(arguments: [1, -1, 2, -2, 5, -5, 12, -12, 22, -22])
    func shiftedPagesReplayExactly(shift: Int) {
        let old = Self.page(100), new = Self.page(100 + shift)
        let (terminal, _) = Self.replay(old, new, scrollRows: 0..<23)
        #expect(terminal.errors == [])
        #expect(terminal.screen == new)
    }

    @Test func oneRowScrollSendsAboutOneRow() {
        for shift in [1, -1] {
            let (terminal, bytes) = Self.replay(Self.page(100), Self.page(100 + shift), scrollRows: 0..<23)
            #expect(terminal.screen == Self.page(100 + shift))
            #expect(bytes < 2 * 80, "a one-row scroll sent \(bytes) bytes")
        }
        // Without the scroll region hint the renderer finds the shift on its own.
        let (_, bytes) = Self.replay(Self.page(100), Self.page(101))
        #expect(bytes < 2 * 80)
    }

    @Test func scrollingCanBeTurnedOff() {
        var renderer = FrameRenderer(usesScrolling: false)
        _ = renderer.render(Self.page(1), depth: .trueColor)
        let bytes = renderer.render(Self.page(2), depth: .trueColor)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("S"))  // no SU
    }

    /// An unchanged frame writes nothing at all (an idle pager wrote an empty synchronized
    /// update at every poll, four times a second); the next change is drawn as usual.
    @Test func unchangedFrameSendsNothing() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.page(1), depth: .trueColor)
        #expect(renderer.render(Self.page(1), depth: .trueColor) == [])
        let next = renderer.render(Self.page(2), depth: .trueColor)
        #expect(next.starts(with: ANSI.beginSynchronizedUpdate))
        #expect(Array(next.suffix(ANSI.endSynchronizedUpdate.count)) == ANSI.endSynchronizedUpdate)
    }

    @Test func invalidateRedrawsEverything() {
        var renderer = FrameRenderer()
        let page = Self.page(1)
        _ = renderer.render(page, depth: .trueColor)
        renderer.invalidate()
        var terminal = TestTerminal(rows: 24, columns: 80, garbage: true)
        terminal.feed(renderer.render(page, depth: .trueColor))
        #expect(terminal.screen == page)
        #expect(terminal.errors == [])
    }

    @Test func resizeRedrawsEverything() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.page(1), depth: .trueColor)
        let small = Self.page(1, rows: 5, columns: 20)
        var terminal = TestTerminal(rows: 5, columns: 20, garbage: true)
        terminal.feed(renderer.render(small, depth: .trueColor))
        #expect(terminal.screen == small)
    }

    @Test func framesAreSynchronizedAndHideTheCursor() {
        var renderer = FrameRenderer()
        let bytes = renderer.render(Grid(lines: ["hi"], columns: 4), depth: .trueColor)
        #expect(bytes.starts(with: ANSI.beginSynchronizedUpdate))
        #expect(Array(bytes.suffix(ANSI.endSynchronizedUpdate.count)) == ANSI.endSynchronizedUpdate)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}[?25l"))
    }

    @Test func hyperlinksAreOpenedAndClosed() {
        var grid = Grid(rows: 1, columns: 10)
        grid.put("see ", row: 0, column: 0)
        grid.put("link", style: CellStyle(underline: true, hyperlink: "https://e.x/\u{1B}"), row: 0, column: 4)
        var renderer = FrameRenderer()
        let text = String(decoding: renderer.render(grid, depth: .trueColor), as: UTF8.self)
        #expect(text.contains("see\u{1B}[C\u{1B}]8;;https://e.x/%1B\u{1B}\\\u{1B}[4mlink"))  // the URL's ESC is percent-encoded
        #expect(text.contains("link\u{1B}]8;;\u{1B}\\"))
    }

    @Test(arguments: ColorDepth.allCases)
    func coloursAreDowngradedToTheDepth(depth: ColorDepth) {
        var grid = Grid(rows: 2, columns: 6)
        grid.put("rgb", style: CellStyle(foreground: .rgb(250, 10, 10), background: .rgb(0, 0, 90)), row: 0, column: 0)
        grid.put("pal", style: CellStyle(foreground: .palette(123), bold: true), row: 1, column: 0)
        var renderer = FrameRenderer()
        var terminal = TestTerminal(rows: 2, columns: 6)
        terminal.feed(renderer.render(grid, depth: depth))
        for r in 0..<2 {
            for c in 0..<6 {
                #expect(terminal.screen[r, c].style == grid[r, c].style.downgraded(to: depth))
            }
        }
    }

    @Test func wideCharacterOverNarrowAndBack() {
        let a = Grid(lines: ["abcd"], columns: 4)
        let b = Grid(lines: ["a中d"], columns: 4)
        let c = Grid(lines: ["axyd"], columns: 4)
        let d = Grid(lines: ["中文"], columns: 4)
        for (old, new) in [(a, b), (b, a), (b, c), (c, d), (d, a), (d, b)] {
            let (terminal, _) = Self.replay(old, new)
            #expect(terminal.screen == new)
            #expect(terminal.errors == [])
        }
        #expect(FrameRenderer.changes(from: a, to: b).map(\.column) == [1])
        #expect(FrameRenderer.changes(from: b, to: c).map(\.column) == [1, 2])
    }
}
