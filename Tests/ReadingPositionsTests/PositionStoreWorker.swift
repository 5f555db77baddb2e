import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
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
                if n % 10 == 0 { #expect(store.update { $0.mergeSearches([SearchRecord(pattern: "worker \(id) search \(n)", timestamp: now)]) } == nil) }
            }
        case "churn":
            // Save until killed, or until the test process that started it is gone (a test run
            // that crashed or was stopped must not leave its workers saving forever).
            let parent = getppid()
            var n = 0
            while getppid() == parent {
                _ = store.save(sampleEntry(workerKey(id, n % 300), n), now: Date().timeIntervalSince1970)
                n += 1
            }
        case "fsize", "fsize-aside":
            // A file size limit of `count` bytes with SIGXFSZ ignored, as folio runs: the
            // temp file's write fails with EFBIG (a new store larger than the limit).
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: rlim_t(count), rlim_max: rlim_t(count))
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
            let big = sampleEntry("/" + String(repeating: "x", count: 4 * count), 1)
            let result = store.updateReporting { $0.merge(big) }
            #expect(!result.saved)
            #expect(result.failure?.hasPrefix("reading positions not saved: write \(directory)/positions.v1.tmp-") == true)
            #expect(result.failure?.hasSuffix(String(cString: strerror(EFBIG))) == true, "\(result.failure ?? "nil")")
            if mode == "fsize-aside" {
                #expect(result.notice?.contains("kept as \(directory)/positions.v1.corrupt-") == true, "\(result.notice ?? "nil")")
                #expect(result.warning == result.notice.map { "\($0); \(result.failure ?? "")" })
            } else {
                #expect(result.notice == nil)
            }
        default:
            Issue.record("unknown worker mode \(mode)")
        }
    }
}
