import Foundation
import Testing
import TestSupport
@testable import MarkdownModel

/// `ChunkPlan` + `ChunkPlan.parse(_:of:)`: pieces parse exactly as the whole does,
/// or say they cannot.
@Suite struct ChunkPlanTests {

    /// The pieces parsed by `ChunkPlan.run` (refused cuts healed) and joined into one document (as
    /// `MarkdownParser.parse` does on all cores): its dump, block ids included, or nil when
    /// there is no plan or the definitions disagree.
    static func piecewiseDump(_ markdown: String, target: Int = 1) -> [Substring]? {
        piecewiseDocument(Array(markdown.utf8), target: target).map(wholeDump)
    }

    static func piecewiseDocument(_ bytes: [UInt8], target: Int) -> Document? {
        guard let plan = ChunkPlan(bytes, targetBytes: target),
              var documents = plan.run(on: .machine, { plan.parse($0, of: bytes) })
        else { return nil }
        let joined = plan.finish(ChunkPlan.join(&documents, sourceLineCount: plan.sourceLineCount), source: bytes)
        checkInvariants(joined)
        return joined
    }

    static func wholeDump(_ document: Document) -> [Substring] {
        document.dump().split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func cutsOnlyBeforeHeadingsAndParagraphsAfterBlankLines() throws {
        let markdown = "# A\ntext\n# B\n\npara\n\n## C\n\n    # indented\n\n#nospace\n\n- item\n\n> quote\n\n1. one\n\n# D\n"
        let bytes = Array(markdown.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: 1))
        let starts = plan.chunks.map { String(decoding: bytes[$0.bytes].prefix(4), as: UTF8.self) }
        #expect(starts == ["# A\n", "para", "## C", "# D\n"])
        #expect(plan.chunks.map(\.firstLine) == [1, 5, 7, 19])
        #expect(plan.chunks.map(\.lineCount) == [4, 2, 12, 1])
        #expect(plan.chunks.map { $0.nextLine.map { String(decoding: bytes[$0], as: UTF8.self) } }
                == ["para\n", "## C\n", "# D\n", nil])
        // Pieces tile the source.
        #expect(plan.chunks.first?.bytes.lowerBound == 0)
        #expect(plan.chunks.last?.bytes.upperBound == markdown.utf8.count)
        for (a, b) in zip(plan.chunks, plan.chunks.dropFirst()) { #expect(a.bytes.upperBound == b.bytes.lowerBound) }
        // Bigger pieces: a cut only once a piece has reached the target size.
        let fewer = try #require(ChunkPlan(bytes, targetBytes: 20))
        #expect(fewer.chunks.map(\.firstLine) == [1, 7, 19])
    }

    @Test func noCutInsideFencesOrHTMLBlocks() {
        let markdown = "intro\n\n```\n\n# in code\n```\n\n<!--\n\n# in comment\n-->\n\n~~~~\n\n# tilde\n~~~\n\n# still code\n~~~~\n"
        #expect(ChunkPlan(Array(markdown.utf8), targetBytes: 1) == nil)
    }

    @Test func piecesMatchTheWholeParse() throws {
        let markdown = """
        # One

        Text with a [reference][r] and *emphasis*.

        - item
        - item with `code`

        # Two

        | a | b |
        |---|--:|
        | 1 | 2 |

        > quote

        [r]: https://example.org/r "title"

        # Three

        1. x

           ```
           code
           ```

        Another [r] use, and ~~gone~~ www.example.org.
        """
        let pieces = try #require(Self.piecewiseDump(markdown))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(markdown)))
        #expect(pieces.contains { $0.contains("[reference](https://example.org/r \"title\")") })
    }

    @Test func definitionsReachEveryPieceAndTheFirstWins() throws {
        let markdown = "# A\n\nSee [x] and [y].\n\n# B\n\n[x]: /first\n\n# C\n\n[x]: /second\n[y]: /why\n"
        let pieces = try #require(Self.piecewiseDump(markdown))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(markdown)))
        #expect(pieces.contains { $0.contains("[x](/first)") && $0.contains("[y](/why)") })
    }

