import Foundation

/// Temporary folders for tests, all of one test process under one parent,
/// `$TMPDIR/folio-tests-PID/`. Swift Testing has no hook that runs after the last test, so a
/// run cannot remove its own parent; instead the first folder a run makes removes the parents
/// of runs whose process has ended. Without that, every run of the suite left thousands of
/// folders behind (one per end-to-end test).
public enum ScratchDirectory {
    static let prefix = "folio-tests-"

    /// This process's parent folder, made (and earlier runs' reaped) on first use.
    static let parent: URL = {
        let tmp = FileManager.default.temporaryDirectory
        reapEndedRuns(in: tmp)
        return tmp.appendingPathComponent("\(prefix)\(getpid())")
    }()

    /// A fresh folder named after `label` (a word saying which test made it).
    public static func make(_ label: String) throws -> URL {
        let url = parent.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes `folio-tests-PID` folders whose process no longer runs (`kill(pid, 0)` fails
    /// with ESRCH; a live process of another user answers EPERM and is left alone).
    static func reapEndedRuns(in tmp: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: tmp.appendingPathComponent(name))
            }
        }
    }
}
