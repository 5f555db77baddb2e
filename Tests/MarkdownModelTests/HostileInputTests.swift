import TestSupport
import Testing
@testable import MarkdownModel

/// Input nobody should write: the parser is total, iterative and keeps its invariants.
@Suite struct HostileInputTests {
    private func check(_ bytes: [UInt8]) -> Document {
        let document = MarkdownParser.parse(bytes).document
        checkInvariants(document)
        return document
    }

    private func onlyParagraphText(_ document: Document) -> String? {
        guard document.blocks.count == 2, case .paragraph(let inlines) = document.blocks[1].kind else { return nil }
        return inlines.plainText
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(onlyParagraphText(check([0x61, 0xFF, 0x62])) == "a\u{FFFD}b")
        #expect(onlyParagraphText(check([0x61, 0xE2, 0x82])) == "a\u{FFFD}")        // truncated sequence
        #expect(onlyParagraphText(check([0xC0, 0xAF, 0x78])) == "\u{FFFD}\u{FFFD}x") // overlong
    }

    @Test func nulBecomesReplacementCharacter() {
        #expect(onlyParagraphText(check([0x61, 0x00, 0x62])) == "a\u{FFFD}b")
        // Columns stay right after a replacement: the table after the NUL is still found.
        let table = check(Array("\u{0}\n\n| a | b |\n|---|---|\n".utf8))
        #expect(table.blocks.count == 3)
        if case .table = table.blocks[2].kind {} else { Issue.record("no table: \(table.dump())") }
    }

    @Test func tenThousandNestedBlockQuotes() {
        let document = check(Array((String(repeating: ">", count: 10_000) + " deep").utf8))
        #expect(document.blocks.count == 10_002)
        #expect(document.blocks.last?.depth == 10_001)
        #expect(onlyLeafText(document) == "deep")
    }

    @Test func tenThousandNestedLists() {
        let document = check(Array((String(repeating: "- ", count: 10_000) + "x").utf8))
        #expect(document.blocks.count == 20_002)
        #expect(document.blocks.last?.depth == 20_001)
        #expect(onlyLeafText(document) == "x")
    }

    @Test func deeplyNestedInlines() {
        let markdown = String(repeating: "*", count: 6_000) + "a ~~b~~ www.c.org" + String(repeating: "*", count: 6_000)
        let document = check(Array(markdown.utf8))
        #expect(onlyParagraphText(document) == "a b www.c.org")
    }

    /// A giant paragraph is cut into pieces, blocks that continue the one before, so that the
    /// pager lays out a piece at a time; together they hold exactly the paragraph's text.
    @Test func tenMegabyteSingleLine() throws {
        let line = String(repeating: "lorem | ipsum ~ dolor ", count: 10_000_000 / 22)
        let document = check(Array(line.utf8))
        #expect(document.sourceLineCount == 1)
        let text = try piecesText(document)
        #expect(document.blocks.count > 600)
        #expect(text == String(line.dropLast()), "cmark drops the trailing space")
    }

    private func piecesText(_ document: Document) throws -> String {
        var text = ""
        for (k, block) in document.blocks.dropFirst().enumerated() {
            guard case .paragraph(let inlines) = block.kind else { throw TestFailure("block \(k) is \(block.kind)") }
            #expect(block.continuesPrevious == (k > 0))
            #expect(block.parent == BlockID(0) && block.source == document.blocks[1].source)
            #expect(inlines.plainText.utf8.count <= DocumentBuilder.giantPieceBytes)
            text += inlines.plainText
        }
        return text
    }

    struct TestFailure: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