    /// `]:` in running text, inline code or code comments cannot end a definition's label:
    /// such sources are still cut (real changelogs and API docs are full of them).
    @Test func bracketColonInRunningTextDoesNotPreventCuts() throws {
        let markdown = """
        # A

        * \\[[`9d23a27268`](https://x.org/c)] - **tools**: use Set instead of { \\[key]: true } object
        - [`[MaybeUninit<T>; N]: From<T>`](https://doc.example/mu)

        # B

            // AssertionError [ERR_ASSERTION]: no match

        > quoted note [x] and [y]: done

        # C

        see [r]

        [r]: /r
        """
        let pieces = try #require(Self.piecewiseDump(markdown))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(markdown)))
        #expect(try #require(ChunkPlan(Array(markdown.utf8), targetBytes: 1)).chunks.count == 4)  // # A, # B, # C, see [r]
    }

    @Test func whereALabelCouldEnd() {
        func could(_ line: String) -> Bool {
            let bytes = Array(line.utf8)
            let at = bytes.lastIndex(of: UInt8(ascii: "]"))!
            return bytes.withUnsafeBufferPointer { LineScan.couldEndDefinitionLabel($0, 0, at) }
        }
        // No bracket before `]` on the line: the label may have begun on an earlier line,
        // whose `[` starts its line (after indentation, `>` and list markers).
        for line in ["[a]: /u", "   [a]: /u", "> [a]: /u", "- [a]: /u", "1. > [a]: /u", "[a\nlabel]: /u", "- [a\n  b\n  label]: /u",
                     "> [a b\n> { \\[key]: true }", "[a\\\ncontinued]: /u", "[" + String(repeating: "x", count: 990) + "\ny]: /u"] {
            #expect(could(line), "\(line)")
        }
        for line in ["x [a]: /u", "\\(x)] { \\[key]: true }", "[a\\]: x", "`[a]: b`", "// E [x]: y", "[a] [b]: c", "\\\\[a]: x",
                     // No `[` before it at all, or not at its line's start, or a `]` first, or
                     // further than a label can reach: prose in a list item that says `]:`.
                     "label]: /u", "{ \\[key]: true }", "- see\n  other `]:` here", "- a [b] c\n  other `]:` here",
                     "- x [a\n  b]: /u", "[" + String(repeating: "x", count: 1_020) + "\ny]: /u"] {
            #expect(!could(line), "\(line)")
        }
    }

    /// Prose in a list item or quote that says `]:` with no `[` before it that could open a
    /// label (DEVELOPERS.md's notes did) no longer makes the source unsplittable.
    @Test func prosePastAnyLabelIsCut() throws {
        let section = "# Notes\n\n- A note about the scan: any\n  other `]:` that could end a label, and\n  `key]: value` too.\n"
            + "> quoted text\n> then `]:` again\n\nA paragraph [with a link](u).\n\n"
        let markdown = String(repeating: section, count: 6)
        let plan = try #require(ChunkPlan(Array(markdown.utf8), targetBytes: 1))
        #expect(plan.chunks.count >= 6)
        let pieces = try #require(Self.piecewiseDump(markdown))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(markdown)))
    }

    @Test func definitionsTheScanCannotPlaceMakeTheSourceUnsplittable() {
        for markdown in [
            "# A\n\n> [x]: /in-quote\n\n# B\n\n[x]\n",
            "# A\n\n- [x]: /in-item\n\n# B\n\n[x]\n",
            "# A\n\n[x\ny]: /two-line-label\n\n# B\n\n[x y]\n",
            "# A\n\ntext\n[x]: /p\n\n# B\n\n[x]: /q\n",  // probed and proposed: the probe proves nothing
            "# A\n\ntext\n[x*y]: /p\n\n# B\n",  // a label that could start emphasis is not probed
            "# A\n\n    [x]: /indented\n\n# B\n",
            "# A\n\n- item\n- [x\n  y]: /two-line-label-in-an-item\n\n# B\n\n[x y]\n",
            "# A\r# B\r\r# C\r",  // lone CR line endings
        ] {
            #expect(ChunkPlan(Array(markdown.utf8), targetBytes: 1) == nil, "\(markdown)")
        }
    }

