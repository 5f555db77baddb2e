import MarkdownModel
import Synchronization
import Testing

/// Large sources are parsed in pieces on all cores, and when they are not, the report says
/// why (issue 29): a silent fall-back to one parse gives the same document, so only the
/// report shows that pieces stopped working for some shape of source. Each source here is
/// shaped as projects write them and must be parsed in pieces, into the document one parse
/// gives; with the cut broken (`ChunkPlan.make` refusing every source) every one fails.
@Suite struct PieceReportTests {
    /// A changelog in the Keep a Changelog style: release sections with bullet lists,
    /// footnote references in the bullets, and the footnotes defined at the end (some each
    /// after a blank line, most one under the other), as are the release links.
    static func changelogWithFootnotes(bytes: Int) -> String {
        var out = "# Changelog\n\nAll notable changes to this project are documented in this file.[^semver]\n\n"
        var release = 1
        while out.utf8.count < bytes {
            var section = "## [2.\(release / 10).\(release % 10)] - 2026-\(release % 12 + 1)-\(release % 28 + 1)\n\n"
            section += "### Added\n\n"
            for k in 0..<6 {
                section += "- A `--flag-\(k)` option for the reader, with its own help text[^n\(release % 40)].\n"
            }
            section += "\n### Fixed\n\n"
            for k in 0..<5 {
                section += "- Wrapping of wide characters at the right edge no longer drops a cell (#\(release * 10 + k)).\n"
            }
            section += "  A continuation line of the last bullet, as some editors wrap them.\n\n"
            out += section
            release += 1
        }
        out += "[^semver]: The project follows Semantic Versioning.\n\n"
        for k in 0..<40 {
            out += "[^n\(k)]: Footnote \(k): see the discussion in the issue tracker.\n"
            if k % 10 == 9 { out += "\n" }
        }
        out += "\n"
        for r in stride(from: release - 1, to: max(0, release - 200), by: -1) {
            out += "[2.\(r / 10).\(r % 10)]: https://github.com/o/r/compare/v\(r - 1)...v\(r)\n"
        }
        return out
    }

    /// A document with YAML front matter (lists, quoted strings, a multi-line value, a blank
    /// line inside), then a long body: headings, paragraphs, code, lists, quotes.
    static func frontMatterDocument(bytes: Int) -> String {
        var out = """
            ---
            title: "The folio manual"
            authors:
              - name: A. Writer
                email: a@example.org
            tags: [pager, markdown, terminal]
            description: >
              A long description folded
              over several lines.

            draft: false
            ---

            # The folio manual


            """
        var chapter = 1
        while out.utf8.count < bytes {
            out += "## Chapter \(chapter)\n\n"
            out += "Paragraph text of chapter \(chapter), with *emphasis*, `code` and a [link](https://example.org/\(chapter)).\n"
            out += "It goes on for a second line.\n\n"
            out += "```sh\nfolio --width 80 chapter-\(chapter).md\n\n# a comment line inside the fence\n```\n\n"
            out += "1. First step\n2. Second step\n   - nested detail\n\n"
            out += "> A quoted remark about chapter \(chapter).\n\n"
            out += "Closing words of the chapter.\n\n"
            chapter += 1
        }
        return out
    }

    /// A project README, repeated per package as monorepos write them: a line of badges, a
    /// pipe table of badges, badges by reference with their definitions after the section,
    /// installation and usage.
    static func badgeReadme(bytes: Int) -> String {
        var out = "# Packages\n\n"
        var package = 1
        while out.utf8.count < bytes {
            let name = "pkg\(package)"
            out += "## \(name)\n\n"
            out += "[![CI](https://img.shields.io/github/actions/workflow/status/o/\(name)/ci.yml?branch=main)](https://github.com/o/\(name)/actions) "
                + "[![Coverage](https://img.shields.io/codecov/c/github/o/\(name))](https://codecov.io/gh/o/\(name)) "
                + "[![License: MIT](https://img.shields.io/badge/License-MIT-yellow.svg)](https://opensource.org/licenses/MIT)\n"
                + "[![crates.io][crates-\(name)]][crates-url-\(name)] [![docs.rs][docs-\(name)]][docs-url-\(name)]\n\n"
            out += "| Linux | macOS | Windows |\n|:---:|:---:|:---:|\n"
            out += "| [![linux](https://img.shields.io/badge/linux-passing-green)](https://ci.example/\(name)/linux) "
                + "| [![macos](https://img.shields.io/badge/macos-passing-green)](https://ci.example/\(name)/macos) "
                + "| [![windows](https://img.shields.io/badge/windows-passing-green)](https://ci.example/\(name)/windows) |\n\n"
            out += "A library for reading \(name) files.\n\n"
            out += "### Installation\n\n```toml\n[dependencies]\n\(name) = \"1.\(package % 10)\"\n```\n\n"
            out += "### Usage\n\nSee the [documentation][docs-url-\(name)] and the table:\n\n"
            out += "| Option | Default | Meaning |\n|---|---|---|\n| `width` | 80 | Columns |\n| `wrap` | true | Wrap long lines |\n\n"
            out += "[crates-\(name)]: https://img.shields.io/crates/v/\(name).svg\n"
                + "[crates-url-\(name)]: https://crates.io/crates/\(name)\n"
                + "[docs-\(name)]: https://docs.rs/\(name)/badge.svg\n"
                + "[docs-url-\(name)]: https://docs.rs/\(name)\n\n"
            package += 1
        }
        return out
    }

