import Foundation
import Testing
@testable import Preprocess
#if canImport(Glibc)
import Glibc
#endif

/// `LESSOPEN`'s three forms and `LESSCLOSE`, with real scripts: an input pipe that copies the
/// file, one that writes nothing (exiting 0 or 1), a preprocessor that prints a replacement
/// file's name, and a postprocessor that notes what it was told.
@Suite struct PreprocessorTests {
    let dir: URL
    /// A file whose name needs quoting.
    let file: URL
    let contents = Array("the file's own text\n".utf8)

    init() throws {
        dir = try Support.temporaryDirectory()
        file = dir.appendingPathComponent("a file $(x).txt")
        try Support.write(contents, to: file)
    }

    func lessOpen(_ value: String) throws -> LessOpen { try #require(LessOpen.parse(value)).get() }
    var name: [UInt8] { Array(file.path.utf8) }

    /// `|cmd %s`: the output is the content; its first byte is read to know there is one.
    @Test func inputPipe() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Support.script(#"tr a-z A-Z < "$1""#, named: "upper", in: dir)
        let outcome = Preprocessor.open(name, with: try lessOpen("|sh \(script.path) %s"), shell: "/bin/sh")
        guard case .pipe(let fd, let first, let process) = outcome else { Issue.record("\(outcome)"); return }
        let rest = Support.readAll(fd)
        close(fd)
        Preprocessor.reap(process)
        #expect([first] + rest == Array("THE FILE'S OWN TEXT\n".utf8))
    }

    /// An input pipe that writes nothing: the file itself is shown, whatever the exit status;
    /// with `||` an exit status of 0 means the content is empty, anything else the file itself.
    @Test func silentInputPipe() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let quiet = try Support.script("exit 0", named: "quiet", in: dir)
        let failing = try Support.script("exit 1", named: "failing", in: dir)
        #expect(Preprocessor.open(name, with: try lessOpen("|sh \(quiet.path) %s"), shell: "/bin/sh") == .declined)
        #expect(Preprocessor.open(name, with: try lessOpen("|sh \(failing.path) %s"), shell: "/bin/sh") == .declined)
        #expect(Preprocessor.open(name, with: try lessOpen("||sh \(quiet.path) %s"), shell: "/bin/sh") == .empty)
        #expect(Preprocessor.open(name, with: try lessOpen("||sh \(failing.path) %s"), shell: "/bin/sh") == .declined)
        #expect(Preprocessor.open(name, with: try lessOpen("|no-such-command-here %s 2>/dev/null"), shell: "/bin/sh") == .declined)
    }

    /// `||` and output: the output is used whatever the status (it is known only at the end).
    @Test func pipeWithStatusAndOutput() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Support.script("echo made; exit 3", named: "made", in: dir)
        let outcome = Preprocessor.open(name, with: try lessOpen("||sh \(script.path) %s"), shell: "/bin/sh")
        guard case .pipe(let fd, let first, let process) = outcome else { Issue.record("\(outcome)"); return }
        #expect([first] + Support.readAll(fd) == Array("made\n".utf8))
        close(fd)
        Preprocessor.reap(process)
    }

    /// `cmd %s`: the command prints the replacement file's name (its first line), which is
    /// opened instead; `LESSCLOSE` gets both names, shell-quoted, to clean up.
    @Test func replacementFileAndPostprocessor() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let replacement = dir.appendingPathComponent("replaced copy")
        let open = try Support.script(#"tr a-z A-Z < "$1" > "$2"; echo "$2"; echo second line"#, named: "open", in: dir)
        let log = dir.appendingPathComponent("closed")
        let postprocess = try Support.script(#"printf '%s|%s' "$1" "$2" > "$3"; rm -f "$2""#, named: "close", in: dir)
        let value = "sh \(open.path) %s '\(replacement.path)'"
        let outcome = Preprocessor.open(name, with: try lessOpen(value), shell: "/bin/sh")
        #expect(outcome == .replacement(name: Array(replacement.path.utf8)))
        #expect(try Support.read(replacement) == Array("THE FILE'S OWN TEXT\n".utf8))
        let lessClose = try #require(LessClose.parse("sh \(postprocess.path) %s %s '\(log.path)'")).get()
        Preprocessor.close(name, replacement: Array(replacement.path.utf8), with: lessClose, shell: "/bin/sh")
        #expect(try Support.read(log) == Array("\(file.path)|\(replacement.path)".utf8))
        #expect(!FileManager.default.fileExists(atPath: replacement.path), "the postprocessor cleaned up")
    }

    /// A preprocessor that prints nothing: the file itself is shown.
    @Test func noReplacement() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let none = try Support.script("exit 0", named: "none", in: dir)
        #expect(Preprocessor.open(name, with: try lessOpen("sh \(none.path) %s"), shell: "/bin/sh") == .declined)
    }

    /// Standard input (with the dash) is named `-`, and the command reads folio's standard input.
    @Test func standardInputIsNamedDash() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Support.script(#"printf 'arg=%s\n' "$1""#, named: "arg", in: dir)
        let outcome = Preprocessor.open(Array("-".utf8), with: try lessOpen("|-sh \(script.path) %s"), shell: "/bin/sh")
        guard case .pipe(let fd, let first, let process) = outcome else { Issue.record("\(outcome)"); return }
        #expect([first] + Support.readAll(fd) == Array("arg=-\n".utf8))
        close(fd)
        Preprocessor.reap(process)
    }

    /// The command runs in `$SHELL` when it is set, as less runs it.
    @Test func theUsersShell() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Preprocessor.shell(environment: ["SHELL": "/bin/bash"]) == "/bin/bash")
        #expect(Preprocessor.shell(environment: ["SHELL": ""]) == "/bin/sh")
        #expect(Preprocessor.shell(environment: [:]) == "/bin/sh")
        // echo as the shell: it writes back how it was called. (A script written here for the
        // purpose could not always run: a child another test forked at that moment still held
        // it open for writing, and exec said ETXTBSY.)
        let outcome = Preprocessor.open(name, with: try lessOpen("|cat %s"), shell: "/bin/echo")
        guard case .pipe(let fd, let first, let process) = outcome else { Issue.record("\(outcome)"); return }
        let out = String(decoding: [first] + Support.readAll(fd), as: UTF8.self)
        close(fd)
        Preprocessor.reap(process)
        #expect(out.hasPrefix("-c cat "), "\(out)")
    }
}
