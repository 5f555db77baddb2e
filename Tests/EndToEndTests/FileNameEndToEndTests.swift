import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31: files less opens, folio opens too — a name that is not UTF-8 (`caf\xE9.md`:
/// names are bytes; shown `caf<E9>.md`), and files whose size says nothing of their content
/// (/proc, /sys: read as streams).
@Suite struct FileNameEndToEndTests {
    /// `caf` 0xE9 `.EXTENSION`: Latin-1's é, not UTF-8.
    static func byteName(_ ext: String) -> [UInt8] { Array("caf".utf8) + [0xE9] + Array(".\(ext)".utf8) }

    /// Creates `name` (bytes) in `dir` with `contents`; Foundation's paths are strings and
    /// could not name it.
    static func create(_ name: [UInt8], in dir: URL, contents: String) throws {
        let path = Array(dir.path.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { throw TmuxError(description: "cannot create the test file: errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    static let markdown = "# Café\n\n" + (1...80).map { "Paragraph \($0).\n" }.joined(separator: "\n")
    static let text = (1...200).map { "text line \($0)\n" }.joined()

    /// Print mode opens both kinds by their byte names (the shell passes the bytes as they
    /// are: `printf 'caf\351.md'`); a missing one is named `caf<E9>…` on stderr.
    @Test func byteNamedFilesOpenInPrintMode() throws {
        let dir = try E2E.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.create(Self.byteName("md"), in: dir, contents: Self.markdown)
        try Self.create(Self.byteName("txt"), in: dir, contents: Self.text)
        let script = """
            cd "$T" || exit 9
            "$FOLIO_EXE" --print --width 40 "$(printf 'caf\\351.md')" || echo "md failed $?"
            "$FOLIO_EXE" --print "$(printf 'caf\\351.txt')" | tail -n 1
            "$FOLIO_EXE" --print "$(printf 'caf\\351.missing')"; echo "missing status $?"
            "$FOLIO_EXE" "$(printf -- '--caf\\351')" 2>&1 | head -n 1
            """
        let result = try Subprocess.run("/bin/sh", ["-c", script],
                                        environment: ["FOLIO_EXE": try E2E.folio(), "T": dir.path, "LC_ALL": "C.UTF-8",
                                                      "FOLIO_STATE_DIR": dir.appendingPathComponent("state").path],
                                        timeout: 60)
        #expect(!result.timedOut)
        let out = String(decoding: result.stdout, as: UTF8.self)
        let err = String(decoding: result.stderr, as: UTF8.self)
        #expect(out.contains("Café"), "\(out)")
        #expect(out.contains("Paragraph 80."), "\(out)")
        #expect(!out.contains("md failed"), "\(out) \(err)")
        #expect(out.contains("text line 200\n"), "\(out)")
        #expect(out.contains("missing status 1"), "\(out)")
        #expect(err == "folio: caf<E9>.missing: No such file or directory\n", "\(err)")
        #expect(out.contains("folio: There is no --caf<E9> option"), "an argument's bytes in a message: \(out)")
    }

    /// The pager opens a byte-named file of each kind, names it `caf<E9>.…` on the status
    /// line, and keeps its reading position under that name: opened again, it is where it was
    /// left.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"), arguments: ["md", "txt"])
    func byteNamedFilesOpenInThePagerAndKeepTheirPlace(ext: String) throws {
        let dir = try E2E.temporaryDirectory()
        try Self.create(Self.byteName(ext), in: dir, contents: ext == "md" ? Self.markdown : Self.text)
        let pane = try FolioPane.shell("""
            cd "$T" || exit 9; N="$(printf 'caf\\351.\(ext)')"; "$FOLIO_EXE" "$N"; "$FOLIO_EXE" "$N"; \
            echo "status=$?"; echo SECOND-DONE; sleep 60
            """, dir: dir)
        let first = try #require(pane.waitForPager(name: "caf<E9>.\(ext)"))
        #expect(!first.joined().contains("\u{FFFD}"))
        #expect(first.joined().contains(ext == "md" ? "Paragraph 1." : "text line 1"))
        let moved = try #require(try pane.press("<Space>", from: first))
        let top = moved[0]
        try pane.keys("q")
        // The second folio's first screen: its status row says where it resumed.
        let again = try #require(pane.wait { $0.last?.hasPrefix("resumed at") == true }, "\(pane.screen)")
        #expect(again[0] == top, "the place is kept: \(again[0]) vs \(top)")
        try pane.keys("q")
        let end = try #require(pane.wait(text: "SECOND-DONE"))
        #expect(end.contains { $0.contains("status=0") })
    }

    /// The editor (`v`) gets the file's own bytes, and the file is watched under its byte
    /// name: the editor's change and one made from outside are both read again.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func aByteNamedFileIsEditedAndWatched() throws {
        let dir = try E2E.temporaryDirectory()
        let name = Self.byteName("md")
        try Self.create(name, in: dir, contents: Self.markdown)
        let editor = dir.appendingPathComponent("editor.sh").path
        try """
            #!/bin/sh
            printf '%s' "$2" > "\(dir.path)/args"
            f="$2"
            { printf 'Inserted by the editor.\\n\\n'; cat "$f"; } > "$f.new" && mv "$f.new" "$f"
            """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let pane = try FolioPane.shell(#"cd "$T" || exit 9; "$FOLIO_EXE" --no-restore "$(printf 'caf\351.md')"; sleep 60"#,
                                       dir: dir, environment: ["EDITOR": editor, "VISUAL": ""])
        _ = try #require(pane.waitForPager(name: "caf<E9>.md"))
        try pane.keys("v")
        _ = try #require(pane.wait { $0.contains { $0.hasPrefix("Inserted by the editor.") } }, "\(pane.screen)")
        let args = Array(try Data(contentsOf: dir.appendingPathComponent("args")))
        #expect(args.count > name.count && Array(args.suffix(name.count + 1)) == [0x2F] + name, "\(args)")
        try Self.create(name, in: dir, contents: "# Café\n\nRewritten from outside.\n")
        #expect(pane.wait(text: "Rewritten from outside.") != nil, "\(pane.screen)")
    }

    // MARK: Files whose size says nothing

    /// `folio --print /proc/cpuinfo` prints every line, as cat does (before: none; /proc
    /// files say they hold 0 bytes).
    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/cpuinfo"), "no /proc"))
    func procFilesPrintWhole() throws {
        let script = """
            "$FOLIO_EXE" --print /proc/cpuinfo | wc -l; cat /proc/cpuinfo | wc -l
            "$FOLIO_EXE" --print /proc/version | cmp - /proc/version && echo version-same
            "$FOLIO_EXE" --print --width 60 /proc/self/status | grep -c '^Name:'
            """
        let result = try Subprocess.run("/bin/sh", ["-c", script], environment: ["FOLIO_EXE": try E2E.folio()], timeout: 60)
        #expect(!result.timedOut)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        #expect(Int(lines[0]) ?? 0 > 0)
        #expect(lines[0] == lines[1], "folio \(lines[0]) lines, cat \(lines[1])")
        #expect(lines[2] == "version-same")
        #expect(lines[3] == "1")
    }

    /// A /sys attribute says 4,096 bytes whatever it holds: printed as cat prints it (before:
    /// its text, then NULs up to 4,096 bytes).
    @Test func sysFilesPrintAsTheyRead() throws {
        let candidates = ["/sys/kernel/osrelease", "/sys/devices/system/cpu/online", "/sys/class/net/lo/address"]
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else { return }
        let result = try E2E.run(["--print", path], environment: ["LC_ALL": "C.UTF-8"])
        #expect(result.status == 0)
        #expect(result.stdout == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The pager shows a /proc file too.
    @Test(.enabled(if: TmuxSession.isAvailable && FileManager.default.isReadableFile(atPath: "/proc/version"), "tmux or /proc missing"))
    func procFilesOpenInThePager() throws {
        let pane = try FolioPane.folio(["/proc/version"])
        let screen = try #require(pane.waitForPager(name: "/proc/version"))
        #expect(screen.joined().contains("Linux version"), "\(screen)")
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }
}
