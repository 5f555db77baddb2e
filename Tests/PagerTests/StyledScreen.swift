import Foundation
@testable import Pager
import TerminalScreen
import Testing

/// A frame as text with its style runs, neovim style: each row ends in `|`, and under it one
/// line per run of cells that share a non-plain style (`  0-4 bold fg=#ffaf5f`, columns
/// 0-based, inclusive).
func styledText(_ grid: Grid) -> String {
    var lines: [String] = []
    for r in 0..<grid.rows {
        lines.append(grid.row(r) + "|")
        var column = 0
        let cells = Array(grid.cells(row: r))
        while column < cells.count {
            let style = cells[column].style
            var end = column
            while end + 1 < cells.count, cells[end + 1].style == style { end += 1 }
            if style != .plain { lines.append("  \(column)-\(end) \(style.summary)") }
            column = end + 1
        }
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Compares `actual` with the snapshot file `Snapshots/NAME.txt` beside this file. A missing
/// snapshot, or any snapshot with `RECORD_SNAPSHOTS=1`, is written and the test fails (so a
/// recording is never mistaken for a pass); review the file and run again.
func expectSnapshot(_ actual: String, named name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name + ".txt")
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try? actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded snapshot \(name); check it and run again", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
        Issue.record("""
            snapshot \(name) differs from line \(first + 1) (RECORD_SNAPSHOTS=1 re-records):
            expected: \(first < e.count ? String(e[first]) : "<end>")
            actual:   \(first < a.count ? String(a[first]) : "<end>")
            """, sourceLocation: sourceLocation)
    }
}
