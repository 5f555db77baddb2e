import ByteInput
import KeyNotationSupport
import LineLayout
import MarkdownModel
@testable import Pager
import TerminalScreen
import Testing
import Viewport

/// Drives a `PagerState` with keys in `KeyNotation` and reads its screen as text.
///
/// Every key is one `update(.key)`, followed by `.idle` until the pager has no background
/// work left (match counting, edge scrolling), the way the run loop feeds it when no input
/// is waiting. Effects are collected in `effects`, oldest first.
struct PagerHarness {
    var state: PagerState
    var effects: [PagerEffect] = []

    /// The configuration most screen tests use: no scroll indicator, no colour, so a screen
    /// is exactly its text.
    static var plain: PagerConfig {
        var c = PagerConfig()
        c.scrollbar = .never
        c.theme = Theme(depth: .none)
        // The screen tests of searching were written for searches that wrap (`--search-wrap`);
        // stopping at the end, folio's default, is tested with it set off.
        c.searchWraps = true
        return c
    }

    init(markdown: String, columns: Int, rows: Int, config: PagerConfig = PagerHarness.plain,
         name: String = "doc.md", path: String? = nil) {
        self.init(documents: [(name, markdown)], columns: columns, rows: rows, config: config, path: path)
    }

    init(documents: [(name: String, markdown: String)], columns: Int, rows: Int,
         config: PagerConfig = PagerHarness.plain, path: String? = nil) {
        let specs = documents.map {
            DocumentSpec(name: $0.name, path: path, document: MarkdownParser.parse($0.markdown))
        }
        state = PagerState(documents: specs, config: config, rows: rows, columns: columns)
    }

    /// A text document (lines, as `folio --text` shows them), whole.
    init(text: String, columns: Int, rows: Int, config: PagerConfig = PagerHarness.plain) {
        let store = ByteStore()
        Array(text.utf8).withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store)
        state = PagerState(documents: [DocumentSpec(name: "log", path: nil, text: content)],
                           config: config, rows: rows, columns: columns)
    }

    /// Sends keys written in notation (`"3<Space>/foo<CR>"`), each followed by idle time.
    mutating func send(_ notation: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let keys: [Key]
        do { keys = try KeyNotation.parse(notation) } catch {
            Issue.record("bad key notation \(notation.debugDescription): \(error)", sourceLocation: sourceLocation)
            return
        }
        for key in keys { send(.key(key)) }
    }

    /// Sends one event, then idles until the pager wants no more idle time.
    mutating func send(_ event: PagerEvent) {
        effects += state.update(event)
        drainIdle()
    }

    /// Sends one event with no idle time after it (for tests of what idle does).
    @discardableResult
    mutating func sendWithoutIdle(_ event: PagerEvent) -> [PagerEffect] {
        let e = state.update(event)
        effects += e
        return e
    }

    mutating func drainIdle(limit: Int = 10_000) {
        var n = 0
        while state.wantsIdle && n < limit {
            effects += state.update(.idle)
            n += 1
        }
    }

    /// The rows of the frame as text (trailing spaces kept).
    var screen: [String] {
        let g = state.frame()
        return (0..<g.rows).map { g.row($0) }
    }

    /// The top row of the view in the current row map.
    var top: Row { state.active.top }

    /// The status line, trailing spaces removed.
    var status: String {
        var s = screen.last ?? ""
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The content rows only (without the status line).
    var content: [String] { Array(screen.dropLast()) }

    /// Compares the screen with rows written neovim style: each row ends in `|`, so trailing
    /// spaces are visible. Leading indentation of the literal is removed by Swift.
    func expectScreen(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let actual = screen.map { $0 + "|" }
        if expected != actual {
            Issue.record("""
                screen differs
                expected:
                \(expected.joined(separator: "\n"))
                actual:
                \(actual.joined(separator: "\n"))
                """, sourceLocation: sourceLocation)
        }
    }

    /// The anchor block (layout block index) on the top row.
    var topBlock: Unit {
        let rows = state.active.layout
        guard rows.rowCount > 0 else { return -1 }
        return rows.locate(top).unit
    }

    /// Screen row (0-based) of the first row showing `text`, or nil.
    func row(of text: String) -> Int? { content.firstIndex { $0.contains(text) } }
}

/// `count` short lines as one paragraph with hard line breaks: row k shows `line k`, and
/// row k is source line k (1-based rows in the text, as the test reads them).
func numberedLines(_ count: Int, prefix: String = "line ") -> String {
    (1...count).map { "\(prefix)\($0)" }.joined(separator: "\\\n")
}