    /// A `]:` line right after a non-blank line is probed: cut when cmark kept it as text (a
    /// footnote definition inside a list item, as Rust's changelog has), refused when cmark
    /// consumed it as a definition (after a fence or a rule, the line starts a paragraph).
    @Test func probedLinesAreCutWhenTheyAreText() throws {
        let text = "# A\n\n- item\n  [^c]: https://x.org/c\n- next\n\ntext\n[x]: /not-a-definition\n\n# B\n\nsee [x] and[^c]\n"
        let plan = try #require(ChunkPlan(Array(text.utf8), targetBytes: 1))
        #expect(plan.chunks.flatMap(\.probes).map { String(decoding: $0, as: UTF8.self) } == ["^c", "x"])
        let pieces = try #require(Self.piecewiseDump(text))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(text)))
        #expect(pieces.contains { $0.contains("[x]: /not-a-definition") })

        // The last one is inside a list item, where only the probe can tell.
        for consumed in ["# A\n\n```\ncode\n```\n[x]: /u\n\n# B\n\n[x]\n", "# A\n\n***\n[x]: /u\n\n# B\n\n[x]\n",
                         "# A\n\n- a\n  ```\n  code\n  ```\n  [x]: /u\n\n# B\n\n[x]\n"] {
            let bytes = Array(consumed.utf8)
            let plan = try #require(ChunkPlan(bytes, targetBytes: 1), "\(consumed)")
            #expect(plan.chunks[0].probes.count == 1)
            guard case .definitionsDisagree = plan.parse(plan.chunks[0], of: bytes) else {
                Issue.record("a consumed definition line was accepted: \(consumed)")
                continue
            }
            #expect(Self.piecewiseDump(consumed) == nil)
        }
    }

    /// A byte order mark counts only at the very start of the source, so the definitions
    /// parsed in front of the first piece must not push it away from there.
    @Test func aByteOrderMarkStaysAtTheStart() throws {
        let markdown = "\u{FEFF}# Title\n\nSee [r].\n\n# Two\n\n[r]: /x\n"
        let pieces = try #require(Self.piecewiseDump(markdown))
        #expect(pieces == Self.wholeDump(MarkdownParser.parse(markdown)))
        #expect(pieces.contains { $0.contains("Heading @1-1 #1 level 1 \"Title\"") })
        // Columns are read after the mark, as cmark counts them: a fence on line 1 is fenced,
        // a `*` list keeps its bullet.
        #expect(dump("\u{FEFF}```\nx\n```") == "Document @1-3 #0\n  CodeBlock @1-3 #1 fenced \"\" \"x\\n\"")
        #expect(dump("\u{FEFF}* a") == "Document @1-1 #0\n  List @1-1 #1 bullet * tight\n    Item @1-1 #2\n      Paragraph @1-1 #3 \"a\"")
    }

    /// Found in review: definitions that run onto the next line, cmark's budget for expanding
    /// references (counted per parse), and a second byte order mark. Each must either be cut
    /// exactly or not be cut.
    @Test(arguments: [
        "# A\n\n[a]:\n[b]:\n\n# B\n\nsee [a] and [b]\n",
        "# A\n\n[a]: /u \"t\n[b]: /v\"\n\n# B\n\nsee [a] and [b]\n",
        "# A\n\n[a]: /u (t\n[b]: /v)\n\n# B\n\nsee [a] and [b]\n",
        "# A\n\n[a]: /u\n\"title\"\n\n# B\n\nsee [a]\n",
        "\u{FEFF}\u{FEFF}# A\n\nsee [r]\n\n# B\n\n[r]: /x\n",
        "\u{FEFF}\u{FEFF}* a\n\nB\n",
        "[a]: /" + String(repeating: "u", count: 1000) + "\n\n" + (0..<300).map { "# H\($0)\n\nsee [a]\n\n" }.joined(),
    ])
    func reviewFindingsAreExact(markdown: String) {
        let whole = Self.wholeDump(MarkdownParser.parse(markdown))
        for target in [1, 7, 40, 2000] {
            if let pieces = Self.piecewiseDump(markdown, target: target) {
                #expect(pieces == whole, "target \(target)")
            }
        }
    }

