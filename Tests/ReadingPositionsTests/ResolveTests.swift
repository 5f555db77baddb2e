import LineLayout
import MarkdownModel
import Testing
@testable import ReadingPositions

@Suite struct ResolveTests {
    static let original = """
        # Guide

        Intro paragraph about folio.

        ## Install

        Run the installer and wait.

        Check the version afterwards.

        ## Usage

        Open a file with folio.

        Press q to quit.
        """

    /// Resolves the position captured in `original` at `prefix`/`offset` in `edited`.
    func moved(_ prefix: String, offset: Int = 0, to edited: String) -> (ResolvedPosition, String) {
        let before = facts(Self.original)
        let stored = before.position(at: prefix, offset: offset)
        let after = facts(edited)
        let r = resolve(stored, storedContentHash: before.contentHash, in: after)
        return (r, after.textAt(r.anchor))
    }

    @Test func sameContentGivesTheExactAnchor() {
        let f = facts(Self.original)
        var stored = f.position(at: "Check the", offset: 6)
        stored.anchor.ordinal = 2
        let r = resolve(stored, storedContentHash: f.contentHash, in: f)
        #expect(r.rule == .exact)
        #expect(r.anchor == stored.anchor)
        #expect(f.textAt(r.anchor) == "the version afterwards.")
    }

    @Test func captureRecordsTheFacts() {
        let f = facts(Self.original)
        let p = f.position(at: "Press q", offset: 6)
        #expect(p.headingPath == ["Guide", "Usage"])
        #expect(p.sectionIndex == 2) // the heading "Usage" itself, "Open…", "Press…"
        #expect(p.sourceLine == 15)
        #expect(p.fingerprint == StableHash.fingerprint(of: "Press q to quit."))
        #expect(f.leaf(startingWith: "Usage").headingPath == ["Guide", "Usage"])
        #expect(f.leaf(startingWith: "Intro").headingPath == ["Guide"])
    }

    @Test func paragraphsInsertedAboveAndBelowKeepTheText() {
        let edited = """
            # Guide

            A new first paragraph.

            Another one, longer than the others, with more words.

            Intro paragraph about folio.

            ## Install

            Run the installer and wait.

            A note added between.

            Check the version afterwards.

            Added at the end of install.

            ## Usage

            Open a file with folio.

            Press q to quit.
            """
        let (r, text) = moved("Check the", offset: 10, to: edited)
        #expect(r.rule == .fingerprint)
        #expect(text == "version afterwards.")
    }

    @Test func paragraphsDeletedKeepTheText() {
        let edited = """
            # Guide

            ## Usage

            Press q to quit.
            """
        let (r, text) = moved("Press q", offset: 6, to: edited)
        #expect(r.rule == .fingerprint)
        #expect(text == "q to quit.")
    }

    @Test func headingRetitledKeepsTheParagraphsUnderIt() {
        let edited = Self.original.replacingOccurrences(of: "## Install", with: "## Installing folio")
        let (r, text) = moved("Run the", offset: 4, to: edited)
        #expect(r.rule == .fingerprint)
        #expect(text == "the installer and wait.")
        // The retitled heading itself: neither its text nor its path holds; its line does.
        let (r2, text2) = moved("Install", to: edited)
        #expect(r2.rule == .sourceLine)
        #expect(text2 == "Installing folio")
    }

    @Test func sectionsReorderedKeepTheText() {
        let edited = """
            # Guide

            ## Usage

            Open a file with folio.

            Press q to quit.

            ## Install

            Run the installer and wait.

            Check the version afterwards.

            Intro paragraph about folio.
            """
        let (r, text) = moved("Intro", to: edited)
        #expect(r.rule == .fingerprint)
        #expect(text == "Intro paragraph about folio.")
        let (r2, text2) = moved("Check", offset: 5, to: edited)
        #expect(r2.rule == .fingerprint)
        #expect(text2 == " the version afterwards.")
    }

    @Test func editedTextFallsBackToTheSectionAndKeepsTheOffset() {
        let edited = """
            # Guide

            Some new intro.

            Intro paragraph about folio, rewritten.

            ## Install

            Run the installer, then wait for it.

            Check the version afterwards, twice.

            ## Usage

            Open a file with folio.

            Press q to quit.
            """
        let (r, text) = moved("Check the", offset: 10, to: edited)
        #expect(r.rule == .headingPath)
        #expect(text == "version afterwards, twice.")
    }

    @Test func editedTextInAShorterSectionGoesToItsLastLeaf() {
        let edited = Self.original.replacingOccurrences(of: "Check the version afterwards.\n\n", with: "")
            .replacingOccurrences(of: "Run the installer and wait.", with: "Run the installer.")
        let (r, text) = moved("Check the", offset: 10, to: edited)
        #expect(r.rule == .headingPath)
        #expect(text == "staller.")
    }

    @Test func duplicateTextPrefersTheSameSection() {
        let doc = """
            # A

            Same words.

            # B

            Same words.
            """
        let before = facts(doc)
        let stored = capture(anchor: Anchor(block: before.leaves[3].block, offset: 5), facts: before, fraction: 0.9)
        #expect(stored.headingPath == ["B"])
        let after = facts("# B\n\nSame words.\n\n# A\n\nSame words.\n")
        let r = resolve(stored, storedContentHash: before.contentHash, in: after)
        #expect(r.rule == .fingerprint)
        #expect(after.leaves[after.leafIndex(of: r.anchor.block)!].headingPath == ["B"])
    }

