import Foundation
import LessOptions
import Testing

/// Every option of the table is in the man page's OPTIONS and in the README, so an option added
/// to the table cannot go undocumented.
@Suite struct DocumentedOptionsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The man page's OPTIONS section as plain text (`\-` is `-`).
    static func manOptions() throws -> String {
        let man = try String(contentsOf: root.appendingPathComponent("man/folio.1"), encoding: .utf8)
        let start = try #require(man.range(of: ".SH OPTIONS\n"))
        let end = try #require(man.range(of: ".SH STREAMS\n"))
        return String(man[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\(dq", with: "\"")
            .replacingOccurrences(of: "\\(ti", with: "~")
    }

    @Test func theManPageDescribesEveryOption() throws {
        let man = try Self.manOptions()
        for spec in OptionTable.all {
            #expect(man.contains("--\(spec.names[0])"), "--\(spec.names[0])")
            if let letter = spec.letter { #expect(man.contains("-\(letter)"), "-\(letter)") }
        }
    }

    @Test func theReadmeNamesEveryOption() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for spec in OptionTable.all where !spec.hidden {
            let spelling = spec.letter.map { "-\($0)" } ?? "--\(spec.names[0])"
            #expect(readme.contains(spelling), "\(spelling)")
        }
    }
}