    @Test func wholeDefinitionLines() {
        func whole(_ line: String) -> Bool {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer { LineScan.isWholeDefinition($0, 0, $0.count) }
        }
        for line in ["[a]: /u", "[a]: /u \"t\"", "[a]:/u 't'", "[a]: <b c> (t)", "[a\\]]: /u", "[a]: /f(x) \"t\"  ", "[a]: /u\"t\""] {
            #expect(whole(line), "\(line)")
        }
        for line in ["[a]:", "[a]:   ", "[a]: /u \"t", "[a]: /u (t", "[a]: <b", "[a]: /u \"t\" x", "[a]: /f(x", "[[a]]: /u"] {
            #expect(!whole(line), "\(line)")
        }
    }

    /// A piece is parsed with the definitions of the labels bracketed in it, so pieces stay
    /// small however many definitions the source has (they used to grow until the
    /// definitions were an eighth of them).
    @Test func piecesStaySmallWithManyDefinitions() throws {
        var markdown = ""
        for i in 0..<3000 {
            markdown += "# Section \(i)\n\n" + (i % 10 == 0 ? "See [link \(i % 130)] here." : "Plain text.") + "\n\n"
            if i < 130 { markdown += "[link \(i)]: https://example.org/\(i)\n\n[lïnk \(i)]: /other/\(i)\n\n" }
            if i >= 1000 && i % 10 == 5 { markdown += "Not ASCII: [LÏNK \(i % 130)].\n\n" }
        }
        let bytes = Array(markdown.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: 1))
        #expect(plan.definitions.count > 4096)
        let lastDefinition = try #require(markdown.range(of: "[lïnk 129]: ")).upperBound.utf16Offset(in: markdown)
        var small = 0, withLink = 0
        for chunk in plan.chunks.dropLast() where chunk.bytes.lowerBound > lastDefinition {
            small += 1
            #expect(chunk.bytes.count < 100)  // as cut: "# Section i", its paragraph
            // Only the definitions of its own labels: one (or, with the next line's, two).
            let given = plan.definitions(for: chunk, in: bytes)
            let count = given.text.filter { $0 == 0x5B }.count
            #expect(given.lines == 2 * count && count <= 2)
            if count > 0 { withLink += 1 }
        }
        #expect(small > 1000 && withLink > 100)
        #expect(Self.piecewiseDump(markdown) == Self.wholeDump(MarkdownParser.parse(markdown)))
        #expect(MarkdownParser.parse(markdown).dump().contains("/other/5"))
        // Definitions everywhere: each piece needs only its own.
        let linkHeavy = (0..<2000).map { "# S\($0)\n\n[l\($0)]: /u/\($0)\n\nsee [l\($0)]\n\n" }.joined()
        #expect(Self.piecewiseDump(linkHeavy) == Self.wholeDump(MarkdownParser.parse(linkHeavy)))
        #expect(try #require(ChunkPlan(Array(linkHeavy.utf8), targetBytes: 1)).chunks.count > 1000)
    }

    /// Label keys are equal for labels cmark takes for one (Unicode case folding, whitespace
    /// runs), and drop what cannot be told apart without folding.
    @Test func labelKeys() {
        func key(_ s: String) -> String { String(decoding: ChunkPlan.labelKey(Array(s.utf8)), as: UTF8.self) }
        #expect(key("  Foo \t\n BAR  ") == "foo bar")
        #expect(key("Straße") == key("STRASSE") && key("ẞ") == "ss")
        #expect(key("\u{212A}elvin") == key("kelvin") && key("ſ") == "s" && key("ﬃ") == "ffi")
        #expect(key("Ünï") == key("üNÏ") && key("Ünï") == "n")
        #expect(key("a\u{00A0}b") == "ab")
        // Not well-formed: dropped as the parse's U+FFFD is (an overlong ß is not "ss").
        #expect(ChunkPlan.labelKey([0x61, 0xE0, 0x83, 0x9F, 0x62, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x00]) == Array("ab".utf8))
    }

    /// Pieces given only the definitions of their own labels parse as the whole source does,
    /// whatever form the references take: full, collapsed, shortcut, images, escaped
    /// brackets, labels over lines (in a block quote too), other case, nested brackets,
    /// table cells, labels that are not ASCII (Unicode case folding: the Kelvin sign is a
    /// `k`, `ß` is `ss`), footnotes; and a label defined twice keeps its first definition.
    @Test func piecesWithTheirOwnDefinitionsParseAsTheWhole() throws {
        var definitions = (0..<80).map { "[d\($0)]: /u/\($0) \"t\($0)\"\n\n" }.joined()
        definitions += "[esc\\]aped]: /esc\n\n[two words here]: /two\n\n[quoted label]: /quoted\n\n[k]: /kelvin\n\n"
            + "[ss]: /sharp\n\n[Ünï]: /uni\n\n[d1]: /second-definition\n\n[^note]: /footnote-url\n\n[cell]: /cell\n\n"
        let references = [
            "Full [text][d1], collapsed [d2][], shortcut [d3], image ![alt][d4], upper [D5].",
            "Escaped [esc\\]aped], over lines [two\nwords\n  here], nested [a [d6] b], missing [nope].",
            "> Quoted [quoted\n> label] and [d7].",
            "| a | b |\n|---|---|\n| [cell] | [d8] |",
            "Kelvin [\u{212A}], sharp [ß], other case [üNÏ], a caret link [^note].",
            "- item [d9]\n- item ![x][d10]",
        ]
        var markdown = ""
        for i in 0..<60 {
            markdown += "# Section \(i)\n\n" + references[i % references.count] + "\n\n"
            if i == 30 { markdown += definitions }
        }
        let bytes = Array(markdown.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: 1))
        #expect(plan.chunks.count > 20)
        // Some pieces were given fewer definitions than all (the filter ran).
        #expect(plan.chunks.contains { plan.definitions(for: $0, in: bytes).text.count < plan.definitions.count / 4 })
        let whole = MarkdownParser.parse(bytes, options: ParseOptions(inPieces: false)).document
        #expect(Self.piecewiseDump(markdown) == Self.wholeDump(whole))
        // The references did resolve (the test would pass vacuously otherwise).
        let dump = whole.dump()
        for destination in ["/u/1", "/u/3", "/esc", "/two", "/quoted", "/kelvin", "/sharp", "/uni", "/cell", "/u/8"] {
            #expect(dump.contains(destination), "\(destination)")
        }
        #expect(!dump.contains("/second-definition"))
    }

    /// The scan can lose track of a fence opened inside a list item (the item's end closes it,
    /// the scan keeps it open); its proposal is then wrong, and the parse must refuse it.
    @Test func aWrongProposalIsRefused() throws {
        let markdown = "- a\n\n  ```\n\n# H1\n\n```\ncode\n\n# in code\n```\n"
        let bytes = Array(markdown.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: 1))
        #expect(plan.chunks.map(\.firstLine) == [1, 10])
        guard case .openAtEnd = plan.parse(plan.chunks[0], of: bytes) else {
            Issue.record("the cut inside the fence was accepted")
            return
        }
        // Healed: the two pieces as one are the whole document.
        #expect(Self.piecewiseDump(markdown) == Self.wholeDump(MarkdownParser.parse(markdown)))
    }

    @Test func aDefinitionLineThatIsNotOneIsRefused() throws {
        // The second line continues the definition's paragraph: the scan proposes `[x]: /u`,
        // but cmark keeps the whole paragraph (the line is covered by a block).
        let markdown = "# A\n\n[x]: /u\nmore text\n\n# B\n\n[x]\n"
        let bytes = Array(markdown.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: 1))
        guard case .definitionsDisagree = plan.parse(plan.chunks[0], of: bytes) else {
            Issue.record("a covered definition line was accepted")
            return
        }
    }

    /// Law: hostile bytes (invalid UTF-8, NUL, CR LF line endings, tabs) change nothing:
    /// pieces are cut at line ends, where no UTF-8 sequence can straddle.
    @Test func lawHostileBytesPiecesAreTheWhole() {
        let snippets: [[UInt8]] = [
            Array("# Heading".utf8), Array("Para \u{1B}[31m with [ref] and \u{7F}.".utf8), [0xFF, 0xFE, 0x41],
            [0x41, 0x00, 0x42], [0xE2, 0x82, 0x41], Array("word".utf8) + [0xC3], Array("```\n# code\n```".utf8),
            Array("\n[ref]: /ref".utf8), Array("- item\r\n- item".utf8), Array("\t# tab\n".utf8), Array("> q".utf8),
            Array("Text\r\n\r\nMore".utf8), Array("<!--\r\n\r\n# in\r\n-->".utf8), Array("| a |\n|---|\n| \u{0} |".utf8),
        ]
        var random = SeededRandom(seed: 0xbad5eed)
        var accepted = 0
        for _ in 0..<800 {
            var bytes: [UInt8] = Int.random(in: 0..<5, using: &random) == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<Int.random(in: 2...12, using: &random) {
                bytes += snippets.randomElement(using: &random)!
                bytes += Bool.random(using: &random) ? Array("\n\n".utf8) : Array("\r\n\r\n".utf8)
            }
            guard let joined = Self.piecewiseDocument(bytes, target: Int.random(in: 1...30, using: &random)) else { continue }
            accepted += 1
            let whole = MarkdownParser.parse(bytes, options: ParseOptions(inPieces: false)).document
            #expect(joined.dump() == whole.dump(), "\(bytes)")
            if joined.dump() != whole.dump() { return }
        }
        #expect(accepted > 200, "only \(accepted) documents were cut")
    }

    /// Above `piecewiseBytes`, `parse` itself works in pieces: the same document, ids and all.
    @Test func largeSourcesParseInPiecesToTheSameDocument() throws {
        var path = "\(#filePath)"
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        var text = ""
        while text.utf8.count < MarkdownParser.piecewiseBytes + 1 {
            for name in ["tour.md", "long.md", "wide.md"] {
                let file: String = path + "/SampleDocs/" + name
                text += try String(contentsOfFile: file, encoding: .utf8)
                text += "\n\n"
            }
        }
        let bytes = Array(text.utf8)
        let plan = try #require(ChunkPlan(bytes, targetBytes: MarkdownParser.pieceBytes))
        #expect(plan.chunks.count >= 4)
        let (pieces, report) = MarkdownParser.parse(bytes)
        #expect(report.pieces >= 2, "\(report)")
        let whole = MarkdownParser.parse(bytes, options: ParseOptions(inPieces: false)).document
        checkInvariants(pieces)
        #expect(pieces.sourceLineCount == whole.sourceLineCount)
        #expect(pieces.blocks.count == whole.blocks.count)
        #expect(pieces.dump() == whole.dump())
    }

    /// Law: over generated documents full of constructs that fool a line scan, whenever every
    /// piece accepts, the pieces together are exactly the whole parse.
    @Test func lawPiecesAreTheWhole() {
        let snippets = [
            "# Heading", "## Sub *heading*", "# Heading", "Para with [ref] and [other][r2].", "text\nmore text",
            "- item\n- item", "- a\n\n  ```\n  code", "1. one\n\n   # not heading", "> quote\n> # quoted",
            "```\n# fenced heading\n\n# more\n```", "~~~~\n\n# tilde\n~~~\n\n# still\n~~~~",
            "<!-- comment\n\n# inside\n-->", "<pre>\n\n# pre\n</pre>", "<div>\n# div", "    # indented code",
            "\n[ref]: /ref", "\n[r2]: /r2 \"t\"\n[ref]: /again", "| a | b |\n|---|---|\n| 1 | 2 |", "Setext\n===",
            "***", "<?php\n\n# pi\n?>", "- [ ] task\n- [x] done", "~~strike~~ https://x.org", "\t# tab", "#", "# ", "see [x](u) { \\[key]: true }", "- item [`[T; N]: From`](u)", "> note [a] and [b]: c",
            "A note[^1] and another[^n].", "\n[^1]: The first note, in words.", "[^n]: https://x.org/n",
            "[^n]: Later *words*\n    with an indented paragraph", "text then [^1] again", "[^2]: Unused note.",
            "- item with a note[^2]", "text\n[^n]: https://x.org/n", "- item\n  [cont]: /continued", "- item\n  [^1]: /u \"t\"",
            "> q\n[lazy]: /lazy", "see [fresh], [cont] and [lazy]",
        ]
        // Openers without their closers (they hold the rest of the document) and lines that
        // make the whole source unsplittable: rare, or few documents would be cut at all.
        let spoilers = ["```", "~~~", "<!--", "-->", "<pre>", "?>", "> [ref]: /quoted", "text ]: colon", "[ref]:\n/next-line",
                        "[^1]:\n/next-line", "[^1]: /url\n\"title\"", "[^1]: /url \"open title",
                        "```\ncode\n```\n[fresh]: /after-fence", "***\n[^2]: /after-rule", "- item\n  [ref]: /continued"]
        var random = SeededRandom(seed: 0x0c4e_a1d)
        var accepted = 0
        let runs = 1000
        for _ in 0..<runs {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 2...14, using: &random) {
                let pool = Int.random(in: 0..<12, using: &random) == 0 ? spoilers : snippets
                parts.append(pool.randomElement(using: &random)!)
                parts.append(Bool.random(using: &random) ? "\n\n" : "\n")
            }
            let markdown = parts.joined()
            guard let pieces = Self.piecewiseDump(markdown, target: Int.random(in: 1...40, using: &random)) else { continue }
            accepted += 1
            let whole = Self.wholeDump(MarkdownParser.parse(markdown))
            #expect(pieces == whole, "\(markdown.debugDescription)")
            if pieces != whole { return }
        }
        // The law is only worth something if many documents are actually cut.
        #expect(accepted > runs / 5, "only \(accepted) of \(runs) documents were cut")
    }
}


