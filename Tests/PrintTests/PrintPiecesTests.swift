import Foundation
import Testing
import TestSupport
@testable import LineLayout
import MarkdownModel
import Pager
@testable import Print

/// Print mode on a large source renders piece by piece on all cores; the bytes must be those
/// of one whole layout.
@Suite struct PrintPiecesTests {
    static func sample(_ name: String) -> String? {
        var path = "\(#filePath)"
        for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
        return try? String(contentsOfFile: path + "/SampleDocs/" + name, encoding: .utf8)
    }

    /// Several copies of every sample document (their reference definitions included).
    static func bigSource() throws -> [UInt8] {
        var text = ""
        for copy in 1...3 {
            for name in ["tour.md", "long.md", "wide.md"] {
                text += try #require(sample(name)).replacingOccurrences(of: "\n## ", with: "\n## \(copy). ")
                text += "\n\n"
            }
        }
        return Array(text.utf8)
    }

    @Test(arguments: [(80, false), (23, false), (60, true), (7, true)])
    func piecesPrintExactlyAsOneLayout(width: Int, colour: Bool) throws {
        let source = try Self.bigSource()
        let options = LayoutOptions(width: width, inlineLinkURLs: !colour)
        let theme = colour ? Theme(depth: .ansi16) : nil
        let plan = try #require(ChunkPlan(source, targetBytes: 16 << 10))
        #expect(plan.chunks.count > 20)
        let pieces = try #require(PrintRenderer.renderPieces(source, plan: plan, options: options, theme: theme))
        let whole = PrintRenderer.render(DocumentLayout(document: MarkdownParser.parse(source).document, options: options), theme: theme)
        let joined = pieces.flatMap { $0 }
        #expect(joined.count == whole.count)
        #expect(joined == whole)
    }

    /// A document parsed whole (footnotes, or a source that cannot be cut) is laid out and
    /// rendered in runs of units on all cores: the runs joined are the bytes of one layout.
    @Test(arguments: [(80, false), (31, true)])
    func runsPrintExactlyAsOneLayout(width: Int, colour: Bool) throws {
        let document = MarkdownParser.parse(try Self.bigSource() + Self.bigSource()).document
        #expect(Skeleton(document).units.count >= MarkdownContent.parallelThreshold)
        let options = LayoutOptions(width: width, inlineLinkURLs: !colour)
        let theme = colour ? Theme(depth: .palette256) : nil
        let runs = PrintRenderer.renderRuns(document, options: options, theme: theme)
        #expect(runs.count > 8)
        let whole = PrintRenderer.render(DocumentLayout(document: document, options: options), theme: theme)
        #expect(runs.flatMap { $0 } == whole)
    }

    /// A fence opened in a list item and closed by the item's end fools the scan for the rest
    /// of the document (it takes every later fence the wrong way round): cuts land inside code
    /// blocks, the parse refuses them, and the pieces are joined until the output is right.
    @Test func refusedCutsAreHealed() throws {
        // The scan believes the filler is code, then takes the real fence's opener for the
        // end of its imagined one and proposes cuts inside the real code block.
        let filler = String(repeating: "Filler paragraph words.\n\n", count: 1_000)
        let fooled = "- a\n\n  ```\n\n" + filler + "```\ncode\n\nletters in code\n\n# heading in code\n```\n\n"
        let source = Array((fooled + fooled + fooled).utf8) + (try Self.bigSource())
        let options = LayoutOptions(width: 72, inlineLinkURLs: true)
        let plan = try #require(ChunkPlan(source, targetBytes: 16 << 10))
        let refused = plan.chunks.filter {
            if case .openAtEnd = plan.parse($0, of: source) { return true } else { return false }
        }
        #expect(refused.count >= 2)
        let pieces = try #require(PrintRenderer.renderPieces(source, plan: plan, options: options, theme: nil))
        let whole = PrintRenderer.render(DocumentLayout(document: MarkdownParser.parse(source).document, options: options), theme: nil)
        #expect(pieces.flatMap { $0 } == whole)
    }

