import Foundation
import Synchronization
import Testing
@testable import MarkdownModel

/// A finished block's inlines are packed into one byte buffer (`PackedInlines`): packing must
/// give back exactly the nodes it was given, and a parse must mean the same packed or not.
@Suite struct PackedInlinesTests {
    /// Strings that stress the encoding: empty, NUL, multi-byte scalars, lengths around the
    /// one-byte varint limit (127, 128) and far past it.
    static let strings = ["", "a", "\0", "é", "x^y", "[^1]", "日本語", "👩‍👩‍👧", String(repeating: "x", count: 127),
                          String(repeating: "y", count: 128), String(repeating: "ü", count: 9000), "tab\there\nnl",
                          // Destinations whose prefixes the arena keeps once (or not: `^`, no path, short).
                          "https://github.com/rust-lang/rust/pull/12345", "https://github.com/rust-lang/rust/pull/",
                          "https://github.com/rust-lang/rust/issues/7", "https://ünï.example/ç/d", "https://x.org/^/y",
                          "https://example.org", "http://a.b/", "mailto:a@b.example", "https://" + String(repeating: "h", count: 200) + "/p"]

    static func randomNodes(_ rng: inout SplitMix, count: Int) -> [InlineNode] {
        func string() -> String { strings[Int(rng.next() % UInt64(strings.count))] }
        return (0..<count).map { _ in
            let kind: InlineKind
            switch rng.next() % 11 {
            case 0: kind = .text(string())
            case 1: kind = .code(string())
            case 2: kind = .html(string())
            case 3: kind = .softBreak
            case 4: kind = .lineBreak
            case 5: kind = .emphasis
            case 6: kind = .strong
            case 7: kind = .strikethrough
            case 8: kind = .link(destination: string(), title: string(), autolink: false)
            case 9: kind = .link(destination: string(), title: string(), autolink: true)
            default: kind = .image(source: string(), title: string())
            }
            // Descendant counts are not checked against the list here: the packing keeps
            // whatever it is given, small or large.
            let descendants = [0, 1, 127, 128, 70_000, Int(Int32.max)][Int(rng.next() % 6)]
            return InlineNode(kind, descendantCount: descendants)
        }
    }

