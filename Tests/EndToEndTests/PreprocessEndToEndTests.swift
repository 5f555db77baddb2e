import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 27, item 6: LESSOPEN and compressed files, and the binary-file question, as in less.
@Suite struct PreprocessEndToEndTests {
    static let markdown = "# Packed notes\n\nSome *emphasis* and a list:\n\n- one\n- two\n\n" + (1...60).map { "Paragraph \($0).\n" }.joined(separator: "\n")
    static let text = (1...300).map { "text line \($0)\n" }.joined()

    /// A small man page's roff source.
    static let roff = """
        .TH DEMO 1 "November 2026" "demo 1.0" "User Commands"
        .SH NAME
        demo \\- show what a compressed man page holds
        .SH SYNOPSIS
        .B demo
        [\\fIOPTION\\fR]...
        .SH DESCRIPTION
        \(String(repeating: "Demo does nothing at all, at length.\n", count: 40))
        """

    /// Bytes that look like a program: an ELF header, then zeros and more.
    static let program: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 8)
        + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// The environment of a print-mode run: no LESSOPEN unless given.
    static func environment(_ dir: URL, _ extra: [String: String] = [:]) -> [String: String] {
        var env = E2E.baseEnvironment(stateDir: dir.appendingPathComponent("state"))
        env.merge(extra) { _, new in new }
        return env
    }

    static func tool(_ ext: String) -> String {
        ["gz": "gzip", "bz2": "bzip2", "xz": "xz", "zst": "zstd"][ext]!
    }

    static func has(_ tool: String) -> Bool {
        (try? Subprocess.run("/bin/sh", ["-c", "command -v \(tool)"], environment: ["PATH": "/usr/bin:/bin:/usr/local/bin"]))?.status == 0
    }

    /// `NAME.EXT` compressed by the format's tool from `NAME` in `dir`; false when the tool is missing.
    static func compress(_ name: String, _ ext: String, in dir: URL) throws -> Bool {
        guard has(tool(ext)) else { return false }
        let r = try Subprocess.run("/bin/sh", ["-c", "cd \"$1\" && \(tool(ext)) -c < \"$2\" > \"$2.\(ext)\"", "sh", dir.path, name],
                                   environment: ["PATH": "/usr/bin:/bin:/usr/local/bin"])
        return r.status == 0
    }

    // MARK: Print mode

    /// A compressed Markdown file prints as the file itself does (its kind from its name
    /// without `.gz`), and compressed text goes through byte for byte, in every format.
    @Test(arguments: ["gz", "bz2", "xz", "zst"]) func compressedFilesPrintAsTheirContent(ext: String) throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try E2E.write(Self.markdown, to: "notes.md", in: dir)
        try E2E.write(Self.text, to: "log.txt", in: dir)
        guard try Self.compress("notes.md", ext, in: dir), try Self.compress("log.txt", ext, in: dir) else { return }
        let env = Self.environment(dir)
        let plain = try E2E.run(["--print", "--width", "60", dir.appendingPathComponent("notes.md").path], environment: env)
        let packed = try E2E.run(["--print", "--width", "60", dir.appendingPathComponent("notes.md.\(ext)").path], environment: env)
        #expect(packed.status == 0 && packed.errors.isEmpty, "\(packed.errors)")
        #expect(packed.text.contains("Packed notes") && !packed.text.contains("# Packed"), "rendered as Markdown")
        #expect(packed.stdout == plain.stdout)
        let log = try E2E.run(["--print", dir.appendingPathComponent("log.txt.\(ext)").path], environment: env)
        #expect(log.status == 0)
        #expect(log.stdout == Array(Self.text.utf8))
        // By its first bytes this would be text; its name, without the suffix, says Markdown.
        try E2E.write("Just *one* emphasis.\n", to: "short.md", in: dir)
        guard try Self.compress("short.md", ext, in: dir) else { return }
        let short = try E2E.run(["--print", dir.appendingPathComponent("short.md.\(ext)").path], environment: env)
        #expect(short.text == "Just one emphasis.\n", "\(short.text)")
    }

    /// A gzip file cut short prints what it holds, then says why it ended, once, as a read
    /// error of a pipe is said.
    @Test func truncatedFilePrintsItsBeginningAndSaysSo() throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try E2E.write(Self.text, to: "log.txt", in: dir)
        guard try Self.compress("log.txt", "gz", in: dir) else { return }
        let whole = try Data(contentsOf: dir.appendingPathComponent("log.txt.gz"))
        try whole.prefix(whole.count - 20).write(to: dir.appendingPathComponent("cut.txt.gz"))
        let result = try E2E.run(["--print", dir.appendingPathComponent("cut.txt.gz").path], environment: Self.environment(dir))
        #expect(result.text.hasPrefix("text line 1\ntext line 2\n"))
        #expect(Self.text.hasPrefix(result.text))
        #expect(result.errors == "folio: \(dir.path)/cut.txt.gz: gzip: unexpected end of file\n", "\(result.errors)")
        // Markdown, read whole before it is printed, and short enough to end while sniffed.
        try E2E.write(Self.markdown, to: "notes.md", in: dir)
        guard try Self.compress("notes.md", "gz", in: dir) else { return }
        let packed = try Data(contentsOf: dir.appendingPathComponent("notes.md.gz"))
        try packed.prefix(packed.count - 4).write(to: dir.appendingPathComponent("cut.md.gz"))
        let markdown = try E2E.run(["--print", dir.appendingPathComponent("cut.md.gz").path], environment: Self.environment(dir))
        #expect(markdown.text.hasPrefix("Packed notes\n"), "\(markdown.text)")
        #expect(markdown.errors == "folio: \(dir.path)/cut.md.gz: gzip: unexpected end of file\n", "\(markdown.errors)")
    }

    /// The three forms of LESSOPEN, LESSCLOSE afterwards, `-` for standard input, LESSSECURE,
    /// and a LESSOPEN less would ignore.
    @Test func lessOpenForms() throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try E2E.write("hello, world\n", to: "a b.txt", in: dir)
        let up = dir.appendingPathComponent("up.sh").path
        try "#!/bin/sh\nt=\"$(dirname \"$1\")/replacement\"; tr a-z A-Z < \"$1\" > \"$t\"; echo \"$t\"\n"
            .write(toFile: up, atomically: true, encoding: .utf8)
        let post = dir.appendingPathComponent("post.sh").path
        try "#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> \"\(dir.path)/closed\"; [ \"$2\" = - ] || rm -f \"$2\"\n"
            .write(toFile: post, atomically: true, encoding: .utf8)
        chmod(up, 0o755)
        chmod(post, 0o755)
        func run(_ lessOpen: String, _ arguments: [String] = [file], input: String = "", extra: [String: String] = [:]) throws -> E2E.Result {
            try E2E.run(["--print"] + arguments, input: Array(input.utf8),
                        environment: Self.environment(dir, ["LESSOPEN": lessOpen, "LESSCLOSE": "\(post) %s %s"].merging(extra) { $1 }))
        }
        #expect(try run("|tr a-z A-Z < %s").text == "HELLO, WORLD\n", "input pipe")
        #expect(try run("||tr a-z A-Z < %s").text == "HELLO, WORLD\n", "input pipe with status")
        #expect(try run("|true %s").text == "hello, world\n", "nothing written: the file itself")
        #expect(try run("||true %s").text == "", "nothing written, exit 0: empty")
        #expect(try run("||false %s").text == "hello, world\n", "nothing written, exit 1: the file itself")
        #expect(try run("\(up) %s").text == "HELLO, WORLD\n", "replacement file")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("replacement").path), "LESSCLOSE removed it")
        #expect(try run("|tr a-z A-Z < %s", ["-"], input: "from stdin\n").text == "from stdin\n", "no dash: stdin as it is")
        #expect(try run("|-cat %s | tr a-z A-Z", ["-"], input: "from stdin\n").text == "FROM STDIN\n", "dash: stdin too")
        #expect(try run("|tr a-z A-Z < %s", extra: ["LESSSECURE": "1"]).text == "hello, world\n", "secure mode")
        let ignored = try run("|tr a-z A-Z")
        #expect(ignored.text == "hello, world\n")
        #expect(ignored.errors == "folio: LESSOPEN ignored: must contain exactly one %s\n")
        let closed = try String(contentsOfFile: dir.appendingPathComponent("closed").path, encoding: .utf8)
        #expect(closed == """
            \(file)|-
            \(file)|-
            \(file)|-
            \(file)|\(dir.path)/replacement
            -|-

            """, "LESSCLOSE after each file LESSOPEN replaced, with the quoted names: \(closed)")
    }

    /// Print mode never asks about a binary file: it goes through as it is (into a pipe, as
    /// cat would), and so does a compressed one.
    @Test func binaryFilesPrintWithoutAQuestion() throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let program = try E2E.write(bytes: Self.program, to: "prog", in: dir)
        let result = try E2E.run([program], environment: Self.environment(dir))
        #expect(result.status == 0)
        #expect(result.stdout == Self.program)
    }

    // MARK: The pager

    /// A gzipped man page opens as text: its roff source (as less shows it without lesspipe),
    /// under its own name, without a question.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func gzippedManPageOpensAsText() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.roff, to: "demo.1", in: dir)
        guard try Self.compress("demo.1", "gz", in: dir) else { return }
        let pane = try FolioPane.folio([dir.appendingPathComponent("demo.1.gz").path], dir: dir,
                                       environment: ["LESSOPEN": "", "LESSCLOSE": ""])
        let screen = try #require(pane.waitForPager(name: "demo.1.gz"), "\(pane.screen)")
        #expect(screen[0].hasPrefix(".TH DEMO 1"), "\(screen)")
        #expect(screen.contains { $0.hasPrefix(#"demo \- show what a compressed man page holds"#) }, "\(screen)")
        #expect(!screen.joined().contains("binary"))
        try pane.keys("G")
        #expect(pane.wait { $0.last?.contains("(END)") == true } != nil, "\(pane.screen)")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    /// The pager says once, on the status line, why a truncated file ended.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func truncatedFileSaysSoInThePager() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.text, to: "log.txt", in: dir)
        guard try Self.compress("log.txt", "gz", in: dir) else { return }
        let whole = try Data(contentsOf: dir.appendingPathComponent("log.txt.gz"))
        try whole.prefix(whole.count - 20).write(to: dir.appendingPathComponent("cut.txt.gz"))
        let pane = try FolioPane.folio([dir.appendingPathComponent("cut.txt.gz").path], dir: dir, environment: ["LESSOPEN": ""])
        let screen = try #require(pane.wait { $0.last?.contains("cut.txt.gz: gzip: unexpected end of file") == true },
                                  "\(pane.screen)")
        #expect(screen[0] == "text line 1")
        try pane.keys("q")
    }

    /// A decompressed document is not read again from its file: not when the file changes
    /// (watched Markdown; `-F` read it whole, so it has no reader left), not after the editor,
    /// which the status line says. Read as they are, its raw bytes would replace it.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func decompressedDocumentIsNotReadAgain() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.markdown, to: "notes.md", in: dir)
        guard try Self.compress("notes.md", "gz", in: dir) else { return }
        let editor = dir.appendingPathComponent("editor.sh").path
        try "#!/bin/sh\nprintf '# Edited\\n' | gzip > \"$2\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let path = dir.appendingPathComponent("notes.md.gz").path
        let pane = try FolioPane.shell(#"cd "$T" && "$FOLIO_EXE" -F --no-restore notes.md.gz; sleep 60"#, rows: 10, dir: dir,
                                       environment: ["LESSOPEN": "", "EDITOR": editor, "VISUAL": ""])
        _ = try #require(pane.wait { $0[0] == "Packed notes" }, "\(pane.screen)")
        _ = try Subprocess.run("/bin/sh", ["-c", "printf '# Changed outside\\n' | gzip > \"$1\"", "sh", path],
                               environment: ["PATH": "/usr/bin:/bin"])
        usleep(1_500_000)
        #expect(pane.screen[0] == "Packed notes", "\(pane.screen)")
        try pane.keys("v")
        let after = try #require(pane.wait { $0.last?.contains("not read again") == true }, "\(pane.screen)")
        #expect(after[0] == "Packed notes", "\(after)")
        #expect(after.last?.hasPrefix("notes.md.gz: not read again (shown through LESSOPEN or decompressed)") == true, "\(after)")
        try pane.keys("q")
    }

    /// A LESSOPEN input pipe's output is what the pager shows, under the file's name; with
    /// Debian's lesspipe, a gzipped file shows what lesspipe prints.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func lessOpenOutputIsShown() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(Self.text, to: "notes.txt", in: dir)
        let pane = try FolioPane.folio([dir.appendingPathComponent("notes.txt").path], dir: dir,
                                       environment: ["LESSOPEN": "|sed 's/text/FILTERED/' %s", "LESSCLOSE": ""])
        let screen = try #require(pane.waitForPager(name: "notes.txt"), "\(pane.screen)")
        #expect(screen[0] == "FILTERED line 1", "\(screen)")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))

        guard Self.has("lesspipe") else { return }
        try E2E.write(Self.roff, to: "demo.1", in: dir)
        guard try Self.compress("demo.1", "gz", in: dir) else { return }
        let viaLesspipe = try FolioPane.folio([dir.appendingPathComponent("demo.1.gz").path], dir: dir,
                                              environment: ["LESSOPEN": "| lesspipe %s", "LESSCLOSE": ""])
        let shown = try #require(viaLesspipe.waitForPager(name: "demo.1.gz"), "\(viaLesspipe.screen)")
        #expect(shown[0].hasPrefix(".TH DEMO 1"), "lesspipe prints a gzipped file's content: \(shown)")
        try viaLesspipe.keys("q")
    }

    /// A compressed text file keeps its reading position under its own path, small (hashed
    /// whole once read) or large (18 MB: known by its path and a sample, placed once read
    /// far enough, as a pipe is).
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"), arguments: [300, 300_000])
    func compressedTextKeepsItsPlace(lines: Int) throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let filler = String(repeating: "-", count: 44)
        var text = ""
        text.reserveCapacity(lines * 60)
        for i in 1...lines {
            let n = String(i)
            text += "record " + String(repeating: "0", count: 6 - n.count) + n + " " + filler + "\n"
        }
        try E2E.write(text, to: "big.log", in: dir)
        guard try Self.compress("big.log", "gz", in: dir) else { return }
        let path = dir.appendingPathComponent("big.log.gz").path
        let target = lines * 2 / 3
        let label = "record " + String(repeating: "0", count: 6 - String(target).count) + String(target) + " "
        let first = try FolioPane.folio(["--no-scrollbar", path], dir: dir, environment: ["LESSOPEN": ""])
        // (A stream still being read: its status line says `p1/…` until its end is in.)
        _ = try #require(first.wait { $0.first?.hasPrefix("record 000001 ") == true && $0.last?.contains("big.log.gz") == true },
                         "\(first.screen)")
        try first.keys("\(target)g")
        _ = try #require(first.wait { $0.first?.hasPrefix(label) == true }, "\(first.screen)")
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.folio(["--no-scrollbar", path], dir: dir, environment: ["LESSOPEN": ""])
        let again = try #require(second.wait { $0.last?.contains("resumed at") == true }, "\(second.screen)")
        #expect(again[0].hasPrefix(label), "\(again[0].debugDescription)")
        try second.keys("q")
    }

    /// A file that looks binary is asked about first, in less's words; `y` shows it, another
    /// key leaves it out: the next file is shown, or with none left folio ends with status 1.
    /// `-f` does not ask.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func binaryFileAsksFirst() throws {
        let dir = try E2E.temporaryDirectory()
        try E2E.write(bytes: Self.program, to: "prog", in: dir)
        try E2E.write(Self.text, to: "notes.txt", in: dir)
        let question = "\"prog\" may be a binary file.  See it anyway?"
        let pane = try FolioPane.shell("""
            cd "$T" || exit 9
            "$FOLIO_EXE" prog; echo "first=$?"
            "$FOLIO_EXE" prog notes.txt; echo "second=$?"
            "$FOLIO_EXE" prog; echo "third=$?"
            "$FOLIO_EXE" -f prog; echo "fourth=$?"; sleep 60
            """, dir: dir, environment: ["LESSOPEN": ""])
        let asked = try #require(pane.wait { $0.last?.contains(question) == true }, "\(pane.screen)")
        #expect(FolioPane.content(asked).allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(asked)")
        try pane.keys("y")
        let shown = try #require(pane.wait { $0[0].hasPrefix("^?ELF") }, "\(pane.screen)")
        #expect(shown[0].hasPrefix("^?ELF^B^A^A"), "\(shown)")
        #expect(shown.last?.hasPrefix("prog ") == true, "\(shown)")
        try pane.keys("q")
        _ = try #require(pane.wait { $0.last?.contains(question) == true }, "\(pane.screen)")
        try pane.keys("n")
        let next = try #require(pane.waitForPager(name: "notes.txt"), "\(pane.screen)")
        #expect(next[0] == "text line 1")
        try pane.keys("q")
        _ = try #require(pane.wait { $0.last?.contains(question) == true }, "\(pane.screen)")
        try pane.keys("<Esc>")
        let forced = try #require(pane.wait { $0[0].hasPrefix("^?ELF") }, "-f shows it without asking: \(pane.screen)")
        #expect(!forced.joined().contains("third="), "\(forced)")
        #expect(!forced.last!.contains("binary"), "\(forced)")
        try pane.keys("q")
        let end = try #require(pane.wait(text: "fourth="), "\(pane.screen)")
        #expect(end.contains("first=0") && end.contains("second=0") && end.contains("third=1") && end.contains("fourth=0"), "\(end)")
    }
}