    /// Law: for generated documents at random widths, in colour and plain, whenever the
    /// pieces are usable they print exactly what one layout prints.
    @Test func lawPiecesPrintAsOneLayout() {
        let snippets = [
            "# Heading", "## Sub *heading*", "Para with [ref] and `code` and https://x.org.", "text\nmore text",
            "- item\n- item", "1. one\n2. two\n\n   # not heading", "> quote\n> # quoted", "```sh\n# fenced\n\nx\n```",
            "<!-- c\n\n# in\n-->", "    code", "\n[ref]: /ref", "| a | b |\n|---|--:|\n| 1 | 22 |", "Setext\n===",
            "***", "- [ ] task\n- [x] done", "~~strike~~ **strong** _em_", "Long paragraph words " + String(repeating: "word ", count: 30),
        ]
        var random = SeededRandom(seed: 0x9e1)
        var compared = 0
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 2...16, using: &random) {
                text += snippets.randomElement(using: &random)! + (Bool.random(using: &random) ? "\n\n" : "\n")
            }
            let source = Array(text.utf8)
            guard let plan = ChunkPlan(source, targetBytes: Int.random(in: 1...60, using: &random)) else { continue }
            let width = Int.random(in: 8...70, using: &random)
            let colour = Bool.random(using: &random)
            let options = LayoutOptions(width: width, inlineLinkURLs: !colour)
            let theme = colour ? Theme(depth: .ansi16) : nil
            guard let pieces = PrintRenderer.renderPieces(source, plan: plan, options: options, theme: theme) else { continue }
            compared += 1
            let whole = PrintRenderer.render(DocumentLayout(document: MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document, options: options), theme: theme)
            #expect(pieces.flatMap { $0 } == whole, "\(text.debugDescription) at \(width)")
            if pieces.flatMap({ $0 }) != whole { return }
        }
        #expect(compared > 100, "only \(compared) documents were cut")
    }

    /// Plain and colour output drop the same trailing blanks (space bytes, even one that a
    /// prepend mark joined into its Character).
    @Test func plainAndColourTrimAlike() {
        let line = VisualLine(spans: [Span(text: "code\u{600}   ", style: SpanStyle(role: .codeBlock), width: 8),
                                      Span(text: "  ", style: SpanStyle(), width: 2)],
                              block: BlockID(1), range: 0..<0, sourceLine: 1, width: 10)
        var plain: [UInt8] = [], colour: [UInt8] = []
        PrintRenderer.appendLine(line, theme: nil, to: &plain)
        PrintRenderer.appendLine(line, theme: Theme(depth: .none), to: &colour)
        #expect(plain == Array("code\u{600}\n".utf8))
        let visible = String(decoding: colour, as: UTF8.self).replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(visible == "code\u{600}\n")
    }

    @Test func smallSourcesAndUnsplittableOnesAreOnePiece() {
        let options = LayoutOptions(width: 40, inlineLinkURLs: true)
        #expect(PrintRenderer.render(source: Array("# a\n\ntext\n".utf8), options: options, theme: nil)
                == [Array("a\n════════════════════════════════════════\n\ntext\n".utf8)])
        // Over the size where pieces are tried, but one fence holds everything: no cut.
        let fenced = Array(("```\n" + String(repeating: "# not a heading\n\n", count: 70_000) + "```\n").utf8)
        #expect(fenced.count >= MarkdownParser.piecewiseBytes)
        let pieces = PrintRenderer.render(source: fenced, options: options, theme: nil)
        #expect(pieces.count == 1)
        #expect(pieces[0].starts(with: Array("  # not a heading\n".utf8)))
    }

    /// A large source with footnotes is parsed in pieces, the footnotes numbered and gathered
    /// over the joined document, and printed as one document: the bytes of one whole parse.
    @Test(arguments: [(80, false), (33, true)])
    func footnoteSourcesPrintAsOneParse(width: Int, colour: Bool) throws {
        // github.md opens with front matter: here it goes after a first sample (see below).
        let filler = try #require(Self.sample("long.md")) + "\n\n"
        var text = filler + (try #require(Self.sample("github.md"))) + "\n\n"
        while text.utf8.count < MarkdownParser.piecewiseBytes + 1 { text += filler }
        text += "A last reference to the first note[^1].\n"
        let source = Array(text.utf8)
        let plan = try #require(ChunkPlan(source, targetBytes: MarkdownParser.pieceBytes))
        #expect(plan.hasFootnotes && plan.chunks.count >= 4)
        let whole = Self.expectPrintedAsOneParse(source, width: width, colour: colour)
        #expect(whole.dump().contains("user-content-fn-"))
    }

    /// `source` printed (`render(source:)`, pieces) must be the bytes of one whole parse laid
    /// out and rendered; returns that parse.
    @discardableResult
    static func expectPrintedAsOneParse(_ source: [UInt8], width: Int, colour: Bool,
                                        sourceLocation: SourceLocation = #_sourceLocation) -> Document {
        let options = LayoutOptions(width: width, inlineLinkURLs: !colour)
        let theme = colour ? Theme(depth: .ansi16) : nil
        let printed = PrintRenderer.render(source: source, options: options, theme: theme).flatMap { $0 }
        let whole = MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document
        let expected = PrintRenderer.render(DocumentLayout(document: whole, options: options), theme: theme)
        #expect(printed.count == expected.count, sourceLocation: sourceLocation)
        #expect(printed == expected, sourceLocation: sourceLocation)
        return whole
    }

    /// A large source that opens with front matter is cut after it, and prints as one parse:
    /// the front matter's block first, then the pieces (with footnotes too: github.md's).
    @Test(arguments: [(80, false, false), (33, true, false), (80, false, true)])
    func frontMatterSourcesPrintAsOneParse(width: Int, colour: Bool, footnotes: Bool) throws {
        let filler = try #require(Self.sample("long.md")) + "\n\n"
        var text = footnotes ? (try #require(Self.sample("github.md"))) + "\n\n" : "---\ntitle: Notes\ntags: [a, b]\n---\n\n"
        while text.utf8.count < MarkdownParser.piecewiseBytes + 1 { text += filler }
        let source = Array(text.utf8)
        let plan = try #require(ChunkPlan(source, targetBytes: MarkdownParser.pieceBytes))
        #expect(plan.hasFrontMatter && plan.chunks.count >= 4)
        #expect(plan.hasFootnotes == footnotes)
        let whole = Self.expectPrintedAsOneParse(source, width: width, colour: colour)
        #expect(whole.dump().contains("FrontMatter"))
    }
}