    /// Cuts fall between characters (no replacement character from a split sequence), after a
    /// space where there is one, and between inlines (emphasis and links stay whole).
    @Test func giantParagraphsAreCutBetweenCharactersAndInlines() throws {
        let accents = String(repeating: "é", count: 100_000) + " " + String(repeating: "👩‍👩‍👧", count: 10_000)
        #expect(try piecesText(check(Array(accents.utf8))) == accents)
        let words = (0..<20_000).map { "w\($0)" }.joined(separator: " ")
        let pieces = check(Array(words.utf8)).blocks.dropFirst().map { block -> String in
            guard case .paragraph(let inlines) = block.kind else { return "" }
            return inlines.plainText
        }
        #expect(pieces.count > 4)
        #expect(pieces.dropLast().allSatisfy { $0.hasSuffix(" ") }, "cut after a space")
        #expect(pieces.joined() == words)
        let emphasis = String(repeating: "*em* [link](https://e.org) ", count: 8_000)
        let document = check(Array(emphasis.utf8))
        #expect(document.blocks.count > 3)
        var emphases = 0, links = 0
        for block in document.blocks.dropFirst() {
            guard case .paragraph(let inlines) = block.kind else { continue }
            for (i, node) in inlines.nodes.enumerated() {
                if node.kind == .emphasis {
                    emphases += 1
                    #expect(node.descendantCount == 1 && inlines.nodes[i + 1].kind == .text("em"))
                }
                if case .link(let destination, _, _) = node.kind {
                    links += 1
                    #expect(destination == "https://e.org" && inlines.nodes[i + 1].kind == .text("link"))
                }
            }
        }
        #expect(emphases == 8_000 && links == 8_000, "every inline whole, in one piece")
        // An ordinary paragraph stays one block.
        #expect(check(Array(String(repeating: "word ", count: 10_000).utf8)).blocks.count == 2)
    }

    /// Issue 31: a paragraph whose link destination (or image source) is 64 KB or more was
    /// cut around the link, each piece on a row of its own ("para" / "link" / " and more"):
    /// a destination is not text the paragraph shows. A footnote definition holding such a
    /// link was cut too, and the link was left in the text, out of its footnote.
    @Test func aGiantDestinationDoesNotCutItsParagraph() {
        let url = "https://example.org/" + String(repeating: "a", count: 70_000)
        for markdown in ["para [link](\(url)) and more words", "![a picture](data:image/png;base64,\(url)) and words",
                         "[one](\(url)) [two](\(url)) [three](<\(url)>)"] {
            let document = check(Array(markdown.utf8))
            #expect(document.blocks.count == 2, "\(document.blocks.count) blocks")
        }
        let footnote = check(Array("text[^1]\n\n[^1]: note [x](\(url)) end\n".utf8))
        let paragraphs = footnote.blocks.compactMap { block -> String? in
            if case .paragraph(let inlines) = block.kind { return inlines.plainText } else { return nil }
        }
        #expect(paragraphs == ["text[1]", "note x end ↩"], "\(paragraphs)")
    }

    /// Inputs that would take quadratic time with naive delimiter or autolink scanning
    /// (minutes, not milliseconds; no timing assertion, the suite's run time shows it).
    @Test(arguments: [
        String(repeating: "~a ", count: 20_000) + String(repeating: "b~~ ", count: 20_000),
        String(repeating: "_www.a_b", count: 20_000),
        "http://a.b/" + String(repeating: ")", count: 50_000),
        "x " + String(repeating: "www.", count: 50_000),
    ])
    func noQuadraticExtensions(_ markdown: String) {
        _ = check(Array(markdown.utf8))
    }

    @Test(arguments: 0..<300)
    func randomBytes(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        // Mostly Markdown punctuation, some letters, some arbitrary bytes.
        let alphabet = Array("|-:>*_~`#[]()!<\\ \n\t1.xw/hps&;\"".utf8)
        let count = Int(random.next() % 300)
        var bytes: [UInt8] = []
        for _ in 0..<count {
            let roll = random.next() % 10
            bytes.append(roll < 8 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(truncatingIfNeeded: random.next()))
        }
        _ = check(bytes)
    }

    @Test(arguments: 0..<100)
    func randomMarkdownLines(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 1_000)
        let pieces = ["> ", "- ", "1. ", "  ", "| a | b |", "|---|:-:|", "~~x~~", "www.a.b", "https://c.d)", "[ ] ",
                      "```", "    ", "# ", "*e*", "\\|", "text", "\n", "\n\n", "<div>", "---", "==="]
        var markdown = ""
        for _ in 0..<Int(random.next() % 60) { markdown += pieces[Int(random.next() % UInt64(pieces.count))] }
        _ = check(Array(markdown.utf8))
    }

    private func onlyLeafText(_ document: Document) -> String? {
        let leaves = document.leafBlocks
        guard leaves.count == 1, case .paragraph(let inlines) = document[leaves[0]].kind else { return nil }
        return inlines.plainText
    }
}

typealias SplitMix64 = SeededRandom
