import Foundation
import Testing

/// Reading positions of text over the whole-hash limit (256 KB): a generated 18 MB log
/// reopens on the line it was left at, also after lines were added above it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct LargeTextPositionsEndToEndTests {
    let dir: URL
    let log: String

    /// 300,000 lines of 60 bytes: `record 000123 ` and filler.
    init() throws {
        dir = try E2E.temporaryDirectory()
        log = dir.appendingPathComponent("big.log").path
        try Self.write(to: log, prefix: "")
    }

    static func write(to path: String, prefix: String) throws {
        var text = prefix
        text.reserveCapacity(18 << 20)
        let filler = String(repeating: "-", count: 44)
        for i in 1...300_000 {
            let n = String(i)
            text += "record " + String(repeating: "0", count: 6 - n.count) + n + " " + filler + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Opens the log, goes to `line`, waits for it on the top row and quits.
    private func leave(at line: Int) throws {
        let pane = try FolioPane.folio(["--no-scrollbar", log], dir: dir)
        _ = try #require(pane.waitForPager(name: "big.log"))
        try pane.keys("\(line)g")
        let screen = try #require(pane.wait { $0.first?.hasPrefix("record \(line) ") == true })
        #expect(screen[0].hasPrefix("record \(line) "))
        try pane.keys("q")
        #expect(pane.tmux.waitForExit(timeout: FolioPane.timeout))
    }

    private func reopen() throws -> [String] {
        let pane = try FolioPane.folio(["--no-scrollbar", log], dir: dir)
        return try #require(pane.wait { $0.last?.contains("resumed at") == true })
    }

    @Test func reopensOnTheSameLine() throws {
        try leave(at: 212_345)
        let screen = try reopen()
        #expect(screen[0].hasPrefix("record 212345 "), "\(screen[0].debugDescription)")
        // Line 212,345 of 300,000 equal lines: 70 % of the way, whatever is indexed yet.
        #expect(screen.last?.contains("resumed at 70%") == true, "\(screen.last ?? "")")
    }

    /// A pipe is known by its first 64 KB. Piped text is command output: by default it opens
    /// at the top again, and is not read on to its old place (`RestorePolicy`).
    @Test func pipedLogOpensAtTheTopAgain() throws {
        let script = "cat \(log.shellQuoted) | \"$FOLIO_EXE\" --no-scrollbar"
        let first = try FolioPane.shell(script, dir: dir)
        // Still being read: the status line says `p1/…`.
        _ = try #require(first.wait { $0.first?.hasPrefix("record 000001 ") == true && $0.last?.contains("stdin") == true })
        // (`G` reads the pipe to its end, so that line 123456 is in.)
        try first.keys("G")
        _ = try #require(first.wait { $0.contains { $0.hasPrefix("record 300000 ") } })
        try first.keys("123456g")
        _ = try #require(first.wait { $0.first?.hasPrefix("record 123456 ") == true })
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.shell(script, dir: dir)
        let again = try #require(second.wait { $0.first?.hasPrefix("record 000001 ") == true && $0.last?.contains("stdin") == true })
        Thread.sleep(forTimeInterval: 0.5)
        #expect(second.screen[0].hasPrefix("record 000001 "), "stays at the top: \(again[0].debugDescription)")
    }

    /// A text file larger than a slice of the line index (8 MB, found between keys) but
    /// once under the whole-hash limit (16 MB then): it was restored against the lines found
    /// so far and reopened far from its place (line 82,834 of 2,000,000 for 1,000,000).
    @Test func aFileLargerThanOneIndexSliceReopensOnItsLine() throws {
        let numbers = dir.appendingPathComponent("numbers.txt").path
        try (1...1_600_000).map(String.init).joined(separator: "\n").appending("\n")
            .write(toFile: numbers, atomically: false, encoding: .utf8)
        let first = try FolioPane.folio(["--no-scrollbar", numbers], dir: dir)
        _ = try #require(first.waitForPager(name: "numbers.txt"))
        try first.keys("1500000g")
        _ = try #require(first.wait { $0.first == "1500000" })
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.folio(["--no-scrollbar", numbers], dir: dir)
        let screen = try #require(second.wait { $0.last?.contains("resumed at") == true })
        #expect(screen.first == "1500000", "\(screen.first ?? "")")
    }

    /// A log under the whole-hash limit when opened that grows far past it while followed:
    /// its place in the new lines is kept as a large text's, with its byte offset (it was
    /// kept as a whole-hashed text's, with none, and reopened ~2.5 MB in, far from it).
    @Test func aFollowedLogThatGrowsPastTheLimitReopensOnItsLine() throws {
        let small = dir.appendingPathComponent("small.log").path
        func records(_ range: ClosedRange<Int>) -> String {
            range.map { "record " + String(repeating: "0", count: 6 - String($0).count) + String($0) + " " + String(repeating: "-", count: 44) + "\n" }.joined()
        }
        try records(1...3_000).write(toFile: small, atomically: false, encoding: .utf8)  // 180 KB
        let first = try FolioPane.folio(["--no-scrollbar", small], dir: dir)
        _ = try #require(first.waitForPager(name: "small.log"))
        try first.keys("F")
        _ = try #require(first.wait { $0.last?.contains("following") == true })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: small))
        handle.seekToEndOfFile()
        handle.write(Data(records(3_001...50_000).utf8))  // 3 MB in all
        try handle.close()
        _ = try #require(first.wait { $0.contains { $0.hasPrefix("record 050000 ") } })
        try first.keys("<C-c>")
        try first.keys("45000g")
        _ = try #require(first.wait { $0.first?.hasPrefix("record 045000 ") == true })
        try first.keys("q")
        #expect(first.tmux.waitForExit(timeout: FolioPane.timeout))
        let second = try FolioPane.folio(["--no-scrollbar", small], dir: dir)
        let screen = try #require(second.wait { $0.last?.contains("resumed at") == true })
        #expect(screen.first?.hasPrefix("record 045000 ") == true, "\(screen.first ?? "")")
    }

    @Test func linesAddedAboveAreFollowed() throws {
        try leave(at: 150_000)
        try Self.write(to: log, prefix: "a new first line\nand a second\n")
        let screen = try reopen()
        #expect(screen[0].hasPrefix("record 150000 "), "\(screen[0].debugDescription)")
    }
}
