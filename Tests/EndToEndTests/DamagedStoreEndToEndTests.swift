import Foundation
import Testing

/// Issue 31 through the real binary: a damaged reading-position store is set aside, and the
/// copy's full path, which the status line cuts, is written on stderr once the terminal is
/// restored.
@Suite struct DamagedStoreEndToEndTests {
    @Test func aSetAsideStoreIsNamedInFullOnStderr() throws {
        let dir = try E2E.temporaryDirectory()
        // A state directory whose path is longer than the status line.
        let state = dir.appendingPathComponent(String(repeating: "deep-state-directory-", count: 5) + "end")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try E2E.write(bytes: Array("folio-positions 1\n{\"doc\":{\"hash\":\"00\n".utf8), to: "positions.v1", in: state)
        let pane = try FolioPane.shell("""
            "$FOLIO_EXE" SampleDocs/long.md 2> "$T/err"; echo "FOLIO-EXITED"; cat "$T/err"; sleep 60
            """, dir: dir, environment: ["FOLIO_STATE_DIR": state.path])
        let notice = "reading positions: the store was damaged"
        _ = try #require(pane.wait(text: notice), "the status line says it")
        try pane.keys("q")
        _ = try #require(pane.wait(text: "FOLIO-EXITED"))
        let err = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: state.path)
            .first { $0.hasPrefix("positions.v1.corrupt-") })
        #expect(err == "folio: \(notice); starting afresh, the old store kept as \(state.path)/\(aside)\n", "\(err)")
    }
}
