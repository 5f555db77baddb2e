import Foundation
import LineLayout
import MarkdownModel
import Testing
@testable import Viewport

/// A viewport's anchor survives re-layout: at every width 1…60 the row it maps to belongs to
/// the anchor's block and shows the anchor's character (or, for a row without content, starts
/// at its offset). Checked on every SampleDoc, from many starting positions.
@Suite struct AnchorSurvivalTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["tour.md", "wide.md", "long.md"])
    func anchorsSurviveEveryWidth(name: String) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent("SampleDocs/\(name)"), encoding: .utf8)
        let document = MarkdownParser.parse(markdown)
        let start = DocumentLayout(document: document, options: LayoutOptions(width: 40))
        // Viewports with their top on every 23rd row (3 content rows keep it unclamped mostly).
        let viewports = stride(from: 0, to: start.rowCount, by: 23).map {
            Viewport(contentRows: 3).withTop(Row($0), in: start)
        }
        for width in 1...60 {
            let layout = DocumentLayout(document: document, options: LayoutOptions(width: width))
            for v in viewports {
                guard case .anchor(let a) = v.position else { continue }
                let top = v.top(in: layout)
                let line = layout.line(at: layout.row(for: a))
                #expect(line.block == a.block, "width \(width): the anchor's block is on the row")
                let shows = line.range.contains(a.offset) || line.range.lowerBound == a.offset
                    || (line.range.isEmpty && line.range.lowerBound >= a.offset)
                #expect(shows, "width \(width): row \(line.range) shows offset \(a.offset)")
                #expect(top == min(layout.row(for: a), max(0, Row(layout.rowCount - 3))), "the top is that row, clamped")
            }
        }
    }
}
