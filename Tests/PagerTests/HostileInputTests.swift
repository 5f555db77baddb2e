import CellWidth
@testable import LineLayout
import MarkdownModel
@testable import Pager
import Print
import TerminalScreen
import Testing

/// Reproductions of issue 12 (hostile documents, links and keys), each as a test that failed
/// before the fix. The end-to-end halves (stderr, options, crashes, saves) are in
/// `EndToEndTests/HostileEndToEndTests.swift`.
@Suite struct HostileInputTests {
    static let colour = Theme(depth: .ansi16)

    static func printed(_ markdown: String, width: Int, theme: Theme? = HostileInputTests.colour) -> [UInt8] {
        PrintRenderer.render(source: Array(markdown.utf8), options: LayoutOptions(width: width, inlineLinkURLs: theme == nil),
                             theme: theme).flatMap { $0 }
    }

    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        let n = Array(needle.utf8)
        guard !n.isEmpty, bytes.count >= n.count else { return 0 }
        var found = 0, i = 0
        while i + n.count <= bytes.count {
            if bytes[i] == n[0] && Array(bytes[i..<(i + n.count)]) == n { found += 1; i += n.count } else { i += 1 }
        }
        return found
    }

    // MARK: 2. OSC 8 output proportional to the input

    /// 80 KB of autolinked URL wrote 80 MB (the URL again on each of ~1,000 rows).
    @Test(arguments: [1, 2, 3, 20, 80, 200])
    func longURLOutputIsProportional(width: Int) {
        let source = String(repeating: "https://x.", count: 8000) + "\n"
        let out = Self.printed(source, width: width)
        let rows = Self.count("\n", in: out)
        // Each row: its text (≤ 4 bytes a column), a few SGR bytes; no 80 KB URL per row.
        #expect(out.count <= source.utf8.count * 2 + rows * 40, "\(out.count) bytes for \(source.utf8.count)")
    }

    /// Issue 31: a link URL of 64 KB or more broke the wrapping of its paragraph in colour
    /// print (the paragraph was cut around the link, a row each). It prints exactly as with a
    /// URL of 3 KB (neither is made a hyperlink): the same rows, wrapped as one paragraph.
    @Test(arguments: [12, 40, 80])
    func aGiantURLKeepsItsParagraphWrapped(width: Int) {
        func paragraph(_ length: Int) -> String {
            let url = "https://example.org/" + String(repeating: "a", count: length)
            return "para [link](\(url)) and some more words that wrap around, [two](<\(url)>) the end\n"
        }
        let giant = Self.printed(paragraph(70_000), width: width)
        #expect(giant == Self.printed(paragraph(3_000), width: width))
        if width == 40 {
            let rows = String(decoding: giant, as: UTF8.self).replacingOccurrences(of: "\u{1B}[4;94m", with: "")
                .replacingOccurrences(of: "\u{1B}[m", with: "").split(separator: "\n")
            #expect(rows == ["para link and some more words that wrap", "around, two the end"], "\(rows)")
        }
    }

    /// Links a reader clicks keep their hyperlink, opened once per row with the URL once.
    @Test func ordinaryLinksStillHaveOneHyperlinkPerRow() {
        let url = "https://example.org/" + String(repeating: "a", count: 60)
        let out = Self.printed("[some words that wrap over rows](\(url))\n", width: 12)
        let rows = Self.count("\n", in: out)
        #expect(rows >= 3)
        #expect(Self.count("\u{1B}]8;;" + url + "\u{1B}\\", in: out) == rows)
        #expect(Self.count(url, in: out) == rows)
    }

    /// Every URL byte written stays within a constant factor of the link text shown.
    @Test(arguments: [1, 3, 7, 40, 80])
    func urlBytesPerRowAreBounded(width: Int) {
        for length in [10, 100, 500, 2000, 2049, 5000] {
            let url = "https://e.x/" + String(repeating: "u", count: length)
            let out = Self.printed("<\(url)>\n", width: width)
            let written = Self.count(url, in: out) * url.utf8.count
            #expect(written <= 32 * (url.utf8.count + width) + url.utf8.count * 32, "width \(width) length \(length)")
        }
    }

    /// The pager's theme never makes an absurd URL a hyperlink (each frame would repeat it per row).
    @Test func themeCapsHyperlinks() {
        let theme = Theme(depth: .ansi16)
        let short = SpanStyle(link: "https://example.org")
        let long = SpanStyle(link: "https://example.org/" + String(repeating: "x", count: 3000))
        #expect(theme.style(for: short).hyperlink == "https://example.org")
        #expect(theme.style(for: long).hyperlink == nil)
        #expect(theme.style(for: long).underline)
    }

    // MARK: 3. Control characters in messages

    /// A file name with an ESC sequence: the status line shows it in caret form, measured as
    /// shown, so the right part keeps its place and the name is cut with `…`.
    @Test func fileNameWithEscapesIsShownVisibly() {
        let name = "evil\u{1B}]0;TITLE\u{07}\u{9B}2J-and-a-long-tail.md"
        var h = PagerHarness(markdown: "# Title\n\ntext\n", columns: 40, rows: 5)
        h.state.documents[0].name = name
        h.send("=")
        #expect(h.status.contains("evil^[]0;TITLE^GM-^[2J"), "\(h.status)")
        h.send("<Esc>")
        let status = h.status
        #expect(status.hasSuffix("p1/1  (END)") || status.hasSuffix("(END)"), "\(status)")
        #expect(status.contains("…  p1/1"), "name truncated by its shown width: \(status)")
        #expect(!status.unicodeScalars.contains { VisibleControls.isControl($0.value) })
    }

    @Test func visibleControlsHelper() {
        #expect(VisibleControls.escape("a\u{1B}[31mb") == "a^[[31mb")
        #expect(VisibleControls.escape("\u{0}\u{7F}\u{85}\u{9B}") == "^@^?M-^EM-^[")
        #expect(VisibleControls.escape("one\ntwo\t") == "one^Jtwo^I")
        #expect(VisibleControls.escape("one\ntwo", keepingNewlines: true) == "one\ntwo")
        #expect(VisibleControls.escape("plain é 日本") == "plain é 日本")
    }

    // MARK: 4. Link destinations

    static func follow(_ destination: String) -> (effects: [PagerEffect], status: String) {
        var h = PagerHarness(markdown: "[the link](\(destination))\n", columns: 60, rows: 6,
                             path: "/docs/here/doc.md")
        h.send("<Tab><CR>")
        return (h.effects, h.status)
    }

    /// `[b](--new-window)` became `xdg-open --new-window`. Now no program gets it: it is a
    /// local file's name, resolved to an absolute path that folio itself tries to read.
    @Test func optionLikeDestinationIsNotOpened() {
        let (effects, _) = Self.follow("--new-window")
        #expect(!effects.contains { if case .openURL = $0 { true } else { false } })
        #expect(effects.contains(.openFile(path: "/docs/here/--new-window", fragment: nil)), "\(effects)")
    }

    @Test(arguments: ["javascript:alert(1)", "ssh://host/x", "data:text/html,x", "docs/archive.ZIP",
                      "file:///tmp/build.tar.gz", "?only-a-query"])
    func unexpectedSchemesAreOnlyShown(_ destination: String) {
        let (effects, status) = Self.follow(destination)
        #expect(!effects.contains { if case .openURL = $0 { true } else { false } }, "\(destination)")
        #expect(status.lowercased().contains("not"), "\(destination): \(status)")
    }

    /// A local picture goes to the system's viewer, as an absolute path (never an option).
    @Test func picturesOpenInTheViewer() {
        #expect(Self.follow("image.png").effects == [.openURL("/docs/here/image.png")])
        #expect(Self.follow("docs/Logo.PNG").effects == [.openURL("/docs/here/docs/Logo.PNG")])
        #expect(Self.follow("file:///tmp/a.svg").effects == [.openURL("/tmp/a.svg")])
    }

    @Test(arguments: ["https://example.org/a", "HTTP://example.org", "mailto:someone@example.org"])
    func webAndMailLinksGoToTheBrowser(_ destination: String) {
        let (effects, _) = Self.follow(destination)
        #expect(effects.contains(.openURL(destination)))
    }

    /// Issue 31: `&#10;` and `&#27;` in a destination decode to LF and ESC, which reached
    /// `$BROWSER`'s argument raw. The browser gets them percent-encoded, as browsers write
    /// them, and the status line says that URL; nothing else of the URL changes.
    @Test func controlsInAWebLinkArePercentEncoded() {
        let (effects, status) = Self.follow("http://a&#10;b&#27;c&#x85;d%41é")
        #expect(effects == [.openURL("http://a%0Ab%1Bc%C2%85d%41é")], "\(effects)")
        #expect(status.contains("http://a%0Ab%1Bc%C2%85d%41é"), "\(status)")
        #expect(LinkTarget("mailto:x@y.org?subject=a\u{7F}\u{0}") == .external("mailto:x@y.org?subject=a%7F%00"))
        #expect(LinkTarget("https://example.org/a b") == .external("https://example.org/a b"))
    }

    /// An OSC 8 hyperlink carries the same percent-encoded URL (the terminal opens what Enter
    /// opens), never a raw control that would end the sequence early or start another.
    @Test func hyperlinksCarryNoRawControls() {
        #expect(ANSI.hyperlink("http://a\nb\u{1B}]0;t\u{7}c\u{9C}") == Array("\u{1B}]8;;http://a%0Ab%1B]0;t%07c%C2%9C\u{1B}\\".utf8))
        #expect(ANSI.hyperlink(nil) == Array("\u{1B}]8;;\u{1B}\\".utf8))
        let out = Self.printed("[x](http://a&#10;b&#27;c)\n", width: 40)
        #expect(Self.count("\u{1B}]8;;http://a%0Ab%1Bc\u{1B}\\", in: out) == 1, "\(String(decoding: out, as: UTF8.self))")
        // Every ESC written starts an SGR or an OSC 8; no other control but the row's LF.
        var i = 0
        while i < out.count {
            if out[i] == 0x1B {
                #expect(i + 1 < out.count && (out[i + 1] == UInt8(ascii: "[") || out[i + 1] == UInt8(ascii: "]") || out[i + 1] == UInt8(ascii: "\\")))
            } else {
                #expect(out[i] >= 0x20 || out[i] == 0x0A, "control \(out[i]) at \(i)")
            }
            i += 1
        }
        // Written out after the link (--plain, a pipe): the same URL.
        let plain = String(decoding: Self.printed("[x](http://a&#10;b&#27;c)\n", width: 40, theme: nil), as: UTF8.self)
        #expect(plain == "x (http://a%0Ab%1Bc)\n", "\(plain.debugDescription)")
        // The clipboard (OSC 52, when no browser runs) is base64: no control of the URL in it.
        let copy = OSC52.copy("http://a\nb\u{1B}c")
        #expect(!copy.dropFirst().dropLast(2).contains { $0 < 0x20 || $0 == 0x7F })
    }

    /// Local files open in folio (Markdown rendered, anything else as text; the run loop
    /// reads regular files only and refuses binary ones), never in another program.
    @Test func localFilesOpenInFolio() {
        #expect(Self.follow("other.md#part").effects.contains(.openFile(path: "/docs/here/other.md", fragment: "part")))
        #expect(Self.follow("file:///tmp/guide.md").effects.contains(.openFile(path: "/tmp/guide.md", fragment: nil)))
        #expect(Self.follow("-dash.md").effects.contains(.openFile(path: "/docs/here/-dash.md", fragment: nil)))
        #expect(Self.follow("LICENSE").effects.contains(.openFile(path: "/docs/here/LICENSE", fragment: nil)))
        #expect(Self.follow("../src/main.c#L42").effects.contains(.openFile(path: "/docs/here/../src/main.c", fragment: "L42")))
        #expect(Self.follow("file:///etc/passwd").effects.contains(.openFile(path: "/etc/passwd", fragment: nil)))
    }

    /// `ls --hyperlink` and gcc write `file://HOST/path`: this machine's name is local, any
    /// other host is not.
    @Test func fileURLsNamingThisHostAreLocal() {
        #expect(LinkTarget.filePath("file://box/tmp/a.md", hostName: "box") == "/tmp/a.md")
        #expect(LinkTarget.filePath("file://BOX/tmp/a.md", hostName: "box") == "/tmp/a.md")
        #expect(LinkTarget.filePath("file://localhost/tmp/a.md") == "/tmp/a.md")
        #expect(LinkTarget.filePath("file:///tmp/a.md") == "/tmp/a.md")
        #expect(LinkTarget.filePath("file://other/tmp/a.md", hostName: "box") == nil)
        #expect(LinkTarget.filePath("file://box/tmp/a.md") == nil)
        #expect(LinkTarget("file://box/tmp/a.md", hostName: "box") == .localFile(path: "/tmp/a.md", fragment: nil))
    }

    @Test func schemeParsing() {
        #expect(LinkTarget.scheme(of: "HTTPS://x") == "https")
        #expect(LinkTarget.scheme(of: "a+b-c.d:x") == "a+b-c.d")
        #expect(LinkTarget.scheme(of: "--x:y") == nil)
        #expect(LinkTarget.scheme(of: "1http:x") == nil)
        #expect(LinkTarget.scheme(of: "dir/file.md") == nil)
        #expect(LinkTarget.scheme(of: ":x") == nil)
    }

    // MARK: 6. Absurd counts

    /// A count typed with too many digits must not trap (overflow) or hang.
    @Test(arguments: ["99999999999999999999999j", "9223372036854775807j", "9223372036854775807k",
                      "9223372036854775807g", "9223372036854775807<Space>", "9223372036854775807%",
                      "9223372036854775807n", "9223372036854775807<Tab>", "9223372036854775807]]",
                      "9223372036854775807:n", "9223372036854775807d"])
    func hugeCountsDoNotTrap(_ keys: String) {
        var h = PagerHarness(markdown: generatedDocument(sections: 3), columns: 30, rows: 6)
        h.send("/text<CR>")
        h.send(keys)
        h.send("g")
        #expect(h.top == 0)
    }

    // MARK: 8. Widths

    /// Terminals draw a prepended concatenation mark in its own column: `؀1` is 2 columns,
    /// so no row may hold more than the width of such clusters.
    @Test(arguments: [1, 2, 3, 4, 5])
    func prependMarksFitTheRow(width: Int) {
        let text = "\u{600}1\u{601}2 \u{6DD}\u{661}\u{70F}a b\u{8E2}c \u{605}x"
        let layout = DocumentLayout(document: MarkdownParser.parse(text), options: LayoutOptions(width: width))
        var shown = ""
        for row in layout.rowRange {
            let line = layout.line(at: row)
            // What a terminal draws: each scalar its own width (marks 1 column).
            let drawn = line.plainText.unicodeScalars.reduce(0) { $0 + (CellWidth.isPrependedConcatenationMark($1.value) ? 1 : CellWidth.of($1)) }
            #expect(drawn <= width, "row \(row) \(line.plainText.debugDescription) at width \(width)")
            shown += line.plainText
        }
        if width >= 2 { for s in ["\u{600}", "1", "\u{6DD}", "\u{661}", "x"] { #expect(shown.contains(s)) } }
    }

    @Test func prependMarkClusterIsOneWideCell() {
        var grid = Grid(rows: 1, columns: 6)
        let end = grid.put("\u{600}1ab", row: 0, column: 0)
        #expect(end == 4)
        #expect(grid[0, 0].width == 2 && grid[0, 1].isContinuation)
    }

    /// Issue 12.8, the pager: a 2 MB single-line paragraph resized to one column held all its
    /// 2 million rows (and laid them out on the key's time). Now it is pieces of 16 KB: only
    /// those around the view are laid out, and the row counts are made off the run loop.
    @Test func aGiantParagraphAtOneColumnLaysOutOnlyWhatIsShown() {
        let line = String(repeating: "x", count: 2_000_000)
        var h = PagerHarness(markdown: "# T\n\n" + line + "\n\nend\n", columns: 80, rows: 10)
        h.send(.resize(rows: 6, columns: 1))
        #expect(h.state.active.countsWanted != nil, "counted off the run loop")
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
        h.send("G")
        #expect(h.trimmedContent.contains("d"), "the end shows: \(h.trimmedContent)")
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
        h.send("50%")
        #expect(h.trimmedContent.first == "x")
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
    }

    /// Pieces of a giant paragraph follow each other with no blank row between them.
    @Test func piecesOfAGiantParagraphHaveNoBlankRowBetween() {
        let words = (0..<30_000).map { "w\($0)" }.joined(separator: " ")
        let doc = MarkdownParser.parse(words + "\n")
        #expect(doc.blocks.count > 3)
        let rows = MarkdownContent.layoutAll(doc, options: LayoutOptions(width: 40)).flatMap(\.lines)
        #expect(!rows.contains { $0.spans.allSatisfy { $0.text.allSatisfy { $0 == " " } } })
        #expect(rows.map { $0.spans.map(\.text).joined() }.joined(separator: " ").split(separator: " ").count == 30_000)
    }

    /// Rows of a huge paragraph are streamed in print mode, not kept: the streamed rows are
    /// those of the layout, and nothing is left in the block layout afterwards.
    @Test func printStreamsRows() {
        let doc = MarkdownParser.parse("> " + String(repeating: "word ", count: 400) + "\n\n# H\n\n```\n" + String(repeating: "c", count: 300) + "\n```\n")
        let options = LayoutOptions(width: 7)
        var streamed: [VisualLine] = []
        MarkdownContent.forEachRow(doc, options: options, parallel: false) { streamed.append($0) }
        let kept = MarkdownContent.layoutAll(doc, options: options, parallel: false).flatMap(\.lines)
        #expect(streamed == kept)
        #expect(streamed.count > 300)
    }
}

/// Issue 12.8 for text documents: a 2 MB line at one column laid out all 2 million rows.
@Suite struct GiantTextLinePagerTests {
    @Test func aGiantTextLineAtOneColumnLaysOutOnlyWhatIsShown() {
        var h = PagerHarness(text: "top\n" + String(repeating: "y", count: 2_000_000) + "\nbottom\n", columns: 80, rows: 10)
        h.send(.resize(rows: 6, columns: 1))
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
        h.send("G")
        #expect(h.trimmedContent.last == "m", "the end shows: \(h.trimmedContent)")
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
        h.send("2g")
        #expect(h.trimmedContent.first == "y")
        #expect(h.state.active.layout.laidOutRowCount <= 4 * 16 * 1024)
    }
}