    @Test func everythingChangedFallsBackToTheSourceLine() {
        // Line 15 (where "Press q to quit." stood) is now the last line of the fourth paragraph.
        let edited = (1...16).map { $0 % 4 == 0 ? "" : "text line \($0)" }.joined(separator: "\n")
        let (r, text) = moved("Press q", to: edited)
        #expect(r.rule == .sourceLine)
        #expect(text == " text line 15") // the block holds lines 13...15: two thirds in
    }

    @Test func aMuchShorterDocumentFallsBackToTheFraction() {
        let edited = "One.\n\nTwo.\n\nThree.\n\nFour."
        let before = facts(Self.original)
        let stored = capture(anchor: Anchor(block: before.leaf(startingWith: "Press").block, offset: 0),
                             facts: before, fraction: 0.8, sourceLine: 15)
        let after = facts(edited)
        let r = resolve(stored, storedContentHash: before.contentHash, in: after)
        #expect(r.rule == .fraction)
        #expect(after.text(ofLeaf: after.leafIndex(of: r.anchor.block)!) == "Four.")
        #expect(after.textAt(r.anchor) == "our.") // a fifth into the last of four leaves
    }

    @Test func anEmptyDocumentResolvesToItsStart() {
        let before = facts(Self.original)
        let r = resolve(before.position(at: "Press"), storedContentHash: before.contentHash, in: facts(""))
        #expect(r.rule == .fraction)
        #expect(r.anchor == Anchor(block: BlockID(0), offset: 0))
    }

    @Test(arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 0.99, 1.0])
    func fractionIsMonotonic(fraction: Double) {
        let f = facts((1...20).map { "Paragraph \($0)." }.joined(separator: "\n\n"))
        var stored = f.position(at: "Paragraph 1.")
        stored.fingerprint = StableHash(rawValue: 1)
        stored.sourceLine = 10_000
        stored.fraction = fraction
        let r = resolve(stored, storedContentHash: StableHash(rawValue: 2), in: f)
        #expect(r.rule == .fraction)
        let index = f.leafIndex(of: r.anchor.block)!
        #expect(index == min(19, Int(fraction * 20)))
    }

    @Test func offsetsSnapToCharacterBoundaries() {
        let text = "añ👍🏽x" // a(1) ñ(2) 👍🏽(8) x(1)
        #expect(snapOffset(-3, in: text) == 0)
        #expect(snapOffset(1, in: text) == 1)
        #expect(snapOffset(2, in: text) == 1)
        #expect(snapOffset(3, in: text) == 3)
        #expect(snapOffset(7, in: text) == 3)
        #expect(snapOffset(11, in: text) == 11)
        #expect(snapOffset(99, in: text) == 12)
    }

    @Test func aKeptOffsetIsClampedAndSnapped() {
        let before = facts("# T\n\nA long first paragraph of text.")
        let stored = before.position(at: "A long", offset: 20)
        // Same section, different text: ñ covers bytes 1...2 of the new text.
        let after = facts("# T\n\nxñ")
        var s = stored
        s.anchor.offset = 2
        let r = resolve(s, storedContentHash: before.contentHash, in: after)
        #expect(r.rule == .headingPath)
        #expect(r.anchor.offset == 1)
        let r2 = resolve(stored, storedContentHash: before.contentHash, in: after)
        #expect(r2.anchor.offset == 3)
    }
}

/// The same bytes read as the other kind (a file left as Markdown, then piped and sniffed as
/// text, or the other way): the place is found by its line, not by the anchor's unit number,
/// which counts blocks in one and lines in the other (issue 27: it opened 3 lines down).
@Suite struct CrossKindResolveTests {
    static let source = "# Notes\n\nIntro.\n\n- item 1\n- item 2\n\nLast words.\n"

    static func markdownFacts() -> DocumentFacts {
        let layout = DocumentLayout(document: MarkdownParser.parse(source), options: LayoutOptions(width: 40))
        return DocumentFacts(layout: layout, contentHash: StableHash(bytes: Array(source.utf8)))
    }

    static func textFacts() -> DocumentFacts {
        let layout = DocumentLayout(content: LargeTextTests.content(source), options: LayoutOptions(width: 40))
        return DocumentFacts(layout: layout, contentHash: StableHash(bytes: Array(source.utf8)))
    }

    @Test func leftAsMarkdownResumedAsText() throws {
        let markdown = Self.markdownFacts(), text = Self.textFacts()
        let stored = markdown.position(at: "item 1")
        #expect(stored.sourceLine == 5)
        let r = resolve(stored, storedContentHash: markdown.contentHash, in: text)
        #expect(r.rule != .exact)
        #expect(text.textAt(r.anchor) == "- item 1")
    }

    @Test func leftAsTextResumedAsMarkdown() throws {
        let markdown = Self.markdownFacts(), text = Self.textFacts()
        let stored = text.position(at: "- item 2")
        #expect(stored.sourceLine == 6)
        let r = resolve(stored, storedContentHash: text.contentHash, in: markdown)
        #expect(markdown.textAt(r.anchor) == "item 2")
    }

    @Test func theSameKindIsStillExact() {
        let markdown = Self.markdownFacts()
        let stored = markdown.position(at: "item 2")
        #expect(resolve(stored, storedContentHash: markdown.contentHash, in: markdown).rule == .exact)
        let text = Self.textFacts()
        let line = text.position(at: "Last words.")
        #expect(resolve(line, storedContentHash: text.contentHash, in: text).rule == .exact)
    }
}
