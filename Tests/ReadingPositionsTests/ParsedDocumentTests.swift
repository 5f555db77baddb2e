import MarkdownModel
import Testing
@testable import ReadingPositions

/// Facts from the real parser (cmark), with paragraph and heading texts from
/// `Inlines.plainText` and code from its literal — what `DocumentFacts(layout:)` reads from
/// `BlockLayout.text` for these kinds.
func parsedFacts(_ markdown: String) -> DocumentFacts {
    let document = MarkdownParser.parse(markdown)
    return DocumentFacts(document: document, contentHash: StableHash(bytes: markdown.utf8)) { id in
        switch document[id].kind {
        case .paragraph(let inlines), .heading(_, let inlines): return inlines.plainText
        case .codeBlock(_, let literal, _): return literal
        default: return ""
        }
    }
}

@Suite struct ParsedDocumentTests {
    static let original = """
        # Manual

        Welcome to the *manual*.

        ## Setup

        > ### Note
        >
        > Back up your **files** first.

        - Step one: download.
        - Step two: run `install.sh`.

        ```sh
        ./install.sh --prefix /usr
        ```

        ## Use

        Read with `folio notes.md`.
        """

    @Test func headingPathsFollowTheHeadingsInsideContainers() {
        let f = parsedFacts(Self.original)
        #expect(f.leaf(startingWith: "Welcome").headingPath == ["Manual"])
        #expect(f.leaf(startingWith: "Back up").headingPath == ["Manual", "Setup", "Note"])
        #expect(f.leaf(startingWith: "Step two").headingPath == ["Manual", "Setup", "Note"])
        #expect(f.leaf(startingWith: "Read with").headingPath == ["Manual", "Use"])
        #expect(f.leaf(startingWith: "Back up").sourceLines.first == 9)
    }

    @Test func insertedListItemsAndQuotesDoNotLoseTheText() {
        let before = parsedFacts(Self.original)
        let stored = before.position(at: "Step two", offset: 10)
        let edited = Self.original
            .replacingOccurrences(of: "- Step one: download.", with: "- Step zero: read this.\n- Step one: download.")
            .replacingOccurrences(of: "# Manual\n", with: "# Manual\n\n> A new quote.\n\n1. and\n2. a list\n")
        let after = parsedFacts(edited)
        let r = resolve(stored, storedContentHash: before.contentHash, in: after)
        #expect(r.rule == .fingerprint)
        #expect(after.textAt(r.anchor) == "run install.sh.")
    }

    @Test func editedCodeKeepsItsSectionAndOffset() {
        let before = parsedFacts(Self.original)
        let stored = before.position(at: "./install.sh", offset: 13)
        let after = parsedFacts(Self.original.replacingOccurrences(of: "--prefix /usr", with: "--prefix /opt/folio"))
        let r = resolve(stored, storedContentHash: before.contentHash, in: after)
        #expect(r.rule == .headingPath)
        #expect(after.textAt(r.anchor) == "--prefix /opt/folio\n")
    }
}