    @Test(arguments: 0..<40) func packingGivesBackTheNodes(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed))
        let nodes = Self.randomNodes(&rng, count: seed == 0 ? 1 : Int(rng.next() % 60) + 1)
        let inlines = Inlines(nodes), packed = inlines.packed()
        #expect(packed.isPacked)
        #expect(packed.nodes == nodes)
        #expect(packed == inlines && inlines == packed)
        #expect(packed.plainText == inlines.plainText)
        // The plain text is one run of the packed bytes, read in place (what the layout's
        // content shares); unpacked inlines have none.
        #expect(packed.withPackedPlainText { Array($0) } == Array(inlines.plainText.utf8))
        #expect(inlines.withPackedPlainText { _ in true } == nil)
        #expect(BlockKind.paragraph(packed).withPackedPlainText { Array($0) } == Array(inlines.plainText.utf8))
        #expect(BlockKind.heading(level: 2, packed).withPackedPlainText { $0.count } == inlines.plainText.utf8.count)
        #expect(BlockKind.codeBlock(info: "", literal: "x", fenced: true).withPackedPlainText { _ in true } == nil)
        #expect(packed.packed().nodes == nodes)
        // What the footnote pass reads of packed inlines without decoding them.
        #expect(packed.firstNode == nodes.first)
        #expect(packed.hasAdjacentTopLevelText == inlines.hasAdjacentTopLevelText)
        let hasCaret = nodes.contains { node in
            switch node.kind {
            case .text(let s), .code(let s), .html(let s): s.utf8.contains(UInt8(ascii: "^"))
            case .link(let a, let b, _), .image(let a, let b): (a + b).utf8.contains(UInt8(ascii: "^"))
            default: false
            }
        }
        if hasCaret { #expect(!packed.packedLacks(UInt8(ascii: "^"))) }
        #expect(!inlines.packedLacks(UInt8(ascii: "^")))
        // Equal nodes pack to equal bytes; different nodes do not compare equal.
        // (Compared into Bools: a failed expectation on the values would print every byte.)
        let same = Inlines(nodes).packed() == packed
        #expect(same)
        var other = nodes
        other[other.count - 1].descendantCount = other[other.count - 1].descendantCount == 1 ? 2 : 1
        let differs = Inlines(other).packed() != packed
        #expect(differs)
    }

    /// A parse packs its blocks into shared arenas of ~1 MB: inlines packed one after the
    /// other, past an arena's end into the next, each read back its own nodes, and compare
    /// equal to the same nodes packed alone (other arena, other offset) and to no others.
    @Test func inlinesPackedIntoSharedArenasReadBackTheirOwnNodes() {
        var rng = SplitMix(seed: 77)
        var arena = PackedArena()
        var all: [([InlineNode], Inlines)] = []
        var arenas = 1, last = arena
        var bytes = 0
        while bytes < 3 * PackedArena.limit {
            let nodes = Self.randomNodes(&rng, count: Int(rng.next() % 30) + 1)
            let packed = Inlines(nodes).packed(into: &arena)
            if arena !== last { arenas += 1; last = arena }
            bytes += packed.packedByteCount
            all.append((nodes, packed))
        }
        arena.finish()
        #expect(arenas >= 3)
        for (k, (nodes, packed)) in all.enumerated() {
            #expect(packed.isPacked)
            let same = packed.nodes == nodes && packed == Inlines(nodes).packed() && packed == Inlines(nodes)
            #expect(same, "inlines \(k)")
            if k > 0 {
                let differs = all[k - 1].0 == nodes || packed != all[k - 1].1
                #expect(differs, "inlines \(k)")
            }
        }
    }

    /// Handing the bytes over gives the same document as a parse that keeps them (in
    /// pieces and whole), and leaves them empty.
    @Test func aParseHandedTheBytesGivesTheSameDocument() throws {
        let section = "# Part\n\nSome *text* with a [link][1] and `code`.\n\n- item\n- item\n\n```swift\nlet x = 1\n```\n\n"
        for markdown in [section, String(repeating: section, count: (MarkdownParser.piecewiseBytes / section.utf8.count) + 10)] {
            let kept = Array((markdown + "[1]: https://example.org\n").utf8)
            var handed = kept
            let document = MarkdownParser.parse(handingOver: &handed).document
            #expect(handed.isEmpty)
            let same = document.dump() == MarkdownParser.parse(kept).document.dump()
            #expect(same)
        }
    }

    /// A destination's shared prefix is its URL up to the last `/` of its path.
    @Test func linkPrefixes() {
        func prefix(_ d: String) -> String { String(decoding: d.utf8.prefix(LinkPrefixes.end(of: d)), as: UTF8.self) }
        #expect(prefix("https://github.com/rust-lang/rust/pull/12345") == "https://github.com/rust-lang/rust/pull/")
        #expect(prefix("https://example.org/a") == "https://example.org/")
        #expect(prefix("https://ünï.example/ç/d") == "https://ünï.example/ç/")
        for none in ["https://example.org", "http://a.b/", "mailto:someone@example.org", "relative/path/to/a/file.md",
                     "#fragment-of-the-page", "https://x.org/^/y", "", "ftp:/not/a/url/with/host"] {
            #expect(LinkPrefixes.end(of: none) == 0, "\(none)")
        }
    }

    /// Handed the bytes with a way to read them again, the parse lets the pieces' bytes go as
    /// they are done (their pages read as zeros after): the document is still the one parse
    /// of the kept bytes gives, and when the pieces fail at the end (cmark's reference budget
    /// over the whole source) the bytes are read again and parsed whole.
    @Test func aParseThatLetsPiecesGoGivesTheSameDocument() throws {
        let section = "# Part\n\nSome *text* with a [link][1] and `code`.[^n]\n\n- item\n- item\n\n"
        let fits = String(repeating: section, count: (MarkdownParser.piecewiseBytes / section.utf8.count) + 10)
            + "[1]: https://example.org\n\n[^n]: A note.\n"
        // 1,300 references to a 1,000-byte destination expand past the source's own size.
        let busts = "[a]: /" + String(repeating: "u", count: 1000) + "\n\n"
            + String(repeating: "# H\n\nsee [a]\n\n", count: 1300)
            + String(repeating: "# Filler\n\nplain text only\n\n", count: (MarkdownParser.piecewiseBytes / 27) + 10)
        // Each piece stays within its own budget (the definitions in front count for it), but
        // together they pass the whole source's: refused once all are done and let go, so the
        // source is read again.
        let definitions = (0..<5000).map { "[d\($0)]: /" + String(repeating: "u", count: 95) + "\n\n" }.joined()
        let heavy = (0..<5000).map { "[d\($0)]" }.joined(separator: " ")
        let filler = String(repeating: "# Filler\n\nplain text only\n\n", count: 7500)
        let late = definitions + (0..<4).map { _ in "# H\n\n" + heavy + "\n\n" + filler }.joined()
        for markdown in [fits, busts, late] {
            let kept = Array(markdown.utf8)
            let whole = MarkdownParser.parse(kept, options: ParseOptions(inPieces: false)).document.dump()
            var handed = kept  // shares kept's buffer: the parse must not give back kept's pages
            let readCount = Atomic(0)
            let document = MarkdownParser.parse(handingOver: &handed, options: ParseOptions(keeper: RereadingKeeper {
                readCount.add(1, ordering: .relaxed)
                return kept
            })).document
            let reads = readCount.load(ordering: .relaxed)
            #expect(handed.isEmpty)
            let same = document.dump() == whole
            #expect(same)
            // The budget-busting source's pieces are refused before any is let go: not read again.
            #expect(reads == (markdown == late ? 1 : 0))
            // A keeper that copies what it is handed (as the pager's compressing one does for a
            // stream): the runs it gets are whole pages, disjoint, and hold the source's bytes;
            // when the pieces fail it writes them back into the pages given back.
            let copying = CopyingKeeper()
            handed = kept
            let fromCopies = MarkdownParser.parse(handingOver: &handed, options: ParseOptions(keeper: copying)).document
            let sameFromCopies = fromCopies.dump() == whole
            #expect(sameFromCopies)
            let runsMatch = copying.runsMatch(kept)
            #expect(runsMatch)
            #expect(copying.runs.isEmpty == (markdown == busts), "the pieces' bytes were let go")
            #expect(copying.restored == (markdown == late))
            #expect(copying.discarded, "told once the pieces are in (or parsed whole)")
        }
    }

    final class CopyingKeeper: SourceKeeper, @unchecked Sendable {
        var runs: [(offset: Int, bytes: [UInt8])] = []
        var restored = false
        func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
            runs.append((offset, Array(bytes)))
            return true
        }
        func restore(_ source: inout [UInt8]) {
            restored = true
            for run in runs { source.replaceSubrange(run.offset..<(run.offset + run.bytes.count), with: run.bytes) }
        }
        var discarded = false
        func discard() { discarded = true }
        func runsMatch(_ source: [UInt8]) -> Bool {
            var end = 0
            for run in runs.sorted(by: { $0.offset < $1.offset }) {
                // Whole pages (the offsets are from the array's start, which is not aligned).
                guard run.offset >= end, run.bytes.count % 4096 == 0,
                      Array(source[run.offset..<(run.offset + run.bytes.count)]) == run.bytes else { return false }
                end = run.offset + run.bytes.count
            }
            return true
        }
    }

    @Test func emptyInlinesStayEmptyArrays() {
        let empty = Inlines().packed()
        #expect(!empty.isPacked && empty.isEmpty && empty.nodes.isEmpty && empty == Inlines())
    }

    /// Writing packed inlines makes them an array again, changed in place; a copy taken before
    /// keeps the old nodes (value semantics).
    @Test func writingPackedInlinesUnpacksThemAndLeavesCopiesAlone() {
        let nodes = [InlineNode(.strong, descendantCount: 1), InlineNode(.text("bold")), InlineNode(.text(" rest"))]
        var inlines = Inlines(nodes).packed()
        let copy = inlines
        inlines.nodes[1].kind = .text("BOLD")
        #expect(!inlines.isPacked)
        #expect(inlines.nodes.map(\.kind) == [.strong, .text("BOLD"), .text(" rest")])
        #expect(copy.isPacked && copy.nodes == nodes)
        inlines.nodes.append(InlineNode(.lineBreak))
        #expect(inlines.nodes.count == 4 && inlines.plainText == "BOLD rest\n")
    }

    /// Every SampleDoc, and documents with every construct, parse to the same document packed
    /// and unpacked: the same dump, the same nodes and plain text in every block, and every
    /// finished paragraph and heading packed.
    @Test func aParseMeansTheSamePackedOrNot() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleDocs")
        var sources: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where name.hasSuffix(".md") {
            sources.append(Array(try Data(contentsOf: root.appendingPathComponent(name))))
        }
        sources.append(Array("""
            ---
            title: x
            ---
            # Head *em* `code` [l](u "t") ![i](s "t2") <https://a.b> www.c.d x@y.z ~~del~~ <b>b</b>

            | a | [b][r] |
            |---|---|
            | ü<br>v | `c` |

            > [!NOTE]
            > note[^1]

            - [ ] task
            - [x] done

            [^1]: foot *note*
            [r]: https://r.example

            <details><summary>Sum **b**</summary>

            body
            </details>
            """.utf8))
        #expect(sources.count > 3)
        for source in sources {
            let packed = MarkdownParser.parse(source).document, plain = MarkdownParser.parse(source, options: ParseOptions(packed: false)).document
            #expect(packed.dump() == plain.dump())
            #expect(packed.blocks.count == plain.blocks.count)
            var packedCount = 0
            for (a, b) in zip(packed.blocks, plain.blocks) {
                #expect(a.kind == b.kind)
                switch (a.kind, b.kind) {
                case (.paragraph(let x), .paragraph(let y)), (.heading(_, let x), .heading(_, let y)):
                    #expect(x.nodes == y.nodes && x.plainText == y.plainText)
                    #expect(!y.isPacked)
                    if x.isPacked { packedCount += 1 }
                default: break
                }
            }
            #expect(packedCount > 0)
        }
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `Block.children` keeps no array for one child that is the next block; any other children
/// are kept as given.
@Suite struct BlockChildrenTests {
    @Test func childrenReadBackAsGiven() {
        let lines = SourceLines(1, 1)
        for given in [[], [BlockID(6)], [BlockID(9)], [BlockID(6), BlockID(8)], [BlockID(6), BlockID(7), BlockID(40)]] {
            let block = Block(id: BlockID(5), kind: .item(ItemInfo()), parent: nil, children: given, depth: 1, source: lines)
            #expect(Array(block.children) == given)
            #expect(block.children.count == given.count)
        }
        let one = Block(id: BlockID(5), kind: .blockQuote, parent: nil, children: [BlockID(6)], depth: 1, source: lines)
        let other = Block(id: BlockID(5), kind: .blockQuote, parent: nil, children: [BlockID(7)], depth: 1, source: lines)
        #expect(one.children != other.children)
        #expect(MemoryLayout<Block>.stride <= 56)
    }
}