/// `SourceText` keeps clean input as it is; that shortcut must agree with the decoder.
@Suite struct CleanUTF8Tests {
    @Test func shortcutAgreesWithTheDecoder() {
        var random = SeededRandom(seed: 0x17f8)
        let pieces: [[UInt8]] = [
            Array("plain ascii text ".utf8), Array("é漢🙂".utf8), [0], [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x99], [0x80], [0xFF], [0xEF, 0xBF, 0xBD],
        ]
        for _ in 0..<4000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                bytes += Bool.random(using: &random) ? pieces.randomElement(using: &random)!
                    : (0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            let reference = !bytes.contains(0) && Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
            #expect(bytes.withUnsafeBufferPointer(SourceText.isCleanUTF8) == reference, "\(bytes)")
        }
    }
}

extension ChunkPlanTests {
    /// Front matter is cut off before parsing and what follows is parsed as a document of its
    /// own: the pieces start after it, and the joined pieces get its block in front, as one
    /// parse gives it (YAML, TOML, after a byte order mark, CRLF, with footnotes and link
    /// definitions in the pieces).
    @Test(arguments: ["---\ntitle: x\nlist: [a, b]\n---\n", "+++\ntitle = \"x\"\n+++\n", "\u{FEFF}---\ntitle: x\n...\n",
                      "---\r\ntitle: x\r\n---\r\n", "---\ntitle: x\n---\nText right after.\n"])
    func frontMatterSourcesAreCutAfterIt(front: String) throws {
        let filler = String(repeating: "Paragraph words for the piece, a [link][ref] too.\n\n", count: 200)
        for tail in ["", "A note[^1].\n\n[^1]: The note, in words.\n"] {
            let text = front + "\n" + filler + "# Heading\n\n" + filler + "[ref]: https://x.org\n\n" + filler + tail
            let source = Array(text.utf8)
            let plan = try #require(ChunkPlan(source, targetBytes: 1 << 10), "\(front.debugDescription)")
            #expect(plan.hasFrontMatter)
            #expect(plan.chunks.count > 4)
            #expect(plan.chunks.first!.bytes.lowerBound > 0)
            let pieces = try #require(plan.document(of: source))
            let whole = MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document
            #expect(pieces.dump() == whole.dump(), "\(front.debugDescription) \(tail.debugDescription)")
            #expect(pieces.sourceLineCount == whole.sourceLineCount)
            #expect(pieces.hiddenLines == whole.hiddenLines)
            #expect(pieces.anchors == whole.anchors)
            #expect(whole.dump().contains("FrontMatter"))
        }
    }

