import ByteInput
@testable import LineLayout
import Foundation
import MarkdownModel
import Testing
import Threads

/// How the layout keeps memory small: rows are counted without being kept.
@Suite struct MemoryShapeTests {
    static let markdown = (1...3000).map { n in
        "## Heading \(n)\n\nText \(n) with [a link](https://example.com/\(n)) that wraps at narrow widths, **bold** and `code`.\n\n- item [ünï](https://example.com/ça/\(n)) and [a longer link text](<https://e.org/a b/\(n)>)\n- item \(n)"
    }.joined(separator: "\n\n")

    /// Counting rows as they are made gives what laying them out gives, for text and links too,
    /// on one thread and on several; a large document's layouts are not kept.
    /// The content's texts and links, kept in shared buffers and built a slice of units at a
    /// time, read back as each unit's layout gives them.
    @Test(arguments: [(false, 16_384), (true, 16_384), (true, 1000), (false, 777)])
    func countedRowsMatchLaidOutRows(parallel: Bool, sliceUnits: Int) {
        let document = MarkdownParser.parse(Self.markdown)
        for width in [1, 17, 80] {
            let options = LayoutOptions(width: width)
            let layouts = MarkdownContent.layoutAll(document, options: options, parallel: false)
            let built = MarkdownContent.buildKeepingLayouts(document, options: options, parallel: parallel,
                                                            sliceUnits: sliceUnits)
            #expect(built.rowCounts == layouts.map(\.lines.count), "width \(width)")
            #expect(built.layouts == nil, "width \(width)")
            #expect(built.content.unitCount == layouts.count)
            #expect(built.content.textBytes == layouts.reduce(0) { $0 + $1.text.utf8.count })
            #expect(built.content.links.count == layouts.reduce(0) { $0 + $1.links.count })
            var differ = 0
            for u in layouts.indices {
                if built.content.withText(ofUnit: Unit(u), { Array($0) }) != Array(layouts[u].text.utf8) { differ += 1 }
                if u % 7 == 0 || u == layouts.count - 1 {
                    #expect(built.content.text(ofUnit: Unit(u)) == layouts[u].text)
                    #expect(built.content.links[u] == layouts[u].links)
                }
            }
            #expect(differ == 0, "width \(width)")
            #expect(built.content.rowCounts(of: 0..<Unit(layouts.count), options: options) == built.rowCounts)
            #expect(built.content.backgroundRowCounts(of: 0..<Unit(layouts.count), options: options) == built.rowCounts)
            let some = (layouts.count / 3)..<(layouts.count / 2)
            #expect(built.content.backgroundRowCounts(of: Range(indices: some), options: options) == Array(built.rowCounts[some]))
        }
    }

    /// A unit whose content text is its block's packed plain text keeps no copy of it (the
    /// text is read from the block); any other keeps its own: text with control characters
    /// (shown in caret notation), inline HTML over lines (shown as one line), code, tables,
    /// front matter, and blocks whose inlines are not packed. Every unit reads back what its
    /// layout gives, on both ways of building the content.
    @Test(arguments: [false, true]) func unitTextsAreSharedWithTheirBlockWhereEqual(large: Bool) {
        let section = """
            ## Heading with `code`

            Plain paragraph with *emphasis*, [a link](https://example.org/a) and a soft
            break, and a hard\\
            break.

            Control \u{1} character and a tab\there, <span
            class="x">inline HTML over lines</span>.

            <details><summary>A summary</summary>

            Body.

            </details>

            ```swift
            let x = 1
            ```

            | a | b |
            |---|---|
            | c | d |

            > quoted paragraph
            """
        let sections = large ? 400 : 2
        let markdown = "---\ntitle: x\n---\n\n" + Array(repeating: section, count: sections).joined(separator: "\n\n")
        for document in [MarkdownParser.parse(markdown), MarkdownParser.parse(Array(markdown.utf8), options: ParseOptions(packed: false)).document] {
            let options = LayoutOptions(width: 30)
            let layouts = MarkdownContent.layoutAll(document, options: options, parallel: false)
            let built = MarkdownContent.buildKeepingLayouts(document, options: options, parallel: large, sliceUnits: 500)
            var shared = 0, differ = 0
            for u in layouts.indices {
                if built.content.texts.isShared(u) { shared += 1 }
                if built.content.withText(ofUnit: Unit(u), { Array($0) }) != Array(layouts[u].text.utf8) { differ += 1 }
                #expect(built.content.texts.byteCount(u) == layouts[u].text.utf8.count)
            }
            #expect(differ == 0)
            #expect(built.content.textBytes == layouts.reduce(0) { $0 + $1.text.utf8.count })
            let packed = document.blocks.contains { $0.kind.withPackedPlainText { _ in true } ?? false }
            // Eight units a section (`<details>`' tags show nothing); packed, the heading, the
            // first paragraph, the summary, "Body." and the quote's paragraph share; the
            // paragraph with a control character and inline HTML over lines, the code, the
            // table (and the front matter) do not.
            #expect(layouts.count == 8 * sections + 1, "\(layouts.count) units")
            #expect(shared == (packed ? 5 * sections : 0), "packed \(packed): \(shared) shared")
        }
    }

