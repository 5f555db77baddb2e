import CellWidth
import LineLayout
import MarkdownModel
import Styling
import Testing

/// Images as rows of the layout: a picture's rows from its size and the width, its caption,
/// badge walls as labels, and the deferred pager path (caption first, rows once drawn).
@Suite struct PictureLayoutTests {
    /// A picture of `cols` x `rows` cells, every cell a red upper half block over blue.
    static func picture(cols: Int, rows: Int) -> Picture {
        Picture(cols: cols, rows: rows,
                cells: Array(repeating: PictureCell(character: "▀", foreground: 0xFF0000, background: 0x0000FF), count: cols * rows))
    }

    /// Print mode's show: every local image is 160 x 90 pixels, drawn at its geometry.
    static let show = PictureShow(cellWidth: 8, cellHeight: 16, maxRows: 10, deferred: false) { source, avail, show in
        source.hasSuffix("missing.png") ? nil : {
            let g = PictureShow.geometry(width: 160, height: 90, cellWidth: 8, cellHeight: 16, avail: avail, maxRows: show.maxRows)
            return picture(cols: g.cols, rows: g.rows)
        }()
    }

    func rows(_ md: String, width: Int, show: PictureShow? = PictureLayoutTests.show, inlineLinkURLs: Bool = false) -> [VisualLine] {
        let layout = DocumentLayout(document: MarkdownParser.parse(md),
                                    options: LayoutOptions(width: width, inlineLinkURLs: inlineLinkURLs, pictures: show))
        return layout.rowRange.map { layout.line(at: $0) }
    }

    @Test func aPictureTakesItsRowsThenItsCaption() {
        let lines = rows("![A sun](sun.png)", width: 40)
        // 160 x 90 pixels in cells of 8 x 16: 20 columns, 5.6 → 6 rows.
        #expect(lines.count == 7)
        for line in lines.prefix(6) {
            #expect(line.plainText == String(repeating: "▀", count: 20))
            #expect(line.width == 20)
            #expect(line.spans.allSatisfy { $0.style.literal == TextAttributes(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255)) })
        }
        #expect(lines[6].plainText == "[image: A sun]")
        #expect(lines[6].spans.allSatisfy { $0.style.link == "sun.png" })
    }

    @Test func aNarrowColumnScalesThePictureDown() {
        let lines = rows("![A sun](sun.png)", width: 10)
        // 10 of 20 columns: half the rows.
        #expect(lines.prefix { $0.plainText.hasPrefix("▀") }.count == 3)
        #expect(lines.allSatisfy { CellWidth.of($0.plainText) <= 10 })
    }

    @Test func missingAndRemoteImagesAreTheirCaption() {
        #expect(rows("![gone](missing.png)", width: 40).map(\.plainText) == ["[image: gone]"])
        #expect(rows("![far](https://x.org/a.png)", width: 40).map(\.plainText) == ["[image: far]"])
        // No URL in the page; in plain output, after the caption.
        #expect(rows("![far](https://x.org/a.png)", width: 40, show: nil).map(\.plainText) == ["[image: far]"])
        #expect(rows("![far](https://x.org/a.png)", width: 40, show: nil, inlineLinkURLs: true).map(\.plainText)
                == ["[image: far] (https://x.org/a.png)"])
    }

    @Test func withoutPicturesEveryImageIsItsCaption() {
        #expect(rows("![A sun](sun.png)", width: 40, show: nil).map(\.plainText) == ["[image: A sun]"])
    }

    @Test func aBadgeWallIsOneLineOfLabels() {
        let md = "[![CI](https://x.org/ci.svg)](https://x.org/actions) [![PyPI](https://img.shields.io/pypi/v/x.svg)](https://pypi.org/x)\n"
            + "[![License: MIT](https://img.shields.io/badge/License-MIT-yellow.svg)](https://opensource.org/licenses/MIT)"
        for show in [Self.show, nil] {
            let lines = rows(md, width: 60, show: show)
            #expect(lines.map(\.plainText) == ["[CI] [PyPI] [License: MIT]"])
            let links = lines[0].spans.compactMap(\.style.link)
            #expect(Set(links) == ["https://x.org/actions", "https://pypi.org/x", "https://opensource.org/licenses/MIT"])
        }
        // Plain output says where each label leads.
        #expect(rows(md, width: 200, show: nil, inlineLinkURLs: true)[0].plainText
                == "[CI] (https://x.org/actions) [PyPI] (https://pypi.org/x) [License: MIT] (https://opensource.org/licenses/MIT)")
    }

    /// The pager: layout never decodes. The image is its caption until it is drawn and handed
    /// in; then the unit has the picture's rows, and the row count says so.
    @Test func deferredPicturesArriveAsRows() {
        let show = PictureShow(cellWidth: 8, cellHeight: 16, maxRows: 10, deferred: true)
        var layout = DocumentLayout(document: MarkdownParser.parse("Before\n\n![A sun](sun.png)\n\nAfter"),
                                    options: LayoutOptions(width: 40, pictures: show))
        layout.prepare(aroundUnit: 0, before: 0, after: 100)
        #expect(layout.rowRange.map { layout.line(at: $0).plainText } == ["Before", "", "[image: A sun]", "", "After"])
        let content = layout.content as! MarkdownContent
        let jobs = content.takePictureJobs()
        #expect(jobs == [PictureJob(source: "sun.png", avail: 40)])
        #expect(content.takePictureJobs().isEmpty)  // each asked once
        content.storePicture(Self.picture(cols: 20, rows: 6), for: jobs[0])
        layout.pictureArrived(source: "sun.png")
        layout.prepare(aroundUnit: 0, before: 0, after: 100)
        let text = layout.rowRange.map { layout.line(at: $0).plainText }
        #expect(text == ["Before", ""] + Array(repeating: String(repeating: "▀", count: 20), count: 6) + ["[image: A sun]", "", "After"])
        #expect(layout.rowCount == 11)
    }

    /// Geometry laws over many sizes: within the room, at least one cell, never larger than the
    /// image's own size in cells, and the aspect ratio kept to within a cell's rounding.
    @Test func geometryLaws() {
        for w in [1, 7, 16, 90, 160, 800, 1920, 4000] {
            for h in [1, 9, 16, 90, 600, 1080, 3000] {
                for avail in [1, 2, 10, 40, 80, 200] {
                    for maxRows in [1, 4, 12, 40] {
                        let g = PictureShow.geometry(width: w, height: h, cellWidth: 8, cellHeight: 16, avail: avail, maxRows: maxRows)
                        #expect(g.cols >= 1 && g.cols <= avail && g.rows >= 1 && g.rows <= maxRows)
                        #expect(g.cols <= max(1, Int((Double(w) / 8).rounded())) && g.rows <= max(1, Int((Double(h) / 16).rounded())))
                        if g.cols > 4 && g.rows > 4 {
                            let shown = Double(g.cols * 8) / Double(g.rows * 16), real = Double(w) / Double(h)
                            #expect(abs(shown - real) / real < 0.3, "\(w)x\(h) in \(avail)x\(maxRows): \(g)")
                        }
                    }
                }
            }
        }
    }
}
