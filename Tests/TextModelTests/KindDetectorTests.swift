import Foundation
import TestSupport
import Testing
@testable import TextModel

private func sniff(_ s: String) -> DocumentKind { KindDetector.sniff(Array(s.utf8)) }

@Suite struct KindByPathTests {
    @Test(arguments: ["a.md", "dir/README.MD", "x.markdown", "x.mdown", "x.mkd", "x.mkdn", "x.mdwn", "doc.mdx", "/a.b/c.Md"])
    func markdownExtensions(path: String) {
        #expect(KindDetector.kind(forPath: path) == .markdown)
    }

    @Test(arguments: ["a.txt", "build.log", "fix.diff", "0001-x.patch", "main.c", "x.h", "tool.py", "App.swift",
                      "a.js", "data.json", "t.csv", "c.yaml", "c.yml", "Cargo.toml", "run.sh", "ls.1", "notes.rst", "x.LOG"])
    func textExtensions(path: String) {
        #expect(KindDetector.kind(forPath: path) == .text)
    }

    @Test(arguments: ["README", "CHANGELOG", "dir.md/Makefile", ".bashrc", "archive.tar.gz", "x.unknownext", "-", "", "a."])
    func otherNamesAreSniffed(path: String) {
        #expect(KindDetector.kind(forPath: path) == nil)
    }

    /// The extension as the last path component's text says it, by Characters: what
    /// `lowercasedExtension` reads byte by byte for an ASCII path.
    private static func extensionByCharacters(_ path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    @Test func theExtensionReadByBytesIsTheOneReadByCharacters() {
        // Every path of up to 6 of these (19,531), then random ones with non-ASCII in them.
        let alphabet: [String] = ["m", "D", "/", ".", "x"]
        var paths: [String] = [""]
        var level: [String] = [""]
        for _ in 1...6 {
            level = level.flatMap { p in alphabet.map { p + $0 } }
            paths += level
        }
        var random = SeededRandom(seed: 27)
        let wide: [String] = ["m", "D", "/", ".", "é", "\u{301}", "K", "\u{212A}", "\r\n", "Ä"]
        for _ in 0..<5_000 {
            paths.append((0..<Int.random(in: 0...9, using: &random)).map { _ in wide.randomElement(using: &random)! }.joined())
        }
        var differ: [String] = []
        for path in paths where KindDetector.lowercasedExtension(path) != Self.extensionByCharacters(path) {
            differ.append(path)
        }
        // And the answer from a path's bytes (what the launch asks first) is the answer by name.
        for path in paths + ["a.markdown", "B.MDX", "c.mdwn/", "/x/.md", "y.md.txt", "z.m\u{301}d"] {
            let byBytes = Array(path.utf8).withUnsafeBufferPointer(KindDetector.namesMarkdown)
            if byBytes != (KindDetector.kind(forPath: path) == .markdown) { differ.append(path) }
        }
        #expect(differ.first == nil, "\(differ.count) paths differ, such as \(differ.prefix(5))")
        #expect(KindDetector.lowercasedExtension("dir/Notes.MD/") == "md")
        #expect(KindDetector.lowercasedExtension("x.\u{212A}") == "k")  // (the Kelvin sign: not by bytes)
    }
}

@Suite struct SniffTextTests {
    @Test(arguments: [
        ("man overstrike", Corpus.manOverstrike), ("man SGR", Corpus.manSGR), ("man plain", Corpus.manPlain),
        ("ls --color", Corpus.lsColor), ("syslog", Corpus.syslog), ("build log", Corpus.buildLog),
        ("journal", Corpus.journal), ("dmesg", Corpus.dmesg), ("systemctl status", Corpus.systemctlStatus),
        ("JSON", Corpus.json), ("CSV", Corpus.csv), ("C", Corpus.cSource), ("Python", Corpus.pythonSource),
        ("YAML", Corpus.yaml), ("C header", Corpus.cHeader), ("config", Corpus.config), ("shell script", Corpus.shellScript), ("git branch", Corpus.gitBranch),
        ("empty", ""), ("blank", " \n\t\n\r\n"), ("one word", "hello\n"),
        ("NUL", "# Title\n\n- a\u{0}\n- [b](c)\n"),
        ("unified diff", "--- a/x.md\t2026-11-23\n+++ b/x.md\t2026-11-23\n@@ -1 +1 @@\n-# a\n+# b\n"),
        ("hunk", "# Notes\n\n- one\n@@ -1,3 +1,4 @@ func\n- two\n"),
        ("CRLF log", "2026-11-23 INFO start\r\n2026-11-23 INFO stop\r\n"),
    ])
    func corpus(name: String, document: String) {
        #expect(sniff(document) == .text, "\(name)")
    }

    @Test func sgrOrOverstrikeAnywhereIsText() {
        #expect(sniff(Corpus.changelog + "\u{1B}[31mred\u{1B}[0m\n") == .text)
        #expect(sniff(Corpus.changelog + "b\u{08}b\n") == .text)
        // A lone backspace or a non-SGR escape is no proof.
        #expect(sniff(Corpus.changelog + "\u{08}\n") == .markdown)
        #expect(sniff(Corpus.changelog + "\u{1B}[2J\n") == .markdown)
    }

