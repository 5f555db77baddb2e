import Foundation
import Testing

/// Images in a real terminal (tmux): drawn as coloured block cells of the size their pixels
/// and the pane's cells give, a caption below; `--images=off` shows the caption alone; a
/// resize keeps the picture where the view was.
@Suite(.serialized) struct ImagesEndToEndTests {
    /// SampleDocs' PNG: 160 x 90 pixels.
    static let picture = (width: 160, height: 90)

    /// A folder with the sample PNG and `doc.md` holding `markdown`.
    func folder(_ markdown: String) throws -> URL {
        let dir = try E2E.temporaryDirectory()
        let png = try Data(contentsOf: URL(fileURLWithPath: E2E.sample("images/picture.png")))
        _ = try E2E.write(bytes: Array(png), to: "picture.png", in: dir)
        _ = try E2E.write(markdown, to: "doc.md", in: dir)
        return dir
    }

    /// Rows of the pane whose cells carry a background colour (a picture's rows).
    static func pictureRows(_ pane: FolioPane) -> [Int] {
        pane.tmux.capture(escapes: true).enumerated().compactMap { i, row in
            row.contains("48;2;") || row.contains("48;5;") ? i : nil
        }
    }

    /// The geometry folio must choose, from the pane's own cell size (`TIOCGWINSZ`, read
    /// in the pane first; 8 x 16 when it reports no pixels), as `PictureShow.geometry` says.
    static func expectedGeometry(cellFile: URL, columns: Int, rows: Int) -> (cols: Int, rows: Int)? {
        guard let text = try? String(contentsOf: cellFile, encoding: .utf8) else { return nil }
        let n = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard n.count == 4 else { return nil }
        let (cw, ch) = n[2] > 0 && n[3] > 0 ? (n[2] / n[1], n[3] / n[0]) : (8, 16)
        let maxRows = max(4, rows / 2)
        let c = Double(picture.width) / Double(cw), r = Double(picture.height) / Double(ch)
        let scale = min(1, Double(columns - 1) / c, Double(maxRows) / r)
        return (max(1, Int((c * scale).rounded())), max(1, Int((r * scale).rounded())))
    }

