import Foundation
import Testing
@testable import ReadingPositions

/// The body of the child processes `PositionStoreTests` starts; skipped in ordinary runs.
@Suite struct PositionStoreWorker {
    static let job = ProcessInfo.processInfo.environment[Worker.variable]

    @Test(.enabled(if: job != nil, "runs only inside a child process of PositionStoreTests"))
    func work() throws {
        let parts = try #require(Self.job).split(separator: "\n", maxSplits: 3).map(String.init)
        let (mode, id, count, directory) = (parts[0], Int(parts[1])!, Int(parts[2])!, parts[3])
        let store = PositionStore(directory: directory)
        switch mode {
        case "save":
            // `count` saves of distinct documents, one shared document, and searches.
            for n in 0..<count {
                let now = Date().timeIntervalSince1970
                #expect(store.save(sampleEntry(workerKey(id, n), n), now: now) == nil)
                #expect(store.save(sampleEntry("/shared.md", n, marks: [Character(UnicodeScalar(UInt8(65 + id))): samplePosition(id)]), now: now) == nil)
                if n % 10 == 0 { #expect(store.recordSearch("worker \(id) search \(n)", now: now) == nil) }
            }
        case "churn":
            // Save until killed.
            var n = 0
            while true {
                _ = store.save(sampleEntry(workerKey(id, n % 300), n), now: Date().timeIntervalSince1970)
                n += 1
            }
        default:
            Issue.record("unknown worker mode \(mode)")
        }
    }
}
