import Foundation
import Testing
@testable import Session

/// Issue 31: what happened to the reading-position store is said on stderr when folio ends
/// (`PositionsBridge.reportAtExit`, written after the terminal is restored), in full: the
/// status line cuts a long path, and is gone by then.
@Suite struct PositionsReportTests {
    func storePath(_ h: RunLoopHarness) -> String { h.stateDirectory.appendingPathComponent("positions.v1").path }

    func names(_ h: RunLoopHarness) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: h.stateDirectory.path)) ?? []).sorted()
    }

    /// A damaged store found by the save at `q`: set aside, and the copy's full path is in
    /// the report.
    @Test func aStoreSetAsideAtTheEndIsNamedInFull() throws {
        let terminal = FakeTerminal(script: [.typed("jjq")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        #expect(FileManager.default.createFile(atPath: storePath(h), contents: Data("not a store\n".utf8)))
        #expect(h.run() == .quit(status: 0))
        let aside = try #require(names(h).first { $0.hasPrefix("positions.v1.corrupt-") })
        #expect(h.loop.positions.reportAtExit == [
            "reading positions: the store was damaged; starting afresh, the old store kept as \(storePath(h)).\(aside.dropFirst("positions.v1.".count))",
        ])
        #expect(h.hasSavedPosition())
    }

    /// A damaged record: kept through the saves of the position and the search history,
    /// and reported once, naming the store.
    @Test func aDamagedRecordIsKeptAndReportedOnce() throws {
        let terminal = FakeTerminal(script: [.typed("jj/line 9\rq")])
        var h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        let torn = "{\"doc\":{\"hash\":\"0000000000000001\",\"key\":\"/torn.md\",\"po"
        #expect(FileManager.default.createFile(atPath: storePath(h), contents: Data("folio-positions 1\n{\"search\":{\"pattern\":\"old\",\"time\":1}}\n\(torn)\n".utf8)))
        #expect(h.run() == .quit(status: 0))
        #expect(h.loop.positions.reportAtExit == [
            "reading positions: a damaged record in \(storePath(h)) cannot be read; it is kept as it is",
        ])
        let lines = try String(contentsOfFile: storePath(h), encoding: .utf8).split(separator: "\n")
        #expect(lines.last == Substring(torn))
        #expect(lines.contains { $0.hasPrefix("{\"search\":{\"pattern\":\"line 9\"") })
        #expect(h.hasSavedPosition())
        #expect(names(h) == ["positions.v1", "positions.v1.lock"])
    }
}
