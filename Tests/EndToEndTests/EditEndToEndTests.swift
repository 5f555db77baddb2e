import Foundation
import Testing

/// `v` hands the terminal to `$EDITOR` at the current source line; afterwards folio reloads
/// the file and keeps the reader on the same text.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable)) struct EditEndToEndTests {
    /// The "editor": records its arguments in `args`, then puts `text` (a printf format) at
    /// the top of the file it was given (`+LINE FILE`), replacing the file as editors do.
    static func editor(in dir: URL, inserting text: String) throws -> String {
        let editor = dir.appendingPathComponent("editor.sh").path
        try """
            #!/bin/sh
            echo "$@" > "\(dir.path)/args"
            f="$2"
            { printf '\(text)'; cat "$f"; } > "$f.new" && mv "$f.new" "$f"
            """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        return editor
    }

    @Test func editorGetsTheLineAndTheReloadKeepsTheText() throws {
        let dir = try E2E.temporaryDirectory()
        let doc = dir.appendingPathComponent("long.md").path
        try FileManager.default.copyItem(atPath: E2E.sample("long.md"), toPath: doc)
        let editor = try Self.editor(in: dir, inserting: "Inserted one.\\n\\nInserted two.\\n\\nInserted three.\\n\\n")
        let pane = try FolioPane.folio(["--no-restore", "--no-scrollbar", doc], dir: dir,
                                       environment: ["EDITOR": editor, "VISUAL": ""])
        let first = try #require(pane.waitForPager(name: "long.md"))
        let paged = try #require(try pane.press("<Space><Space><Space>", from: first))
        let top = paged[0]
        try pane.keys("ma")
        try pane.keys("v")
        // The editor ran once its arguments are written.
        let argsPath = dir.appendingPathComponent("args").path
        let deadline = Date().addingTimeInterval(FolioPane.timeout)
        while !FileManager.default.fileExists(atPath: argsPath) && Date() < deadline { usleep(20_000) }
        let args = try String(contentsOfFile: argsPath, encoding: .utf8)
        #expect(args.hasPrefix("+"), "the editor was given +LINE")
        let line = Int(args.dropFirst().prefix { $0.isNumber }) ?? 0
        #expect(line > 1, "a source line past the top")
        // The document was reloaded: its new first paragraph is at the top...
        try pane.keys("g")
        #expect(pane.wait { $0.first?.hasPrefix("Inserted one.") == true } != nil)
        // ...and the view after the reload (where `''` returns) showed the same text on top.
        try pane.keys("''")
        #expect(pane.wait { $0.first == top } != nil, "the same text on the top row after the reload")
        // A mark set before editing still points at the same text.
        try pane.keys("g")
        _ = pane.wait { $0.first?.hasPrefix("Inserted one.") == true }
        try pane.keys("'a")
        #expect(pane.wait { $0.first == top } != nil, "mark a survives the reload")
    }

    /// A log edited with `v` is read again as the text it is — it was parsed as Markdown, so
    /// `*star*` became emphasis and the lines ran together — with the same line on top.
    @Test func anEditedTextFileStaysText() throws {
        let dir = try E2E.temporaryDirectory()
        let log = dir.appendingPathComponent("app.log").path
        try (1...300).map { "2026-11-25 12:00:\($0) *star* _under_ event \($0)" }.joined(separator: "\n")
            .appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
        let editor = try Self.editor(in: dir, inserting: "# inserted first line\\n")
        let pane = try FolioPane.folio(["--no-restore", "--no-scrollbar", log], dir: dir,
                                       environment: ["EDITOR": editor, "VISUAL": ""])
        let first = try #require(pane.waitForPager(name: "app.log"))
        let paged = try #require(try pane.press("<Space><Space>", from: first))
        let top = paged[0]
        #expect(top.contains("*star* _under_"))
        try pane.keys("v")
        let reloaded = try #require(pane.wait { screen in
            screen.first == top && screen.last?.contains("app.log") == true
        })
        #expect(reloaded.dropLast().allSatisfy { $0.isEmpty || $0.contains("*star* _under_ event") }, "\(reloaded)")
        try pane.keys("g")
        #expect(pane.wait { $0.first?.hasPrefix("# inserted first line") == true } != nil, "a text line, not a heading")
    }
}
