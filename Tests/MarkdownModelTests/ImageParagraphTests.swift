import Testing
@testable import MarkdownModel

/// Which paragraphs are images alone, and which of those are badge walls, on the shapes real
/// READMEs have.
@Suite struct ImageParagraphTests {
    func shape(_ markdown: String) -> ImageParagraph.Shape? {
        let document = MarkdownParser.parse(markdown)
        guard let block = document.blocks.first(where: { if case .paragraph = $0.kind { true } else { false } }),
              case .paragraph(let inlines) = block.kind else { return nil }
        return ImageParagraph.shape(inlines)
    }

    @Test func aLoneImageIsAPicture() {
        #expect(shape("![A chart](docs/chart.png)") == .pictures([ImageReference(source: "docs/chart.png", alt: "A chart")]))
        // A logo in a link, as READMEs put it at the top.
        #expect(shape("[![Logo](logo.svg)](https://example.org)")
                == .pictures([ImageReference(source: "logo.svg", alt: "Logo", link: "https://example.org")]))
    }

    @Test func aCentredHTMLLogoIsAPicture() {
        let md = "<p align=\"center\">\n  <a href=\"https://x.org\"><img src=\"logo.png\" alt=\"Logo\" width=\"200\"></a>\n</p>"
        #expect(shape(md) == .pictures([ImageReference(source: "logo.png", alt: "Logo", link: "https://x.org")]))
    }

    /// charset_normalizer's and most Python packages' README: badges on one line or one per line.
    @Test func linkedBadgesAreAWall() {
        let oneLine = "[![CI](https://github.com/a/b/actions/workflows/ci.yml/badge.svg)](https://github.com/a/b/actions) "
            + "[![PyPI](https://img.shields.io/pypi/v/x.svg)](https://pypi.org/project/x)"
        let perLine = oneLine.replacingOccurrences(of: ") [", with: ")\n[")
        for md in [oneLine, perLine] {
            guard case .badges(let refs)? = shape(md) else { Issue.record("not a wall: \(md)"); continue }
            #expect(refs.map(\.alt) == ["CI", "PyPI"])
            #expect(refs.map(\.link) == ["https://github.com/a/b/actions", "https://pypi.org/project/x"])
        }
    }

    @Test func remoteImagesWithoutLinksAreAWallToo() {
        let md = "![build](https://travis-ci.org/a/b.svg) ![coverage](https://codecov.io/gh/a/b/badge.svg)"
        guard case .badges(let refs)? = shape(md) else { Issue.record("not a wall"); return }
        #expect(refs.allSatisfy { $0.isRemote })
    }

    /// Two screenshots side by side, local and not linked: each is shown.
    @Test func localImagesWithoutLinksArePictures() {
        guard case .pictures(let refs)? = shape("![one](a.png)\n![two](b.png)") else { Issue.record("not pictures"); return }
        #expect(refs.map(\.source) == ["a.png", "b.png"])
    }

    @Test func imagesAmongWordsAreNotAlone() {
        #expect(shape("Build: ![CI](https://x.org/ci.svg)") == nil)
        #expect(shape("![a](a.png) and ![b](b.png)") == nil)
        #expect(shape("[![a](a.png) docs](https://x.org)") == nil)  // a link with words besides the image
        #expect(shape("Just words.") == nil)
    }

    @Test func remoteOrLocal() {
        for s in ["http://x.org/a.png", "HTTPS://x.org/a.png", "//cdn.x.org/a.png", "data:image/png;base64,AAAA"] {
            #expect(ImageReference(source: s, alt: "").isRemote, "\(s)")
        }
        for s in ["a.png", "./docs/a.png", "/abs/a.png", "file:///abs/a.png", "../up/a%20b.png"] {
            #expect(!ImageReference(source: s, alt: "").isRemote, "\(s)")
        }
    }
}
