import Foundation
import Pager
import TerminalIO
import Testing
@testable import Session

/// The run loop carries out `!`, `|`, `s` and `:e` (with Tab): each file and command real,
/// in a temporary folder; the terminal is the scripted fake.
@Suite(.serialized) struct ShellCommandRunLoopTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shell-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func run(_ script: [FakeTerminal.Step]) throws -> (RunLoopHarness, FakeTerminal) {
        let terminal = FakeTerminal(rows: 6, script: script)
        var h = try RunLoopHarness(terminal: terminal)
        h.loop.mailbox = PipeMailbox()
        _ = h.run()
        return (h, terminal)
    }

    /// `!cmd`: the terminal handed over, the command run through the shell, `!done  (press
    /// RETURN)` waited for, everything drawn again afterwards.
    @Test func shellCommandRunsWithTheTerminalHandedOver() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let (h, terminal) = try Self.run([.typed("!echo hi > '\(out)'\r")])
        defer { h.removeStateDirectory() }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "hi\n")
        let calls = terminal.calls
        let handOver = try #require(calls.firstIndex(of: .handOver))
        #expect(calls[handOver...].contains(.pressReturn("!done")))
        #expect(calls[(handOver + 1)...].contains { if case .write = $0 { true } else { false } }, "drawn again after")
    }

    /// `|.`: the screen's source lines to the command's standard input.
    @Test func pipeSendsTheScreensSourceLines() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("piped").path
        let (h, terminal) = try Self.run([.typed("|.cat > '\(out)'\r")])
        defer { h.removeStateDirectory() }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "line 1\n\nline 2\n\nline 3\n")
        #expect(terminal.calls.contains(.pressReturn("|done")))
    }

    /// `s`: the input saved; a file that exists is asked about: `a` appends, `d` leaves it.
    @Test func saveWritesTheInputAndNeverOverwritesUnasked() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("saved.md").path
        let input = RunLoopHarness.twentyLines
        var (h, _) = try Self.run([.typed("s\(out)\r")])
        h.removeStateDirectory()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == input)
        #expect(h.loop.state.message?.hasPrefix("Saved \(input.utf8.count) bytes") == true)
        (h, _) = try Self.run([.typed("s\(out)\r"), .typed("a")])
        h.removeStateDirectory()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == input + input)
        (h, _) = try Self.run([.typed("s\(out)\r"), .typed("d")])
        h.removeStateDirectory()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == input + input, "d: not saved")
        #expect(h.loop.state.message == "Not saved")
        (h, _) = try Self.run([.typed("s\(out)\r"), .typed("o")])
        h.removeStateDirectory()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == input)
    }

    /// `:e FILE` opens it after the current file; Tab completes a name in its folder.
    @Test func examineOpensTheFileAndTabCompletes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "# Alpha\n\ntext\n".write(toFile: dir.appendingPathComponent("alpha.md").path, atomically: true, encoding: .utf8)
        try "alpine\n".write(toFile: dir.appendingPathComponent("alpine.txt").path, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("album"), withIntermediateDirectories: true)
        let (tab, _) = try Self.run([.typed(":e\(dir.path)/alp\t")])
        tab.removeStateDirectory()
        #expect(tab.loop.state.prompt?.editor.text == "\(dir.path)/alpha.md", "alpha.md and alpine.txt share alp: offered in turn")
        let (al, _) = try Self.run([.typed(":e\(dir.path)/a\t")])
        al.removeStateDirectory()
        #expect(al.loop.state.prompt?.editor.text == "\(dir.path)/al", "cut to what they share")
        let (one, _) = try Self.run([.typed(":e\(dir.path)/alb\t")])
        one.removeStateDirectory()
        #expect(one.loop.state.prompt?.editor.text == "\(dir.path)/album/", "a folder ends in /")
        let (h, _) = try Self.run([.typed(":e\(dir.path)/alpha.md\r")])
        h.removeStateDirectory()
        #expect(h.loop.state.current == 1)
        #expect(h.loop.state.documents[1].name.hasSuffix("alpha.md"))
        #expect(h.loop.state.fileList == [0, 1])
    }
}