    /// A changelog with everything at once: front matter, a wall of badges in a table,
    /// release sections with issue links by reference, footnotes and their definitions, code.
    static func changelog(bytes: Int) -> String {
        var out = "---\ntitle: Changelog\nlayout: page\n---\n\n# Changelog\n\n"
        out += "| build | coverage | crates | docs |\n|---|---|---|---|\n"
        out += "| [![build](https://img.shields.io/github/actions/workflow/status/o/r/ci.yml)](https://github.com/o/r/actions) "
            + "| [![cov](https://img.shields.io/codecov/c/github/o/r)](https://codecov.io/gh/o/r) "
            + "| [![crates](https://img.shields.io/crates/v/r)](https://crates.io/crates/r) "
            + "| [![docs](https://docs.rs/r/badge.svg)](https://docs.rs/r) |\n\n"
        var release = 900
        while out.utf8.count < bytes {
            out += "## [1.\(release).0] - 2026-\(release % 12 + 1)-\(release % 28 + 1)\n\n"
            out += "### Fixed\n\n"
            for k in 0..<12 {
                out += "- Reading a file that shrank no longer panics ([#\(release * 20 + k)][i\(release * 20 + k)]).\n"
            }
            out += "\nThe parser now keeps positions[^n\(release)], see `Reader::keep`:\n\n"
            out += "```rust\nfn keep(&mut self) -> usize {\n    self.at\n}\n```\n\n"
            for k in 0..<12 {
                out += "[i\(release * 20 + k)]: https://github.com/o/r/issues/\(release * 20 + k)\n"
            }
            out += "\n[^n\(release)]: Since 1.\(release).0, positions are bytes.\n\n"
            out += "[1.\(release).0]: https://github.com/o/r/compare/v1.\(release - 1).0...v1.\(release).0\n\n"
            release += 1
        }
        return out
    }

    /// `source` parsed through the one entry point: in pieces (at least two), and into the
    /// document one parse of it gives (dump for dump: blocks, ids, lines, inlines).
    static func expectPieces(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(source.utf8)
        #expect(bytes.count >= MarkdownParser.piecewiseBytes, sourceLocation: sourceLocation)
        let (document, report) = MarkdownParser.parse(bytes)
        #expect(report.inPieces, "\(report)", sourceLocation: sourceLocation)
        #expect(report.pieces >= 2, "\(report)", sourceLocation: sourceLocation)
        let whole = MarkdownParser.parse(bytes, options: ParseOptions(inPieces: false))
        #expect(whole.report.whole == .notAsked, sourceLocation: sourceLocation)
        expectSame(document, whole.document, sourceLocation: sourceLocation)
    }

    /// The same dump, or the first line where they part (not two dumps of megabytes).
    static func expectSame(_ pieces: Document, _ whole: Document, sourceLocation: SourceLocation = #_sourceLocation) {
        let a = pieces.dump().split(separator: "\n", omittingEmptySubsequences: false)
        let b = whole.dump().split(separator: "\n", omittingEmptySubsequences: false)
        guard a != b else { return }
        let k = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
        Issue.record("pieces and whole part at dump line \(k): \(k < a.count ? a[k] : "(end)") / \(k < b.count ? b[k] : "(end)")",
                     sourceLocation: sourceLocation)
    }

    @Test func aChangelogWithFootnotesIsParsedInPieces() {
        let source = Self.changelogWithFootnotes(bytes: (1 << 20) + (256 << 10))
        #expect(source.contains("\n[^n3]: Footnote 3"))
        Self.expectPieces(source)
    }

    @Test func frontMatterOverALongBodyIsParsedInPieces() {
        Self.expectPieces(Self.frontMatterDocument(bytes: (1 << 20) + (256 << 10)))
    }

