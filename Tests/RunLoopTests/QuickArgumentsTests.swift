import ArgumentParser
import Testing
@testable import folio

/// The hand parser for common command lines agrees with ArgumentParser on every field, and
/// leaves to it whatever it does not handle (values it cannot check, unknown flags).
@Suite struct QuickArgumentsTests {
    static func parsed(_ arguments: [String]) throws -> Options {
        var options = try Options.parse(arguments)
        try options.validate()
        return options
    }

    @Test(arguments: [
        ["README.md"], ["-"], [], ["-FX"], ["-SN", "a.log", "b.md"], ["--no-init", "--", "-odd-name"],
        ["--theme=light", "x.md"], ["--theme=auto"], ["--color=never", "--print"], ["--max-width=0"],
        ["--max-width=72", "--align=center", "doc.md"], ["-M", "--text", "--mouse"],
    ])
    func agreesWithArgumentParser(arguments: [String]) throws {
        let quick = try #require(QuickArguments.parse(arguments), "handled by hand: \(arguments)")
        #expect(quick.summary == (try Self.parsed(arguments)).summary)
    }

    @Test(arguments: [
        ["--theme=bogus"], ["--max-width=-3"], ["--max-width=x"], ["--width", "40"], ["--theme", "dark"],
        ["--unknown"], ["-p", "pattern"], ["-z5"],
    ])
    func leavesTheRestToArgumentParser(arguments: [String]) {
        #expect(QuickArguments.parse(arguments) == nil)
    }
}
