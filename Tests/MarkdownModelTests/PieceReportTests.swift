import MarkdownModel
import Testing

/// Large sources are parsed in pieces on all cores, and when they are not, the report says
/// why (issue 29): a silent fall-back to one parse gives the same document, so only the
/// report shows that pieces stopped working for some shape of source.
@Suite struct PieceReportTests {
    /// A changelog as projects write them: front matter, a wall of badges in a table, release
    /// sections with issue links by reference, footnotes and their definitions, code.
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

    @Test func aRealShapedChangelogIsParsedInPieces() {
        let source = Array(Self.changelog(bytes: 2 << 20).utf8)
        let (document, report) = MarkdownParser.parse(source)
        #expect(report.inPieces, "\(report)")
        #expect(report.pieces >= 4, "\(report)")
        #expect(report.whole == nil)
        // The same document as one parse gives.
        let whole = MarkdownParser.parse(source, options: ParseOptions(inPieces: false))
        #expect(whole.report.whole == .notAsked)
        #expect(document.dump() == whole.document.dump())
    }

    /// Each reason to parse whole, on a source that has it and would otherwise be cut.
    @Test func eachReasonToParseWholeIsSaid() {
        let body = Self.changelog(bytes: (1 << 20) + 4096)
        func report(_ text: String) -> PieceReport { MarkdownParser.parse(Array(text.utf8)).report }
        #expect(report(body).inPieces)
        #expect(report("# Small\n\nA paragraph.\n").whole == .small)
        #expect(report(body + "\nA line\rwith a lone CR.\n").whole == .loneCarriageReturn)
        #expect(report("```\n" + String(repeating: "let x = 1\n", count: 120_000) + "```\n").whole == .noCut)
        #expect(report(body + "\n> [quoted]: /definition-in-a-quote\n").whole == .unplaceableDefinition)
        #expect(report(body + "\n[label]: /defined\n\nA paragraph\n[label]: /continued\n").whole == .probedDefinition)
        #expect(report("---\n" + String(repeating: "key: value\n", count: 110_000) + "---\n").whole == .empty)
        #expect(MarkdownParser.parse(Array(body.utf8), options: ParseOptions(inPieces: false)).report.whole == .notAsked)
    }

    @Test func theReportReadsAsASentence() {
        #expect(PieceReport(pieces: 8).description == "parsed in 8 pieces")
        #expect(PieceReport(pieces: 7, healed: 1).description == "parsed in 7 pieces (1 cuts refused and healed)")
        #expect(PieceReport(whole: .noCut).description == "parsed whole: no line where the source can be cut")
    }
}
