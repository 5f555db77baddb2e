import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ReadingPositions

/// A fresh directory under the system temp directory, removed afterwards. Tests never touch
/// the real state directory.
func withTempDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("folio-positions-test-\(getpid())-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    return try body(dir)
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
}

func fileMode(_ path: String) -> mode_t? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return st.st_mode & 0o777
}

func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

func names(in dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}

/// Entries saved by worker `id`: `/worker<id>/doc<n>.md`.
func workerKey(_ id: Int, _ n: Int) -> String { "/worker\(id)/doc\(n).md" }

/// Child processes: this same test binary, running only `PositionStoreWorker` with a job in
/// the environment. (Separate processes, so each has its own open file descriptions and the
/// `flock` between them is the real thing.)
enum Worker {
    static let variable = "FOLIO_POSITIONS_TEST_WORKER"

    static func start(mode: String, directory: String, id: Int, count: Int) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        p.arguments = ["--testing-library", "swift-testing", "--filter", "PositionStoreWorker"]
        var env = ProcessInfo.processInfo.environment
        env[variable] = [mode, String(id), String(count), directory].joined(separator: "\n")
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
}
