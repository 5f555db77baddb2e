import TestSupport
import Foundation
import Testing

/// Print mode: standard output is a pipe, so folio renders the documents and exits, the way
/// less acts like cat. Every test runs the real binary with stdin, stdout and stderr as pipes.
@Suite struct PrintModeTests {
    let dir: URL
    let env: [String: String]

    init() throws {
        dir = try E2E.temporaryDirectory()
        env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
    }

    /// Mixed document; the expected lines are derived from the README's rendering rules.
    static let mixed = """
        # Harbour guide

        Some *intro* text.

        ## Berths

        - first berth
        - second berth

        | Name | Depth |
        |------|-------|
        | Quay | 4 m   |

        > quoted line

        See [the chart](https://example.org/chart) for more.
        """

    @Test func rendersAFile() throws {
        let path = try E2E.write(Self.mixed, to: "guide.md", in: dir)
        let result = try E2E.run([path], environment: env)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.lines
        // Level 1: the heading, then a `═` rule; level 2: a `─` rule.
        let h1 = try #require(lines.firstIndex { $0.contains("Harbour guide") })
        #expect(lines.indices.contains(h1 + 1) && lines[h1 + 1].contains("═"))
        #expect(lines[h1 + 1].allSatisfy { $0 == "═" || $0 == " " })
        let h2 = try #require(lines.firstIndex { $0.contains("Berths") })
        #expect(lines.indices.contains(h2 + 1) && lines[h2 + 1].contains("─"))
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("• first berth") })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("• second berth") })
        #expect(lines.contains { $0.hasPrefix("┌") })
        #expect(lines.contains { $0.hasPrefix("└") })
        #expect(lines.contains { $0.contains("│") && $0.contains("Quay") && $0.contains("4 m") })
        #expect(lines.contains { $0.contains("quoted line") && $0.contains("│") })
        // A pipe is not a terminal: plain text, the link URL written after the text.
        #expect(result.text.contains("the chart"))
        #expect(result.text.contains("https://example.org/chart"))
        #expect(!result.stdout.contains(0x1B))
        #expect(!result.text.contains("*intro*"))
    }

    @Test func readsStandardInputWithoutArguments() throws {
        let result = try E2E.run([], input: Array("# From a pipe\n\nbody text\n".utf8), environment: env)
        #expect(result.status == 0)
        #expect(result.lines.first?.contains("From a pipe") == true)
        #expect(result.text.contains("body text"))
    }

    @Test func readsStandardInputForDash() throws {
        let a = try E2E.write("alpha text\n", to: "a.md", in: dir)
        let result = try E2E.run([a, "-"], input: Array("beta from stdin\n".utf8), environment: env)
        #expect(result.status == 0)
        let text = result.text
        let alpha = try #require(text.range(of: "alpha text"))
        let beta = try #require(text.range(of: "beta from stdin"))
        #expect(alpha.lowerBound < beta.lowerBound)
    }

    @Test func printsSeveralFilesInOrder() throws {
        let paths = try ["one", "two", "three"].map { try E2E.write("# \($0.capitalized)\n\nfile \($0)\n", to: "\($0).md", in: dir) }
        let result = try E2E.run(paths, environment: env)
        #expect(result.status == 0)
        let text = result.text
        let positions = try ["file one", "file two", "file three"].map { try #require(text.range(of: $0)).lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func missingFileIsReportedAndTheOthersStillPrint() throws {
        let a = try E2E.write("first file\n", to: "a.md", in: dir)
        let b = try E2E.write("second file\n", to: "b.md", in: dir)
        let missing = dir.appendingPathComponent("missing.md").path
        let result = try E2E.run([a, missing, b], environment: env)
        #expect(result.status == 1)
        #expect(result.errors == "folio: \(missing): No such file or directory\n")
        #expect(result.text.contains("first file"))
        #expect(result.text.contains("second file"))
    }

    /// Over 1 MB, print mode cuts the document into pieces rendered on all cores. Copies of a
    /// document printed as one file must read as each copy printed alone, joined by the one
    /// blank row that separates top-level blocks.
    @Test func largeFilePrintsAsItsPartsDo() throws {
        let long = try String(contentsOfFile: E2E.sample("long.md"), encoding: .utf8)
        let copies = 6
        let big = try E2E.write(Array(repeating: long, count: copies).joined(separator: "\n\n"), to: "big.md", in: dir)
        #expect(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int ?? 0 > 1 << 20)
        let whole = try E2E.run(["--width", "72", big], environment: env)
        let one = try E2E.run(["--width", "72", E2E.sample("long.md")], environment: env)
        #expect(whole.status == 0 && one.status == 0)
        let expected: [UInt8] = Array(Array(repeating: one.stdout, count: copies).joined(separator: [0x0A]))
        #expect(whole.stdout.count == expected.count)
        #expect(whole.stdout == expected)
    }

    @Test func directoryIsReported() throws {
        let result = try E2E.run([dir.path], environment: env)
        #expect(result.status == 1)
        #expect(result.errors == "folio: \(dir.path): Is a directory\n")
    }

    /// Tests run as root, which can read any file whatever its mode, so an unreadable path is
    /// simulated by a path through a regular file (`notdir/x`): open fails with ENOTDIR.
    @Test func unreadablePathIsReported() throws {
        try E2E.write("plain file\n", to: "notdir", in: dir)
        let path = dir.appendingPathComponent("notdir/x").path
        let ok = try E2E.write("still printed\n", to: "ok.md", in: dir)
        let result = try E2E.run([path, ok], environment: env)
        #expect(result.status == 1)
        #expect(result.errors == "folio: \(path): Not a directory\n")
        #expect(result.text.contains("still printed"))
    }

    /// ESC sequences, BEL, NUL, invalid UTF-8 and random binary never reach the output as
    /// control characters.
    static var hostileDocument: [UInt8] {
        var bytes = Array("# Title \u{1B}[31mred\u{1B}[0m\n\ntext \u{1B}]0;title\u{07} more\n\n".utf8)
        bytes += [0x6E, 0x75, 0x6C, 0x00, 0x6C, 0x0A, 0x0A]            // "nul\0l"
        bytes += [0x62, 0x61, 0x64, 0xFF, 0xFE, 0xC3, 0x28, 0x0A, 0x0A] // invalid UTF-8
        bytes += Array("```\ncode \u{1B}[2J\u{08}\u{0D}\u{7F} x\n```\n\n".utf8)
        var rng = SplitMix(seed: 42)
        bytes += (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes += Array("\n\n[link\u{1B}](https://e.org/\u{1B}[31m)\n".utf8)
        return bytes
    }

    @Test(arguments: [["--plain"], []])
    func hostileBytesNeverBecomeControls(_ flags: [String]) throws {
        let path = try E2E.write(bytes: Self.hostileDocument, to: "hostile.md", in: dir)
        let result = try E2E.run(flags + [path], environment: env)
        #expect(result.status == 0)
        #expect(!result.stdout.contains(0x1B))
        let controls = result.stdout.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
        #expect(controls.isEmpty, "control bytes in output: \(Set(controls).sorted())")
        #expect(result.text.contains("^["))
        #expect(result.text.contains("\u{FFFD}"))
        #expect(String(validatingUTF8: result.text) != nil)
    }

    @Test func widthBoundsEveryLine() throws {
        let doc = """
            # A heading that is much longer than twenty columns

            Words words words and a verylongwordthatcannotfitintotwentycolumns at all.

            漢字かな交じり文は一文字が二桁を占めるので折り返しに注意が必要です。

            - a list item with a hanging indent that must wrap
              > and a quote inside it with more words

            | column one | column two | column three |
            |---|---|---|
            | 日本語のセル | cell | https://example.org/a/very/long/url |

            ```
            a code line that is far longer than twenty columns and must wrap
            ```

            [a link with a long url](https://example.org/some/long/path/to/a/page)
            """
        let path = try E2E.write(doc, to: "wide.md", in: dir)
        for file in [path, E2E.sample("tour.md"), E2E.sample("wide.md")] {
            let result = try E2E.run(["--width", "20", "--plain", file], environment: env)
            #expect(result.status == 0)
            let wide = result.lines.filter { E2E.columns($0) > 20 }
            #expect(wide.isEmpty, "\(file): lines wider than 20: \(wide.prefix(5))")
        }
    }

    /// `--max-width`: prose stops at the cap (default 100), `--align center` moves it right,
    /// `--max-width 0` gives prose the whole width; a bad value is refused with its range.
    @Test func maxWidthCapsProse() throws {
        let path = try E2E.write("# T\n\n" + String(repeating: "word ", count: 80) + "\n", to: "p.md", in: dir)
        func lines(_ arguments: [String]) throws -> [String] {
            let result = try E2E.run(["--width", "160"] + arguments + [path], environment: env)
            #expect(result.status == 0)
            return result.lines.filter { !$0.isEmpty }
        }
        let byDefault = try lines([])
        #expect(byDefault.map(E2E.columns).max() == 100, "\(byDefault)")
        let capped = try lines(["--max-width", "30"])
        #expect(capped.map(E2E.columns).max() == 30)
        let centred = try lines(["--max-width", "30", "--align", "center"])
        #expect(centred.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 65)) && !$0.hasPrefix(String(repeating: " ", count: 66)) })
        let whole = try lines(["--max-width", "0"])
        #expect(whole.map(E2E.columns).max()! > 150)
        let bad = try E2E.run(["--max-width", "-1", path], environment: env)
        #expect(bad.status != 0 && bad.errors.contains("--max-width must be between 0 and 10000"))
    }

    @Test func colorAlwaysEmitsSGRAndHyperlinks() throws {
        let path = try E2E.write(Self.mixed, to: "guide.md", in: dir)
        let result = try E2E.run(["--color=always", path], environment: env)
        #expect(result.status == 0)
        let text = result.text
        #expect(text.range(of: "\u{1B}\\[[0-9;]*m", options: .regularExpression) != nil)
        #expect(text.contains("\u{1B}]8;"))
        #expect(text.contains("https://example.org/chart"))
        #expect(text.range(of: "\u{1B}]8;[^;\u{07}\u{1B}]*;https://example.org/chart(\u{1B}\\\\|\u{07})",
                           options: .regularExpression) != nil)
    }

    @Test func noColorInAPipeEmitsNoEscapes() throws {
        let path = try E2E.write(Self.mixed, to: "guide.md", in: dir)
        var env = env
        env["NO_COLOR"] = "1"
        env["TERM"] = "xterm-256color"
        let result = try E2E.run(["--color=auto", path], environment: env)
        #expect(result.status == 0)
        #expect(!result.stdout.contains(0x1B))
        #expect(result.text.contains("Harbour guide"))
    }

    /// Issue 31: `printf 'a\033[31mred\033[0m\n' | folio --plain | cat -v` showed the
    /// escapes, though `--plain` writes none. With `--plain`, text into a pipe is each line's
    /// text as the pager shows it, unwrapped: styles and links dropped, every other control
    /// visible (caret notation, `<U+009B>`, `<FF>`). Without it the bytes go through as cat's.
    static let controlText: [UInt8] = Array("a\u{1B}[31mred\u{1B}[0m\n".utf8)
        + Array("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{7} and \u{1B}]0;title\u{7}\n".utf8)
        + Array("x\u{1B}[2Jy\r\n".utf8) + [0x62, 0x08, 0x62, 0x20, 0x00, 0x20, 0x7F, 0x20, 0xC2, 0x9B, 0x20, 0xFF, 0x0A]
        + Array("a\tb\nend".utf8)
    static let controlTextShown = "ared\nlink and ^[]0;title^G\nx^[[2Jy\nb ^@ ^? <U+009B> <FF>\na       b\nend\n"

    @Test func plainTextIntoAPipeHoldsNoEscapes() throws {
        let piped = try E2E.run(["--plain"], input: Self.controlText, environment: env)
        #expect(piped.status == 0)
        #expect(piped.text == Self.controlTextShown, "\(piped.text.debugDescription)")
        let path = dir.appendingPathComponent("controls.log")
        try Data(Self.controlText).write(to: path)
        let file = try E2E.run(["--plain", path.path], environment: env)
        #expect(file.text == Self.controlTextShown, "\(file.text.debugDescription)")
        // --plain beats --color=always; a width lays the lines out, still without escapes.
        for arguments in [["--plain", "--color=always"], ["--plain", "--width", "7"]] {
            let result = try E2E.run(arguments + [path.path], environment: env)
            #expect(result.status == 0)
            #expect(!result.stdout.contains { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }, "\(arguments): \(result.text.debugDescription)")
            #expect(result.text.contains("red") && result.text.contains("^[]0;"), "\(arguments)")
        }
        // Without --plain a text pipe into a pipe is the input byte for byte.
        let raw = try E2E.run([], input: Self.controlText, environment: env)
        #expect(raw.stdout == Self.controlText)
        let rawFile = try E2E.run(["--print", path.path], environment: env)
        #expect(rawFile.stdout == Self.controlText)
    }

    /// Markdown with `--plain`: controls written raw, through entities, in code, HTML, a table
    /// and a link destination, all come out visible; no byte of an escape sequence is written.
    @Test func plainMarkdownHoldsNoEscapes() throws {
        let doc = "# T\u{1B}[31mitle\n\nraw \u{1B}]0;x\u{7} and &#27;[2J and \u{9B}1m\n\n"
            + "```\ncode \u{1B}[31m\u{0}\n```\n\n<div>\u{1B}[5m</div>\n\n| a\u{1B}[1m | b |\n|---|---|\n| \u{8} | c |\n\n"
            + "[link](http://a&#10;b&#27;c) ![i](x&#27;y.png)\n"
        let path = try E2E.write(doc, to: "controls.md", in: dir)
        for arguments in [["--plain"], ["--plain", "--width", "20"], []] {
            let result = try E2E.run(arguments + [path], environment: env)
            #expect(result.status == 0)
            let controls = result.stdout.enumerated().filter { ($0.element < 0x20 && $0.element != 0x0A) || $0.element == 0x7F
                || ($0.element == 0xC2 && $0.offset + 1 < result.stdout.count && (0x80...0x9F).contains(result.stdout[$0.offset + 1])) }
            #expect(controls.isEmpty, "\(arguments): \(result.text.debugDescription)")
            #expect(result.text.contains("^[[31m") && result.text.contains("http://a%0Ab%1Bc"), "\(arguments): \(result.text)")
        }
    }

    @Test func tenMegabyteLineRenders() throws {
        let line = String(repeating: "abcdefghi ", count: 1_000_000)
        let path = try E2E.write(line + "\n", to: "big.md", in: dir)
        let result = try E2E.run(["--width", "80", path], environment: env, timeout: 60)
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(result.stdout.count >= 10_000_000)
    }

    @Test func deeplyNestedQuotesRender() throws {
        let doc = String(repeating: ">", count: 10_000) + " deep\n"
        let path = try E2E.write(doc, to: "deep.md", in: dir)
        let result = try E2E.run(["--width", "40", path], environment: env, timeout: 60)
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(result.lines.allSatisfy { E2E.columns($0) <= 40 })
    }

    @Test func versionAndHelp() throws {
        let version = try E2E.run(["--version"], environment: env)
        #expect(version.status == 0)
        #expect(version.text.range(of: #"^\d+\.\d+"#, options: .regularExpression) != nil)
        let help = try E2E.run(["--help"], environment: env)
        #expect(help.status == 0)
        #expect(help.text.contains("USAGE"))
        #expect(help.text.contains("--restore"))
        // Every less option is listed, the ignored ones too.
        #expect(help.text.contains("--quit-on-intr") && help.text.contains("--LONG-PROMPT"))
        let short = try E2E.run(["-V"], environment: env)
        #expect(short.status == 0 && short.text == version.text)
        #expect(try E2E.run(["-?"], environment: env).text == help.text)
    }
}

typealias SplitMix = SeededRandom