    func start(_ dir: URL, arguments: [String] = [], columns: Int = 80, rows: Int = 24) throws -> FolioPane {
        // The pane's rows, columns and pixels, as folio will read them, then folio.
        let script = "python3 -c 'import fcntl,termios,struct,sys; print(*struct.unpack(\"HHHH\", "
            + "fcntl.ioctl(0, termios.TIOCGWINSZ, bytes(8))))' > \"$T/cells\"; exec \"$FOLIO_EXE\" --theme=dark "
            + arguments.map(\.shellQuoted).joined(separator: " ") + " \"$T/doc.md\""
        return try FolioPane.shell(script, columns: columns, rows: rows, dir: dir,
                                   environment: ["COLORTERM": "truecolor", "NO_COLOR": "", "TERM": "xterm-256color"])
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aPictureIsColouredCellsOfItsSizeThenItsCaption() throws {
        let dir = try folder("Before\n\n![A sun](picture.png)\n\nAfter\n")
        let pane = try start(dir)
        _ = pane.waitForPager()
        guard let expected = Self.expectedGeometry(cellFile: dir.appendingPathComponent("cells"), columns: 80, rows: 24) else {
            Issue.record("the pane's size was not read"); return
        }
        let screen = pane.wait { $0.contains { $0.hasPrefix("[image: A sun]") } && Self.pictureRows(pane).count == expected.rows }
        #expect(screen != nil, "\(pane.tmux.capture(escapes: true).joined(separator: "\n"))")
        guard let screen else { return }
        let rows = Self.pictureRows(pane)
        // Right after "Before" and its blank row, the picture, then the caption, then "After".
        #expect(rows == Array(2..<(2 + expected.rows)))
        #expect(screen[2 + expected.rows] == "[image: A sun]")
        #expect(screen[3 + expected.rows] == "" && screen[4 + expected.rows] == "After")
        // Each picture row is `cols` cells of block characters (no more).
        for r in rows { #expect(screen[r].count == expected.cols, "row \(r): \(screen[r].debugDescription)") }
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func offShowsTheCaptionAlone() throws {
        let dir = try folder("Before\n\n![A sun](picture.png)\n\nAfter\n")
        let pane = try start(dir, arguments: ["--images=off"])
        let screen = pane.wait { $0.contains { $0.hasPrefix("After") } }
        #expect(Array(screen?.prefix(5) ?? []) == ["Before", "", "[image: A sun]", "", "After"])
        #expect(Self.pictureRows(pane).isEmpty)
    }

    /// The view at the picture's first row stays there when the width changes (the picture is
    /// drawn again, narrower).
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aResizeKeepsThePictureOnTop() throws {
        let before = (1...40).map { "Line \($0)." }.joined(separator: "\n\n")
        let dir = try folder(before + "\n\n![A sun](picture.png)\n\n" + before + "\n")
        let pane = try start(dir)
        _ = pane.waitForPager()
        try pane.keys("81g")  // the image's source line: its unit at the top
        #expect(pane.wait { _ in Self.pictureRows(pane).first == 0 } != nil,
                "\(pane.tmux.capture(escapes: true).prefix(6).joined(separator: "\n"))")
        // Narrower than the picture: it is drawn again, smaller, still first on the screen.
        let wide = Self.pictureRows(pane).count
        try pane.tmux.resize(columns: 6, rows: 24)
        let narrow = pane.wait { screen in
            let rows = Self.pictureRows(pane)
            return rows.first == 0 && rows.count < wide && screen.contains { $0.hasPrefix("[imag") }
                && screen.allSatisfy { $0.count <= 6 }
        }
        #expect(narrow != nil, "\(pane.screen.joined(separator: "\n"))")
    }
}

/// The bytes folio writes for a picture in a terminal that answers as kitty, as a sixel
/// terminal, or as neither (a pseudo-terminal driven by `Scripts/pty-graphics.py`, which
/// answers the graphics query the way each would; tmux cannot pretend to be kitty).
@Suite(.serialized) struct GraphicsProtocolTests {
    static var python: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static let rows = 24

    /// Phases of output: the first screen (the picture drawn), then after `G` (the picture
    /// scrolled off, 60 lines below it), then after `q`. `print`: `folio --print` instead.
    /// `environment`: more variables (tmux's, kitty's). `cell`: the terminal's cell in pixels,
    /// said only in the answer to `CSI 16 t` when `pixels` is false.
    func run(answer: String, print: Bool = false, cell: String = "10x20", pixels: Bool = true,
             environment extra: [String: String] = [:]) throws -> [[UInt8]] {
        let dir = try E2E.temporaryDirectory()
        let png = try Data(contentsOf: URL(fileURLWithPath: E2E.sample("images/picture.png")))
        _ = try E2E.write(bytes: Array(png), to: "picture.png", in: dir)
        let lines = (1...60).map { "Line \($0)." }.joined(separator: "\n\n")
        let doc = try E2E.write("# Title\n\n![A sun](picture.png)\n\n" + lines + "\n", to: "doc.md", in: dir)
        var env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        env["TERM"] = "xterm-256color"
        env["COLORTERM"] = "truecolor"
        env.merge(extra) { _, new in new }
        let script = E2E.packageRoot.appendingPathComponent("Tests/EndToEndTests/Scripts/pty-graphics.py").path
        let out = dir.appendingPathComponent("out").path
        let result = try Subprocess.run(try #require(Self.python),
                                        [script, "--answer", answer, "--out", out, "--rows", "\(Self.rows)", "--cell", cell]
                                            + (pixels ? [] : ["--no-pixels"])
                                            + (print ? ["--ready", "Line 60."] : ["--keys", "G"])
                                            + ["--", try E2E.folio(), "--theme=dark"] + (print ? ["--print"] : []) + [doc],
                                        environment: env, timeout: 60)
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        return (0..<3).map { (try? Data(contentsOf: URL(fileURLWithPath: "\(out).\($0)"))).map(Array.init) ?? [] }
    }

    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return 0 }
        return (0...(bytes.count - n.count)).filter { bytes[$0] == n[0] && Array(bytes[$0..<($0 + n.count)]) == n }.count
    }

