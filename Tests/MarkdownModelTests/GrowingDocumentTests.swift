import Foundation
import MarkdownModel
import Testing
import TestSupport

/// A Markdown input that arrives in chunks (a pipe, a file being written) is parsed again as
/// it grows, each time up to its last cut (`PrefixCut.parseable`). Laws, over every sample
/// document and generated ones, for chunks of 1 byte to 64 KB:
/// - at end of input the document is that of one parse, dump for dump;
/// - at every step, every top-level block before the prefix's last one (a closed block: a
///   blank line follows it) is already the block of the final document — same id, kind,
///   source lines and children — and, when the source has no reference definitions or
///   footnotes (whose later arrival legitimately changes earlier blocks), the same content.
///   (The footnote section a parse gathers at its end is not a closed block of the source.)
@Suite struct GrowingDocumentTests {
    static func sample(_ name: String) throws -> [UInt8] {
        var path = "\(#filePath)"
        for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
        return Array(try String(contentsOfFile: path + "/SampleDocs/" + name, encoding: .utf8).utf8)
    }

    /// The case of a block kind, without its payload.
    static func caseName(_ kind: BlockKind) -> String {
        Mirror(reflecting: kind).children.first?.label ?? String(describing: kind)
    }

    /// Chunk ends for `count` bytes: sizes log-uniform in 1...65536, at most `maxSteps` steps.
    static func chunkEnds(count: Int, seed: UInt64, maxSteps: Int = 150) -> [Int] {
        var random = SeededRandom(seed: seed)
        var ends: [Int] = []
        var at = 0
        let floor = max(1, count / maxSteps)
        // Up to 64 KB, and for a small document up to about an eighth of it, so that even a
        // few hundred bytes arrive in several steps.
        let top = min(16, max(0, (Int.bitWidth - count.leadingZeroBitCount) - 3))
        while at < count {
            let size = max(floor, 1 << Int.random(in: 0...top, using: &random))
            at = min(count, at + Int.random(in: 1...size, using: &random))
            ends.append(at)
        }
        return ends
    }

    static func checkGrowth(_ source: [UInt8], seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
        let final = MarkdownParser.parse(source).document
        let text = String(decoding: source, as: UTF8.self)
        let contentIsLocal = !text.contains("]:")
        var checkedBlocks = 0
        for end in chunkEnds(count: source.count, seed: seed) {
            let arrived = Array(source[..<end])
            let ended = end == source.count
            let cut = PrefixCut.parseable(arrived, ended: ended)
            let doc = MarkdownParser.parse(Array(arrived[..<cut])).document
            if ended {
                #expect(doc.dump() == final.dump(), "end of input: one parse's document", sourceLocation: sourceLocation)
                continue
            }
            // Blocks are known closed only before a cut (a blank line); a prefix without one
            // is all still open (an HTML block, front matter, a setext underline to come).
            guard cut < arrived.count || PrefixCut.last(in: arrived) == cut else { continue }
            let top = doc.blocks[0].children
            var previousLine = 0
            for closed in top.dropLast() {
                // Footnote definitions are gathered at the end under a rule (document-global,
                // like link definitions): the section of a prefix is not the final one's.
                let line = doc.blocks[closed.rawValue].source.first
                if line < previousLine { break }
                previousLine = line
                var stack = [closed]
                while let id = stack.popLast() {
                    let b = doc.blocks[id.rawValue]
                    stack += b.children
                    guard id.rawValue < final.blocks.count else {
                        Issue.record("block #\(id.rawValue) at \(end) bytes is not in the final document", sourceLocation: sourceLocation)
                        return
                    }
                    let f = final.blocks[id.rawValue]
                    let same = caseName(b.kind) == caseName(f.kind) && b.source == f.source && b.depth == f.depth
                        && b.children == f.children && (!contentIsLocal || b.kind == f.kind)
                    if !same {
                        Issue.record("at \(end) of \(source.count) bytes, block #\(id.rawValue) \(caseName(b.kind)) @\(b.source) differs from the final \(caseName(f.kind)) @\(f.source)",
                                     sourceLocation: sourceLocation)
                        return
                    }
                    checkedBlocks += 1
                }
            }
        }
        #expect(checkedBlocks > 0 || source.count < 200, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["tour.md", "long.md", "wide.md", "github.md"], [1, 2, 3] as [UInt64])
    func sampleDocumentsGrowIntoTheirParse(name: String, seed: UInt64) throws {
        Self.checkGrowth(try Self.sample(name), seed: seed)
    }

    /// Documents with no reference definitions: closed blocks keep their content too.
    @Test(arguments: 0..<40)
    func generatedDocumentsGrowIntoTheirParse(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919)
        let pieces = ["# Heading\n", "Some *text* with `code` and a [link](http://x.org).\n", "- item\n", "- item two\n",
                      "  continued\n", "1. first\n", "> quote\n", "```\ncode\n\nmore code\n```\n", "    indented\n",
                      "| a | b |\n|---|---|\n| 1 | 2 |\n", "***\n", "<div>\nhtml\n</div>\n", "Setext\n---\n", "\n", "\n",
                      "> [!NOTE]\n> alert\n", "- [ ] task\n", "<!-- comment\n\nstill -->\n"]
        var text = ""
        for _ in 0..<Int.random(in: 5...60, using: &random) { text += pieces.randomElement(using: &random)! }
        Self.checkGrowth(Array(text.utf8), seed: UInt64(seed))
    }

    /// Front matter may hold blank lines: no cut inside it until it is closed.
    @Test func noCutInsideOpenFrontMatter() {
        let open = Array("---\ntitle: x\n\nmore: y\n".utf8)
        #expect(PrefixCut.parseable(open, ended: false) == open.count)
        let closed = Array("---\ntitle: x\n\nmore: y\n---\n\n# H\n\ntext".utf8)
        #expect(PrefixCut.parseable(closed, ended: false) == closed.count - 4)
        Self.checkGrowth(Array("---\ntitle: x\n\nmore: y\n---\n\n# H\n\ntext\n\nmore text\n".utf8), seed: 5)
    }

    /// The cut: everything at end of input; otherwise just after the last blank line, or all
    /// of it while there is none.
    @Test func parseableCutsAtTheLastBlankLine() {
        let bytes = Array("a\n\nb\n\nc".utf8)
        #expect(PrefixCut.parseable(bytes, ended: true) == bytes.count)
        #expect(PrefixCut.parseable(bytes, ended: false) == 6)
        #expect(PrefixCut.parseable(Array("a\nb".utf8), ended: false) == 3)
    }
}