    @Test func gitShapesInsideFencesDoNotCount() {
        let doc = """
            # Reading git output

            - run `git log -p`
            - [see](git.md)

            ```
            commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b
            diff --git a/x b/x
            @@ -1 +1 @@
            ```

            """
        #expect(sniff(doc) == .markdown)
        #expect(sniff(doc.replacingOccurrences(of: "```\n", with: "\n")) == .text)
    }

    @Test func whitespaceOnlyLinesAreBlank() {
        #expect(sniff("# Title\n   \n- a\n\t\n- [b](c)\n  \r\n") == .markdown)
        #expect(sniff("x\n    \ny\n") == .text)
    }

    @Test func pythonCommentsAloneAreNotHeadings() {
        #expect(sniff("# one\nx = 1\n# two\ny = 2\nprint(x + y)\n") == .text)
        // A comment block is never a heading, even after a blank line and before a list.
        #expect(sniff("# a\n# b\n\n- one\n- two\n") == .text)
        #expect(sniff("# a\n\n- one\n- two\n") == .markdown)
    }

    @Test func signalsMustNotBeTooRare() {
        let data = String(repeating: "0041\t005A\tLu\n", count: 200)
        #expect(sniff("# Table\n\n" + data + "\n# End\n\n- a\n") == .text)
        #expect(sniff("# Table\n\n" + data.prefix(60) + "\n# End\n\n- a\n") == .markdown)
    }

    @Test func onlyTheFirst64KBCount() {
        let markdown = Array(Corpus.changelog.utf8)
        let padding = [UInt8](repeating: UInt8(ascii: "x"), count: KindDetector.sniffLength - markdown.count)
        #expect(KindDetector.sniff(markdown + padding) == .markdown)
        #expect(KindDetector.sniff(markdown + padding + Array("\u{1B}[1mbold".utf8)) == .markdown)
        #expect(KindDetector.sniff(markdown + Array("\u{1B}[1mbold".utf8)) == .text)
    }

    @Test func frontMatterIsSkipped() {
        let frontMatter = "---\ntitle: Notes\ndate: 2026-11-23\ntags: a\nlayout: post\n---\n"
        #expect(sniff(frontMatter + "\n# Notes\n\n- one\n") == .markdown)
        #expect(sniff(frontMatter) == .text)
    }
}

@Suite struct SniffMarkdownTests {
    @Test(arguments: [
        ("changelog", Corpus.changelog), ("headings", Corpus.headingsOnly), ("setext notes", Corpus.setextNotes),
        ("table", Corpus.tableOnly), ("fence", Corpus.fenceOnly), ("list and link", Corpus.listAndLink), ("API docs", Corpus.apiDocs),
    ])
    func corpus(name: String, document: String) {
        #expect(sniff(document) == .markdown, "\(name)")
        // Line ends do not matter.
        #expect(sniff(document.replacingOccurrences(of: "\n", with: "\r\n")) == .markdown, "\(name) CRLF")
    }

    /// The repository's own Markdown files: the sample documents, README, DEVELOPERS.
    @Test func repositoryMarkdownFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("SampleDocs").path)
            .filter { $0.hasSuffix(".md") }.map { "SampleDocs/" + $0 }
        #expect(samples.count >= 3)
        for path in samples + ["README.md", "DEVELOPERS.md"] {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            #expect(KindDetector.sniff(data.prefix(KindDetector.sniffLength)) == .markdown, "\(path)")
        }
        // The man page's roff source is text.
        let roff = try Data(contentsOf: root.appendingPathComponent("man/folio.1"))
        #expect(KindDetector.sniff(roff.prefix(KindDetector.sniffLength)) == .text)
    }
}

/// Real git output, made in a temporary repository.
@Suite(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
struct SniffGitOutputTests {
    @Test(arguments: [
        ["log"], ["log", "-p"], ["log", "--stat"], ["log", "--oneline"], ["log", "--graph", "--oneline"],
        ["show", "HEAD"], ["diff", "HEAD~1"], ["diff", "--color=always", "HEAD~1"], ["log", "-p", "--color=always"],
        ["format-patch", "--stdout", "HEAD~1"], ["diff", "HEAD~1", "--", "README.md"], ["branch"],
    ])
    func gitOutputIsText(arguments: [String]) throws {
        let repository = try GitRepository.shared()
        let output = try repository.git(arguments)
        #expect(!output.isEmpty)
        #expect(KindDetector.sniff(output.prefix(KindDetector.sniffLength)) == .text,
                "git \(arguments.joined(separator: " ")):\n\(String(decoding: output.prefix(400), as: UTF8.self))")
    }
}

@Suite struct SniffHostileInputTests {
    /// Lines made to hit the scans' worst cases finish (linear scans; a quadratic one would take
    /// minutes at this size) and decide for text.
    @Test(arguments: ["](a", "\u{1B}[1", "[x](", "<http:/", "# ", "@@ -1 +", "_\u{08}"])
    func repeatedPatternsOnOneLine(unit: String) {
        let line = String(repeating: unit, count: KindDetector.sniffLength / unit.utf8.count)
        _ = KindDetector.sniff(Array(line.utf8))
        _ = TerminalTextDecoder.decode(Array(line.utf8))
    }

    @Test func randomBytesNeverCrash() {
        var random = SeededRandom(seed: 0x5E1F)
        let alphabet = Array("#-*+1. |:=`~[]()<>\n\n\n    \t\r\u{1B}\u{08}ab".utf8)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            _ = KindDetector.sniff(bytes)
        }
    }
}