    /// The 1-based rows of cursor moves (`ESC [ row ; col H`) right before `marker`.
    static func rowsBefore(_ marker: String, in bytes: [UInt8]) -> [Int] {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: marker).dropLast()
        return parts.compactMap { part -> Int? in
            guard let r = part.range(of: "\u{1B}[", options: .backwards) else { return nil }
            return Int(part[r.upperBound...].split(separator: ";").first ?? "")
        }
    }

    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func kittyGetsTheImageOnceAndPlacesIt() throws {
        let phases = try run(answer: "kitty")
        #expect(Self.count("\u{1B}_Gi=31,", in: phases[0]) == 1, "the query goes out once")
        #expect(Self.count("\u{1B}_Ga=t,", in: phases[0]) == 1, "the pixels are sent once")
        let placed = Self.rowsBefore("\u{1B}_Ga=p,", in: phases[0])
        #expect(!placed.isEmpty && placed.allSatisfy { $0 >= 1 && $0 < Self.rows }, "placed at rows \(placed), never on the status row")
        // Scrolled away: its placement is deleted, nothing placed or sent again.
        #expect(Self.count("\u{1B}_Ga=d,d=a", in: phases[1]) >= 1)
        #expect(Self.count("\u{1B}_Ga=p,", in: phases[1]) == 0 && Self.count("\u{1B}_Ga=t,", in: phases[1]) == 0)
        // Leaving deletes the images and their data.
        #expect(Self.count("\u{1B}_Ga=d,d=A", in: phases[2]) == 1)
        #expect(Self.count("\u{1B}P", in: phases[0]) == 0)
    }

    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func sixelWhenDA1SaysSo() throws {
        let phases = try run(answer: "sixel")
        let drawn = Self.rowsBefore("\u{1B}P", in: phases[0])
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0 >= 1 && $0 < Self.rows }, "sixel at rows \(drawn)")
        #expect(Self.count("\u{1B}_Ga=", in: phases[0]) == 0)
        // Scrolled away: the screen is painted again (erasing the pixels), no sixel drawn.
        #expect(Self.count("\u{1B}P", in: phases[1]) == 0)
        #expect(Self.count("\u{1B}[2J", in: phases[1]) >= 1)
    }

    /// Print mode to a kitty terminal shows the picture at the start of its rows (the cursor
    /// stays, the blank rows follow); to a terminal with no graphics, its rows are blocks.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func printModeShowsKittysImagesInline() throws {
        let kitty = try run(answer: "kitty", print: true)[0]
        #expect(Self.count("\u{1B}_Ga=T,", in: kitty) == 1 && Self.count(",C=1,", in: kitty) == 1)
        #expect(Self.count("48;2;", in: kitty) == 0)
        let other = try run(answer: "none", print: true)[0]
        #expect(Self.count("\u{1B}_Ga=", in: other) == 0 && Self.count("\u{1B}P", in: other) == 0)
        #expect(Self.count("48;2;", in: other) > 20)
    }

    /// What print mode writes for the picture, from the cursor saved below its blank rows to
    /// the cursor restored: (the rows moved up, the bytes drawn), or nil.
    static func drawnBelowItsRows(_ bytes: [UInt8]) -> (up: Int, drawn: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let save = text.range(of: "\u{1B}7\u{1B}["), let restore = text.range(of: "\u{1B}8", range: save.upperBound..<text.endIndex),
              let a = text.range(of: "A", range: save.upperBound..<restore.lowerBound) else { return nil }
        return (Int(text[save.upperBound..<a.lowerBound]) ?? -1, String(text[a.upperBound..<restore.lowerBound]))
    }

    /// Print mode to a sixel or iTerm2 terminal draws the picture once its blank rows are
    /// written, over them, between a saved and a restored cursor (the stream's cursor never
    /// depends on how far the terminal moves it); none of its rows are blocks.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func printModeDrawsSixelAndITermOverTheRows() throws {
        let sixel = try run(answer: "sixel", print: true)[0]
        let s = try #require(Self.drawnBelowItsRows(sixel), "no picture between ESC 7 and ESC 8")
        #expect(s.drawn.hasPrefix("\u{1B}P") && s.drawn.contains("q") && s.up >= 1 && s.up <= Self.rows / 2)
        // Outside the sixel (whose colour registers may read `48;2;`): no blocks, no kitty.
        let text = String(decoding: sixel, as: UTF8.self)
        let outside = Array(text.replacingOccurrences(of: s.drawn, with: "").utf8)
        #expect(Self.count("48;2;", in: outside) == 0 && Self.count("\u{1B}_G", in: outside) == 1, "only the query")
        // The caption comes after the picture's rows: the cursor was restored above it.
        #expect(text.range(of: "\u{1B}8")!.lowerBound < text.range(of: "[image: A sun]")!.lowerBound)
        let iterm = try run(answer: "iterm", print: true)[0]
        let i = try #require(Self.drawnBelowItsRows(iterm), "no picture between ESC 7 and ESC 8")
        #expect(i.drawn.hasPrefix("\u{1B}]1337;File=inline=1;") && i.up == s.up)
        #expect(Self.count("\u{1B}P", in: iterm) == 0, "iTerm2 said who it is: its own images, not sixel")
    }

    /// In the pager, iTerm2 (XTVERSION) gets its own images though DA1 lists sixel too.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func iTermByNameGetsItsOwnImages() throws {
        let phases = try run(answer: "iterm")
        let drawn = Self.rowsBefore("\u{1B}]1337;File=inline=1;", in: phases[0])
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0 >= 1 && $0 < Self.rows }, "drawn at rows \(drawn)")
        #expect(Self.count("\u{1B}P", in: phases[0]) == 0)
    }

    /// A terminal that leaves `TIOCGWINSZ`'s pixels empty is asked its cell size (`CSI 16 t`):
    /// the picture takes the rows that size gives, as when the pixels are in `TIOCGWINSZ`, and
    /// other rows for another cell size.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func theCellSizeComesFromTheAnswerWhenTheSizeHasNoPixels() throws {
        func rows(_ cell: String, pixels: Bool) throws -> Int {
            try #require(Self.drawnBelowItsRows(try run(answer: "sixel", print: true, cell: cell, pixels: pixels)[0])).up
        }
        let fromSize = try rows("10x20", pixels: true)
        #expect(try rows("10x20", pixels: false) == fromSize)
        #expect(try rows("5x10", pixels: false) != fromSize)
    }

    /// `run` as inside tmux in kitty (its variable reached the shell), with a stand-in `tmux`
    /// that says `allow-passthrough` is `passthrough`.
    func runInTmuxInKitty(passthrough: String) throws -> [[UInt8]] {
        let bin = try E2E.temporaryDirectory()
        _ = try E2E.write("#!/bin/sh\necho \(passthrough)\n", to: "tmux", in: bin)
        chmod(bin.appendingPathComponent("tmux").path, 0o755)
        return try run(answer: "none", environment: [
            "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1", "TERM": "tmux-256color",
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
    }

    /// Inside tmux in kitty (its variable reached the shell) with `allow-passthrough on` (a
    /// stand-in `tmux` answers the question): the picture's cells are Unicode placeholders in
    /// the image's colour, and the image goes once through tmux's passthrough; no query.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func insideTmuxKittysImagesAreUnicodePlaceholders() throws {
        let phases = try runInTmuxInKitty(passthrough: "on")
        #expect(Self.count("\u{1B}_Gi=31", in: phases[0]) == 0, "no query inside tmux")
        #expect(Self.count("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,U=1,", in: phases[0]) == 1, "sent once, through the passthrough")
        // 160 x 90 pixels in 10 x 20 cells: 16 x 5 placeholders, the first of each row with its
        // row and column marks, in the image's 256-colour id.
        #expect(Self.count("\u{10EEEE}", in: phases[0]) >= 16 * 5)
        #expect(Self.count("38;5;1m\u{10EEEE}\u{0305}\u{0305}", in: phases[0]) == 1)
        #expect(Self.count("\u{10EEEE}\u{030D}\u{0305}", in: phases[0]) == 1, "row 1, column 0")
        // Every DCS is tmux's passthrough (no sixel), every APC inside one (no direct placement).
        #expect(Self.count("\u{1B}P", in: phases[0]) == Self.count("\u{1B}Ptmux;", in: phases[0]))
        #expect(Self.count("\u{1B}_G", in: phases[0]) == Self.count("\u{1B}\u{1B}_G", in: phases[0]))
        // Leaving frees the image, through tmux too.
        #expect(Self.count("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=1,", in: phases[2]) == 1)
    }

    /// Without `allow-passthrough`, blocks, and the status line says how to turn it on.
    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func insideTmuxWithoutPassthroughBlocksAndAHint() throws {
        let phases = try runInTmuxInKitty(passthrough: "off")
        #expect(Self.count("\u{10EEEE}", in: phases[0]) == 0 && Self.count("48;2;", in: phases[0]) > 20)
        #expect(Self.count("allow-passthrough on", in: phases[0]) == 1)
    }

    @Test(.enabled(if: GraphicsProtocolTests.python != nil, "python3 is not installed"))
    func blocksWhenTheTerminalHasNeither() throws {
        let phases = try run(answer: "none")
        #expect(Self.count("\u{1B}_Ga=", in: phases[0]) == 0 && Self.count("\u{1B}P", in: phases[0]) == 0)
        #expect(Self.count("48;2;", in: phases[0]) > 20, "the picture's cells have their colours")
    }
}