    @Test func aReadmeOfBadgesIsParsedInPieces() {
        Self.expectPieces(Self.badgeReadme(bytes: (1 << 20) + (256 << 10)))
    }

    @Test func aRealShapedChangelogIsParsedInPieces() {
        let source = Self.changelog(bytes: 2 << 20)
        Self.expectPieces(source)
        #expect(MarkdownParser.parse(Array(source.utf8)).report.pieces >= 4)
    }

    /// The pager's parse (bytes handed over, pages given back, a keeper for the bytes of the
    /// pieces done) takes the same pieces and gives the same document.
    @Test func thePagersParseIsInPiecesToo() {
        let kept = Array(Self.changelogWithFootnotes(bytes: (1 << 20) + (256 << 10)).utf8)
        var handed = kept
        let giveBacks = Atomic(0), rereads = Atomic(0)
        let options = ParseOptions(giveBack: { giveBacks.add(1, ordering: .relaxed) },
                                   keeper: RereadingKeeper { rereads.add(1, ordering: .relaxed); return kept })
        let (document, report) = MarkdownParser.parse(handingOver: &handed, options: options)
        #expect(handed.isEmpty)
        #expect(report.inPieces && report.pieces >= 2, "\(report)")
        #expect(giveBacks.load(ordering: .relaxed) > 0)
        #expect(rereads.load(ordering: .relaxed) == 0)
        Self.expectSame(document, MarkdownParser.parse(kept, options: ParseOptions(inPieces: false)).document)
    }

    /// Each reason to parse whole, on a source that has it and would otherwise be cut.
    @Test func eachReasonToParseWholeIsSaid() {
        let body = Self.changelog(bytes: (1 << 20) + 4096)
        func report(_ text: String) -> PieceReport { MarkdownParser.parse(Array(text.utf8)).report }
        let cut = report(body)
        #expect(cut.inPieces && cut.pieces >= 2, "\(cut)")
        #expect(report("# Small\n\nA paragraph.\n").whole == .small)
        #expect(report(body + "\nA line\rwith a lone CR.\n").whole == .loneCarriageReturn)
        #expect(report("```\n" + String(repeating: "let x = 1\n", count: 120_000) + "```\n").whole == .noCut)
        #expect(report(body + "\n> [quoted]: /definition-in-a-quote\n").whole == .unplaceableDefinition)
        #expect(report(body + "\n[label]: /defined\n\nA paragraph\n[label]: /continued\n").whole == .probedDefinition)
        #expect(report("---\n" + String(repeating: "key: value\n", count: 110_000) + "---\n").whole == .empty)
        #expect(MarkdownParser.parse(Array(body.utf8), options: ParseOptions(inPieces: false)).report.whole == .notAsked)
        // The scan proposes `[x]: /u`, but the line after it continues its paragraph.
        #expect(report(body + "\n# A\n\n[x]: /u\nmore text\n\n# B\n\n[x]\n").whole == .definitionsDisagree)
    }

    /// References that could pass cmark's budget for expanding them: one piece's (1,300
    /// references to a 1,000-byte destination) or, each piece within its own, the whole
    /// source's (5,000 definitions of ~100 bytes, each referenced four times).
    @Test func theReferenceBudgetIsSaid() {
        let filler = String(repeating: "# Filler\n\nplain text only\n\n", count: (MarkdownParser.piecewiseBytes / 27) + 10)
        let piece = "[a]: /" + String(repeating: "u", count: 1000) + "\n\n"
            + String(repeating: "# H\n\nsee [a]\n\n", count: 1300) + filler
        let definitions = (0..<5000).map { "[d\($0)]: /" + String(repeating: "u", count: 95) + "\n\n" }.joined()
        let heavy = (0..<5000).map { "[d\($0)]" }.joined(separator: " ")
        let whole = definitions + (0..<4).map { _ in "# H\n\n" + heavy + "\n\n" + String(repeating: "# Filler\n\nplain text only\n\n", count: 7500) }.joined()
        for source in [piece, whole] {
            #expect(MarkdownParser.parse(Array(source.utf8)).report.whole == .referenceBudget)
        }
    }

    @Test func theReportReadsAsASentence() {
        #expect(PieceReport(pieces: 8).description == "parsed in 8 pieces")
        #expect(PieceReport(pieces: 7, healed: 1).description == "parsed in 7 pieces (1 cuts refused and healed)")
        #expect(PieceReport(whole: .noCut).description == "parsed whole: no line where the source can be cut")
    }
}
