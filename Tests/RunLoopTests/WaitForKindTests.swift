import Foundation
import Pager
import TerminalIO
import Testing
@testable import Session

/// A stream that has not written yet: the pager opens at once, says it waits, and `q` quits;
/// the first bytes decide the kind as if they had come at once (issue 31: `mkfifo f; folio f`
/// showed a blank screen that only Ctrl-C ended).
@Suite struct WaitForKindTests {
    /// A FIFO nobody has opened for writing, opened as folio opens one (nothing comes in
    /// 10 ms: its kind is pending), and its write end.
    static func silentPipe() throws -> (doc: LoadedDocument, write: Int32) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fifo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("input").path
        #expect(mkfifo(path, 0o600) == 0)
        switch Input.openStream(path, forced: nil, mailbox: PipeMailbox(), doc: 0, firstBytesWait: 10) {
        case .success(let doc): return (doc, open(path, O_WRONLY | O_NONBLOCK))
        case .failure(let error): throw error
        }
    }

    @Test func aSilentStreamIsOpenedWithItsKindPending() throws {
        let (doc, write) = try Self.silentPipe()
        defer { close(write) }
        #expect(doc.kindPendingFD != nil)
    }

    @Test(arguments: ["q", "Q", "\u{03}"])
    func theWaitingScreenSaysSoAndQuits(key: String) throws {
        var (doc, write) = try Self.silentPipe()
        defer { close(write) }
        let terminal = FakeTerminal(rows: 5, columns: 40, script: [.typed(key)])
        #expect(WaitForKind.wait(for: &doc, terminal: terminal, config: PagerConfig()) == .quit)
        let screen = String(decoding: terminal.writes.joined(), as: UTF8.self)
        #expect(screen.contains("Waiting for input"), "\(screen)")
    }

    @Test func theFirstBytesDecideTheKindAsIfTheyHadComeAtOnce() throws {
        var (doc, write) = try Self.silentPipe()
        defer { close(write) }
        let markdown = "# Title\n\nSome *text* and a [link](https://example.org).\n\n- one\n- two\n\n```sh\nls\n```\n"
        _ = markdown.utf8CString.withUnsafeBytes { Glibc.write(write, $0.baseAddress, markdown.utf8.count) }
        close(write)
        let terminal = FakeTerminal(rows: 5, columns: 40, script: [.mailbox])
        #expect(WaitForKind.wait(for: &doc, terminal: terminal, config: PagerConfig()) == .ready)
        #expect(doc.kind == .markdown)
        #expect(doc.kindPendingFD == nil)
        #expect(doc.bytes == Array(markdown.utf8), "ended while sniffed: whole, as a position key")
    }

    @Test func aSignalThatEndsFolioEndsTheWait() throws {
        var (doc, write) = try Self.silentPipe()
        defer { close(write) }
        let terminal = FakeTerminal(script: [.signal(.terminate)])
        #expect(WaitForKind.wait(for: &doc, terminal: terminal, config: PagerConfig()) == .signal(.terminate))
    }
}
