import CellWidth
import Foundation
import LineLayout
import MarkdownModel
import Testing

/// Laws every layout obeys, over seeded random documents (every element kind, CJK, emoji,
/// controls, deep nesting, long words) at every width 1…120, and over the sample documents.
@Suite struct LayoutLawTests {
    static let seeds: [UInt64] = Array(1...6)

    @Test(arguments: seeds)
    func generatedDocumentsAtEveryWidth(seed: UInt64) {
        var generator = MarkdownGenerator(seed: seed)
        let markdown = generator.document(blocks: 14)
        let document = MarkdownParser.parse(markdown)
        var previous: DocumentLayout? = nil
        for width in 1...120 {
            let layout = DocumentLayout(document: document, options: LayoutOptions(width: width, inlineLinkURLs: width % 2 == 0))
            checkLaws(layout, markdown: markdown)
            if let previous { checkReanchoring(from: previous, to: layout) }
            previous = layout
        }
    }

    @Test func layingOutTwiceGivesTheSameRows() {
        var generator = MarkdownGenerator(seed: 99)
        let document = MarkdownParser.parse(generator.document(blocks: 20))
        for width in [1, 2, 7, 33, 80] {
            let a = DocumentLayout(document: document, options: LayoutOptions(width: width))
            let b = DocumentLayout(document: document, options: LayoutOptions(width: width))
            #expect(a.rowCount == b.rowCount)
            for r in a.rowRange { #expect(a.line(at: r) == b.line(at: r)) }
            for (x, y) in zip(a.allUnits, b.allUnits) { #expect(x.text == y.text && x.links == y.links) }
        }
    }

    static let sampleFiles = ["tour.md", "wide.md", "long.md"]
    /// Every sample at every width 1…120, in slices of 20 widths so the cases run in parallel.
    static let sampleCases: [(String, ClosedRange<Int>)] = sampleFiles.flatMap { name in
        stride(from: 1, through: 120, by: 20).map { (name, $0...($0 + 19)) }
    }

    @Test(arguments: sampleCases)
    func sampleDocuments(name: String, widths: ClosedRange<Int>) throws {
        let markdown = try #require(sampleDocument(name), "SampleDocs/\(name) is missing")
        let document = MarkdownParser.parse(markdown)
        var previous: DocumentLayout? = nil
        for width in widths {
            let layout = DocumentLayout(document: document, options: LayoutOptions(width: width, inlineLinkURLs: width % 3 == 0))
            checkLaws(layout, markdown: markdown)
            if let previous { checkReanchoring(from: previous, to: layout) }
            previous = layout
        }
    }

    @Test func emptyDocumentIsTotal() {
        for markdown in ["", "\n\n", "<!-- -->"] {
            let layout = DocumentLayout(document: MarkdownParser.parse(markdown), options: LayoutOptions(width: 10))
            _ = layout.line(at: 5)
            _ = layout.anchor(atRow: -1)
            _ = layout.row(for: Anchor(block: BlockID(7), offset: 3))
            _ = layout.row(forSourceLine: 100)
            _ = layout.rows(of: BlockID(0))
            _ = layout.rows(showing: 0..<4, in: BlockID(1))
            _ = layout.unitIndex(atRow: 3)
        }
        let empty = DocumentLayout(document: MarkdownParser.parse(""), options: LayoutOptions(width: 10))
        #expect(empty.rowCount == 0)
        #expect(empty.row(for: Anchor(block: BlockID(0), offset: 0)) == 0)
    }
}

func sampleDocument(_ name: String) -> String? {
    var path = "\(#filePath)"
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return try? String(contentsOfFile: path + "/SampleDocs/" + name, encoding: .utf8)
}

/// Checks the per-layout laws; reports the first few failures only.
func checkLaws(_ layout: DocumentLayout, markdown: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let width = layout.width
    var failures = 0
    func fail(_ message: String) {
        failures += 1
        if failures <= 3 { Issue.record("width \(width): \(message)", sourceLocation: sourceLocation) }
    }
    for r in layout.rowRange {
        let line = layout.line(at: r)
        let shown = CellWidth.of(line.plainText)
        if shown > width || line.width > width { fail("row \(r) is \(shown) wide: \(line.plainText)") }
        if line.width != shown { fail("row \(r) says width \(line.width), shows \(shown): \(line.plainText)") }
        for scalar in line.plainText.unicodeScalars where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
            fail("row \(r) has control U+\(String(scalar.value, radix: 16))")
        }
        if line.sourceLine < 1 || line.sourceLine > max(1, layout.document!.sourceLineCount) {
            fail("row \(r) source line \(line.sourceLine)")
        }
        if layout.row(for: layout.anchor(atRow: r)) != r { fail("anchor round trip at row \(r): \(layout.anchor(atRow: r))") }
        let showing = layout.rows(showing: line.range, in: line.block)
        if !line.range.isEmpty && !showing.contains(r) { fail("rows(showing:) of row \(r) = \(showing)") }
    }
    for (b, block) in layout.allUnits.enumerated() {
        let text = Array(block.text.utf8)
        var covered = [Int](repeating: 0, count: text.count)
        var lastLower = 0
        var isTable = false
        if case .table = layout.document![block.block].kind { isTable = true }
        var shownOrder: [UInt8] = []
        for line in block.lines {
            if line.block != block.block { fail("row of block \(b) says \(line.block)") }
            if line.range.lowerBound < lastLower { fail("lower bounds decrease in block \(b)") }
            lastLower = line.range.lowerBound
            if line.range.upperBound > text.count { fail("range \(line.range) past text of block \(b)") }
            for span in line.spans {
                guard let offset = span.contentOffset else { continue }
                let bytes = Array(span.text.utf8)
                let end = offset + bytes.count
                if span.text.contains("\u{FFFD}") {
                    // Clusters wider than their space (a wide character at width 1, स्त्री at 3)
                    // are shown as U+FFFD, one per grapheme.
                    let content = String(decoding: text[offset...], as: UTF8.self)
                    var o = offset
                    for (shown, original) in zip(span.text, content) {
                        if shown != original && !(shown == "\u{FFFD}" && CellWidth.of(original) >= 2) {
                            fail("narrowed span \(span.text.debugDescription) at \(offset)"); break
                        }
                        let n = original.utf8.count
                        for i in o..<(o + n) { covered[i] += 1 }
                        shownOrder += original.utf8.filter { $0 != 0x20 }
                        o += n
                    }
                    continue
                }
                guard end <= text.count, Array(text[offset..<end]) == bytes else {
                    fail("span \(span.text.debugDescription) at \(offset) is not the content there"); continue
                }
                for i in offset..<end { covered[i] += 1 }
                if !line.range.contains(offset) { fail("span at \(offset) outside row range \(line.range)") }
                shownOrder += bytes.filter { $0 != 0x20 }
            }
        }
        let blank: Set<UInt8> = [0x20, 0x0A, 0x09]
        for i in 0..<text.count where covered[i] != (blank.contains(text[i]) ? covered[i] : 1) {
            fail("byte \(i) of block \(b) shown \(covered[i]) times: \(block.text.debugDescription)")
            break
        }
        if !isTable {
            let words = text.filter { !blank.contains($0) }
            if words != shownOrder { fail("words of block \(b) out of order") }
        }
        for link in block.links where link.range.upperBound > text.count { fail("link range \(link.range)") }
    }
}

/// After re-layout at another width, every old anchor lands on a row of its block that shows
/// its character.
func checkReanchoring(from old: DocumentLayout, to new: DocumentLayout, sourceLocation: SourceLocation = #_sourceLocation) {
    var failures = 0
    for r in old.rowRange {
        let anchor = old.anchor(atRow: r)
        let row = new.row(for: anchor)
        let line = new.line(at: row)
        var ok = line.block == anchor.block
        if ok && !old.line(at: r).range.isEmpty
            && !(line.range.contains(anchor.offset) || line.range.lowerBound == anchor.offset) {
            // A space the old row began with may be dropped at a wrap now: then the row after it.
            let text = Array(new.text(ofUnit: new.unitIndex(of: anchor.block)!).utf8)
            var o = anchor.offset
            while o < text.count && text[o] == 0x20 { o += 1 }
            ok = line.range.contains(anchor.offset) || line.range.lowerBound == anchor.offset
                || line.range.contains(o) || line.range.lowerBound == o
        }
        if !ok {
            failures += 1
            if failures <= 3 {
                Issue.record("width \(old.width)→\(new.width): anchor \(anchor) of row \(r) went to row \(row) \(line.range)",
                             sourceLocation: sourceLocation)
            }
        }
    }
}
