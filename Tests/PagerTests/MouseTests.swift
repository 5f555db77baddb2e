import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing

extension PagerEvent {
    static func press(_ row: Int, _ column: Int) -> PagerEvent { .mouse(MouseEvent(kind: .press(.left), row: row, column: column)) }
    static func drag(_ row: Int, _ column: Int) -> PagerEvent { .mouse(MouseEvent(kind: .drag(.left), row: row, column: column)) }
    static func release(_ row: Int, _ column: Int) -> PagerEvent { .mouse(MouseEvent(kind: .release(.left), row: row, column: column)) }
    static let wheelDown = PagerEvent.mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0))
    static let wheelUp = PagerEvent.mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0))
}

@Suite struct MouseTests {
    static var config: PagerConfig { var c = PagerHarness.plain; c.mouse = true; return c }
    func pager(_ doc: String = numberedLines(20), columns: Int = 24, rows: Int = 6) -> PagerHarness {
        PagerHarness(markdown: doc, columns: columns, rows: rows, config: Self.config)
    }

    @Test func wheelScrollsThreeRows() {
        var h = pager()
        h.send(.wheelDown)
        #expect(h.top == 3)
        h.send(.wheelDown)
        h.send(.wheelUp)
        #expect(h.top == 3)
        for _ in 0..<10 { h.send(.wheelDown) }
        #expect(h.top == 15)
        h.send(.wheelUp)
        #expect(h.top == 12)
    }

    @Test func dragPastTheBottomScrollsAndIdleKeepsScrolling() {
        var h = pager()
        h.sendWithoutIdle(.press(1, 0))
        h.sendWithoutIdle(.drag(3, 2))
        #expect(h.top == 0)
        #expect(h.state.mouseDrag?.edgeDirection == nil)
        // The status row (5) is past the bottom edge: one row per drag event.
        h.sendWithoutIdle(.drag(5, 3))
        #expect(h.top == 1)
        h.sendWithoutIdle(.drag(5, 3))
        #expect(h.top == 2)
        // Held there: idle time scrolls on.
        #expect(h.state.mouseDrag?.edgeDirection != nil && h.state.wantsIdle)
        h.sendWithoutIdle(.idle)
        #expect(h.top == 3)
        // Back inside: scrolling stops.
        h.sendWithoutIdle(.drag(2, 10))
        #expect(h.state.mouseDrag?.edgeDirection == nil)
        #expect(h.top == 3)
        // The dragged cells are drawn selected.
        #expect(h.isHighlighted(row: 0, column: 0))
        #expect(h.isHighlighted(row: 2, column: 5))
        let effects = h.sendWithoutIdle(.release(2, 10))
        // Rows 1…5 of the document: hard line breaks stay line breaks.
        #expect(effects == [.copy("line 2\nline 3\nline 4\nline 5\nline 6")])
        #expect(h.status == "Copied 34 characters")
    }

    @Test func heldPastTheBottomStopsAtTheEnd() {
        var h = pager()
        h.sendWithoutIdle(.press(0, 0))
        h.send(.drag(5, 0))  // idles until nothing is left to scroll
        #expect(h.top == 15)
        #expect(!h.state.wantsIdle)
    }

    @Test func dragAboveTheTopScrollsUp() {
        var h = pager()
        h.send("10j")
        h.sendWithoutIdle(.press(3, 0))
        h.sendWithoutIdle(.drag(0, 0))
        #expect(h.top == 9)
        h.sendWithoutIdle(.idle)
        #expect(h.top == 8)
    }

    @Test func copyJoinsSoftWrappedRowsWithTheSpaceTheWrapConsumed() {
        var h = pager("aaa bbb ccc ddd\n\nnext para", columns: 8, rows: 6)
        #expect(h.content.prefix(4) == ["aaa bbb ", "ccc ddd ", "        ", "next    "])
        h.send(.press(0, 4))
        h.send(.drag(3, 3))
        let effects = h.sendWithoutIdle(.release(3, 3))
        #expect(effects == [.copy("bbb ccc ddd\nnext")])
        #expect(h.state.message == "Copied 16 characters")
    }

    @Test func aClickWithoutMovingCopiesNothing() {
        var h = pager()
        h.send(.press(1, 1))
        h.send(.release(1, 1))
        #expect(h.effects.isEmpty)
        #expect(h.state.mouseDrag == nil)
    }

    @Test func clickSelectsALinkAndASecondClickFollowsIt() {
        var h = pager("Go [there](https://e.org/x) now\n\n" + numberedLines(10))
        h.send(.press(0, 4))
        h.send(.release(0, 4))
        #expect(h.state.selection?.element.kind == .link("https://e.org/x"))
        #expect(h.status == "https://e.org/x")
        #expect(h.effects.isEmpty)
        #expect(h.isHighlighted(row: 0, column: 3))
        h.send(.press(0, 5))
        h.send(.release(0, 5))
        #expect(h.effects == [.openURL("https://e.org/x")])
    }

    @Test func aClickOnPlainTextSelectsNothing() {
        var h = pager("Go [there](https://e.org/x) now")
        h.send(.press(0, 0))
        h.send(.release(0, 0))
        #expect(h.state.selection == nil)
        // A key between two clicks: the second click selects again, it does not follow.
        h.send(.press(0, 4))
        h.send(.release(0, 4))
        h.send("j")
        h.send(.press(0, 4))
        h.send(.release(0, 4))
        #expect(h.effects.isEmpty)
    }
}
