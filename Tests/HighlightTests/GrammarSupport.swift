import Foundation
import GrammarLoader
import Highlight
import LineLayout
import Styling

/// Grammars as the binary finds them (`GrammarLoader.searchPath`), from the test bundle's
/// directory, which is the `folio` executable's (`.build/debug`): `make grammars` (run by
/// `make test`) builds them into `.build-grammars`. Without them, grammar tests are skipped
/// with a message, unless FOLIO_REQUIRE_GRAMMARS is set (`make test` sets it): then they fail.
enum TestGrammars {
    static let loader: GrammarLoader = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let dir = URL(fileURLWithPath: exe).deletingLastPathComponent().path
        return GrammarLoader(searchPath: GrammarLoader.searchPath(executableDirectory: dir,
                                                                  environment: ProcessInfo.processInfo.environment))
    }()
    static let required = ProcessInfo.processInfo.environment["FOLIO_REQUIRE_GRAMMARS"] != nil

    /// A seed of `Fuzz/corpus/highlight`: its first byte picks the language, the rest is code.
    static func fuzzSeed(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bytes = try Data(contentsOf: root.appendingPathComponent("Fuzz/corpus/highlight/\(name)"))
        return String(decoding: bytes.dropFirst(), as: UTF8.self)
    }
    static var available: Bool { required || loader.grammar("python") != nil }

    static let codeHighlighter: CodeHighlighter = {
        let h = loader.highlighter()
        return CodeHighlighter { info, code in h.highlight(info: info, code: code) }
    }()

    /// One letter per role, for role strings under code: ` ` no role.
    static func letter(_ role: SyntaxRole?) -> Character {
        switch role {
        case nil: return " "
        case .keyword?: return "k"
        case .string?: return "s"
        case .escape?: return "e"
        case .comment?: return "c"
        case .number?: return "n"
        case .constant?: return "K"
        case .type?: return "t"
        case .function?: return "f"
        case .variable?: return "v"
        case .property?: return "p"
        case .operator?: return "o"
        case .punctuation?: return "."
        case .tag?: return "T"
        case .attribute?: return "a"
        case .builtin?: return "b"
        case .label?: return "l"
        case .inserted?: return "+"
        case .deleted?: return "-"
        case .meta?: return "m"
        case .heading?: return "h"
        }
    }

    /// `code` with a role letter under each byte (ASCII code).
    static func roles(_ runs: [SyntaxRun], in code: String) -> String {
        var out = Array(repeating: Character(" "), count: code.utf8.count)
        for r in runs { for i in r.range { out[i] = letter(r.role) } }
        for (i, b) in code.utf8.enumerated() where b == 0x0A { out[i] = "\n" }
        return String(out)
    }
}