    /// Footnotes are numbered and gathered over the whole document, by a pass after the
    /// pieces are joined: sources with them are cut, and the result is the one parse's.
    @Test func footnoteSourcesAreCut() throws {
        let filler = String(repeating: "Paragraph words for the piece.\n\n", count: 400)
        let plain = Array((filler + "# Heading\n\n" + filler).utf8)
        #expect(ChunkPlan(plain, targetBytes: 1 << 10)?.hasFootnotes == false)
        for definition in ["[^1]: The note, two words.", "[^1]: https://x.org", "[^1]: https://x.org \"Title\"",
                           "[^1]: The note\n    and an indented paragraph."] {
            let footnote = Array(("See[^1].\n\n" + filler + "A note[^1].\n\n" + definition + "\n\n" + filler + "Again[^1].\n").utf8)
            let plan = try #require(ChunkPlan(footnote, targetBytes: 1 << 10), "\(definition)")
            #expect(plan.hasFootnotes)
            let pieces = try #require(plan.document(of: footnote))
            let whole = MarkdownParser.parse(footnote, options: ParseOptions(inPieces: false)).document
            #expect(pieces.dump() == whole.dump(), "\(definition)")
            #expect(whole.dump().contains("user-content-fn-1"), "the note is a footnote: \(definition)")
        }
        // `[^1]: Words` is a whole link definition to cmark, and the line after it continues
        // its paragraph: the piece that holds it sees the difference and the source goes whole.
        let continued = Array((filler + "A note[^1].\n\n[^1]: Words\n    and more.\n\n" + filler).utf8)
        let continuedPlan = try #require(ChunkPlan(continued, targetBytes: 1 << 10))
        #expect(continuedPlan.document(of: continued) == nil)
        // A definition line that may go on to the next line is not placed: the source is whole.
        for definition in ["[^1]:", "[^1]: /url \"open title"] {
            let footnote = Array((filler + "A note[^1].\n\n" + definition + "\n\n" + filler).utf8)
            #expect(ChunkPlan(footnote, targetBytes: 1 << 10) == nil, "\(definition)")
        }
        // Hidden HTML comments between pieces keep the pieces provable.
        let comments = Array((filler + "<!-- a comment -->\n\n" + filler + "<details>\n<summary>S</summary>\n\n" + filler).utf8)
        let plan = ChunkPlan(comments, targetBytes: 1 << 10)
        #expect(plan != nil)
        if let plan {
            let pieces = plan.document(of: comments)
            #expect(pieces?.dump() == MarkdownParser.parse(comments, options: ParseOptions(inPieces: false)).document.dump())
        }
    }
}
