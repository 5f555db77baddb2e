import Foundation
@testable import LessOptions
import Testing

/// The completion scripts are made from the option table: every option offered, in the
/// syntax each shell reads (checked by the shell itself where it is installed).
@Suite struct CompletionsTests {
    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(arguments: Completions.Shell.allCases)
    func everyVisibleOptionIsOffered(shell: Completions.Shell) {
        let script = Completions.script(for: shell)
        for spec in OptionTable.all where !spec.hidden {
            #expect(script.contains(spec.names[0]), "\(shell): --\(spec.names[0])")
        }
        #expect(!script.contains("'no-restore'") && !script.contains("--no-restore"), "hidden aliases are not offered")
    }

    /// `bash -n`, `zsh -n`, `fish -n` on the script, where the shell is installed.
    @Test(arguments: Completions.Shell.allCases)
    func theShellReadsIt(shell: Completions.Shell) throws {
        guard let path = Self.shell(shell.rawValue) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("folio-completion-\(UUID().uuidString)")
        try Completions.script(for: shell).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["-n", file.path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0, "\(message)")
    }

    /// bash completes a prefix to the options it starts (less's `-?`, `-#`, `-"` do not turn
    /// into globs or quotes on the way).
    @Test func bashCompletesAPrefix() throws {
        guard let bash = Self.shell("bash") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bash)
        let script = Completions.script(for: .bash)
            + "COMP_WORDS=(folio --fo); COMP_CWORD=1; _folio; echo \"${COMPREPLY[*]}\"\n"
        p.arguments = ["-c", script]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let words = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(Set(words) == ["--force", "--follow-name", "--form-feed", "--forget"])
    }
}