    /// Shared and unshared units in any pattern, across runs of 64: each unit's length, and
    /// the bytes of each unshared one, read back as appended.
    @Test func unitTextsKeepOnlyTheUnsharedBytes() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var texts = UnitTexts()
            var given: [(String, Bool)] = []
            for k in 0..<Int.random(in: 0...300, using: &rng) {
                let text = String(repeating: "ab\u{e9}", count: Int.random(in: 0...5, using: &rng)) + "\(k)"
                let shared = Bool.random(using: &rng)
                texts.append(text, shared: shared)
                given.append((text, shared))
            }
            for shrunk in [false, true] {
                if shrunk { texts.shrink() }
                #expect(texts.count == given.count)
                #expect(texts.byteCount == given.reduce(0) { $0 + $1.0.utf8.count })
                for (u, (text, shared)) in given.enumerated() {
                    #expect(texts.isShared(u) == shared)
                    #expect(texts.byteCount(u) == text.utf8.count)
                    #expect(texts.withBytes(u) { [UInt8]($0) } == (shared ? [UInt8]() : Array(text.utf8)))
                }
            }
        }
    }

    /// Link destinations are kept as a shared prefix's number and the rest: each reads back
    /// as given, whatever its shape, with prefixes shared or not, before and after `shrink`,
    /// and past the prefix table's 65,536 entries.
    @Test func linkDestinationsReadBackAsGiven() {
        var given: [[LinkTarget]] = []
        let shapes = ["https://github.com/rust-lang/rust/pull/", "https://example.org/", "http://a.b/c/d/e/",
                      "https://doc.rust-lang.org/std/primitive.", "mailto:someone@example.org", "#anchor", "",
                      "relative/path/to/file.md", "https://ünï.example/ç/", "ftp://x/", "https://host.example/a/b/c/"]
        var k = 0
        for unit in 0..<400 {
            var links: [LinkTarget] = []
            for j in 0..<(unit % 4) {
                let shape = shapes[(unit + j) % shapes.count]
                links.append(LinkTarget(destination: shape + (unit % 3 == 0 ? "" : "\(k)/x\(j)"), range: j..<(j + 2)))
                k += 1
            }
            given.append(links)
        }
        // Over 65,536 distinct prefixes, each used twice (a prefix is kept from its second
        // use): the later ones are kept whole.
        given.append((0..<140_000).map { LinkTarget(destination: "https://h\($0 / 2).example/p/q\($0 % 2)", range: 0..<1) })
        var links = UnitLinks()
        for unit in given { links.append(unit) }
        for shrunk in [false, true] {
            if shrunk { links.shrink() }
            var n = 0
            for (u, unit) in given.enumerated() {
                #expect(links.indices(ofUnit: u).count == unit.count)
                for link in unit {
                    #expect(links.destination(n) == link.destination)
                    #expect(links.range(n) == link.range)
                    n += 1
                }
            }
            #expect(n == links.count)
        }
    }

    /// Bytes grown with realloc keep what was appended, through growth and `shrink`, and a
    /// copy that appends does not change the original (nor the original the copy).
    @Test func growableBytesKeepValueSemantics() {
        var a = GrowableBytes()
        var expected: [UInt8] = []
        for i in 0..<5000 {
            let chunk = (0..<(i % 37)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }
            chunk.withUnsafeBufferPointer { a.append($0) }
            a.append(UInt8(truncatingIfNeeded: i))
            expected += chunk + [UInt8(truncatingIfNeeded: i)]
        }
        #expect(a.count == expected.count && a.withUnsafeBufferPointer { Array($0) } == expected)
        var b = a
        b.append(7)
        a.shrink()
        #expect(a.withUnsafeBufferPointer { Array($0) } == expected)
        #expect(b.withUnsafeBufferPointer { Array($0) } == expected + [7])
        a.append(9)
        #expect(b.withUnsafeBufferPointer { Array($0) } == expected + [7])
        #expect(a.withUnsafeBufferPointer { Array($0) } == expected + [9])
        #expect(GrowableBytes().withUnsafeBufferPointer { $0.isEmpty })
    }

    /// With a filter that shows two blocks of 3,000, preparing the view lays out those two,
    /// not every hidden block up to the end (which it did on every key).
    @Test func preparingAFilteredViewLaysOutOnlyTheShownUnits() {
        let document = MarkdownParser.parse((1...3000).map { "Paragraph \($0) of a long document." }.joined(separator: "\n\n"))
        var layout = DocumentLayout(document: document, options: LayoutOptions(width: 40))
        layout.setShown([5, 2900])
        let before = layout.laidOutRowCount
        layout.prepare(aroundUnit: 0, before: 10, after: 60)
        layout.prepare(aroundUnit: 2999, before: 60, after: 10)
        #expect(layout.laidOutRowCount - before <= 2 * 3, "\(layout.laidOutRowCount - before) rows laid out")
        #expect(layout.rowCount == layout.unit(5).lines.count + layout.unit(2900).lines.count)
    }

    @Test func smallDocumentsKeepTheirLayouts() {
        let document = MarkdownParser.parse("# Title\n\nSome text.\n\n- a\n- b")
        let built = MarkdownContent.buildKeepingLayouts(document, options: LayoutOptions(width: 40))
        #expect(built.layouts?.map(\.lines.count) == built.rowCounts)
    }

    /// Issue 31: a large log open in the pager (not followed) and truncated by another
    /// process (`: > big.log`) showed rows of `^@` where its lines had been, until the file
    /// was read again: the lines found before still name their bytes, which read as NULs.
    /// Now they are empty, counted as the layout lays them out, and no row shows a NUL.
    @Test func linesOfATruncatedFileShowNothingMadeUp() throws {
        let log = (1...120_000).map { "2026-11-25 12:00:00 line \($0) of the log" }.joined(separator: "\n") + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trunc-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(log.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let store = ByteStore()
        try #require(store.attachFile(fd: fd, length: log.utf8.count))
        let content = TextContent.whole(store)
        #expect(content.unitCount == 120_000)
        _ = content.layout(unit: 119_999, options: LayoutOptions(width: 20))  // its window read before
        #expect(truncate(path, 1000) == 0)
        let options = LayoutOptions(width: 20)
        for u in [0, 24, 25, 26, 60_000, 119_998, 119_999] {
            let bytes = content.lineBytes(u)
            #expect(!bytes.contains(0), "line \(u)")
            let rows = content.layout(unit: Unit(u), options: options).lines
            #expect(rows.allSatisfy { !$0.spans.contains { $0.text.contains("^@") || $0.text.utf8.contains(0) } }, "line \(u)")
            if u > 25 { #expect(bytes.isEmpty && rows.count == 1, "line \(u): \(bytes.count) bytes") }
        }
        #expect(content.lineBytes(0) == Array("2026-11-25 12:00:00 line 1 of the log".utf8))
        // The background count agrees with the layout (it read past the end of its copy).
        let units = content.unitRange
        let counted = content.rowCounts(of: units, options: options)
        let emptyRowsPastTheEnd = counted.count == units.count && counted[26...].allSatisfy { $0 == 1 }
        #expect(emptyRowsPastTheEnd)
        let laidOut = (0..<26).map { content.layout(unit: Unit($0), options: options).lines.count }
        #expect(Array(counted[0..<26]) == laidOut)
    }
}
