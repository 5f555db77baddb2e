import Foundation
import TestSupport

/// A small git repository in a temporary directory, made once per test run, whose history has
/// Markdown, C and Python files (so `git log -p` holds Markdown-looking lines).
final class GitRepository: Sendable {
    let directory: URL

    static let gitAvailable: Bool = {
        (try? run(["--version"], in: FileManager.default.temporaryDirectory)) != nil
    }()

    private static let made: Result<GitRepository, Error> = Result { try GitRepository() }
    static func shared() throws -> GitRepository { try made.get() }

    private init() throws {
        // (Under the run's scratch folder: the shared repository lives as long as the process,
        // so its `deinit` never ran and every run left one behind.)
        directory = try ScratchDirectory.make("git-repository")
        try git(["init", "-q", "-b", "main"])
        try write("README.md", "# Demo\n\nA demo.\n\n- one\n- two\n\n```sh\nmake\n```\n")
        try write("main.c", "#include <stdio.h>\n\nint main(void)\n{\n    return 0;\n}\n")
        try write("tool.py", "# A tool\n\nimport sys\n\nprint(sys.argv)\n")
        try git(["add", "."])
        try git(["commit", "-q", "-m", "Add the demo files"])
        try write("README.md", "# Demo\n\nA demo, see [the tool](tool.py).\n\n## Usage\n\n- one\n- two\n- three\n\n```sh\nmake\n```\n\n| a | b |\n|---|---|\n")
        try write("main.c", "#include <stdio.h>\n\nint main(void)\n{\n    puts(\"hi\");\n    return 0;\n}\n")
        try git(["commit", "-q", "-a", "-m", "Say hi\n\n- explain usage\n- [link](x)\n"])
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    @discardableResult
    func git(_ arguments: [String]) throws -> Data { try Self.run(arguments, in: directory) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ arguments: [String], in directory: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "core.pager=cat", "-c", "color.ui=never"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("GIT_") { environment[key] = nil }
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["GIT_AUTHOR_NAME"] = "Folio Test"
        environment["GIT_AUTHOR_EMAIL"] = "test@example.com"
        environment["GIT_COMMITTER_NAME"] = "Folio Test"
        environment["GIT_COMMITTER_EMAIL"] = "test@example.com"
        environment["GIT_PAGER"] = "cat"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "git \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }
}
