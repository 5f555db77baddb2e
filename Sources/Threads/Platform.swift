import CPlatform
#if canImport(Glibc)
import Glibc
#endif

/// What the machine is, and the memory calls folio makes, asked of the system here and
/// nowhere else: pure modules use these instead of calling `sysconf` or `madvise`, and the
/// heap's controls come from a C shim (`CPlatform`), not from symbols looked up by name.
public enum Platform {
    /// Processors online now (at least 1).
    public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The size of a memory page in bytes (at least 1).
    public static let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))

    /// Gives the pages of `pages` back to the system (`pages` starts on a page and holds whole
    /// pages): they read as zeros from then on. The caller owns the memory alone and needs
    /// nothing in it again.
    public static func releasePages(_ pages: UnsafeMutableRawBufferPointer) {
        guard let start = pages.baseAddress, pages.count > 0 else { return }
        _ = madvise(start, pages.count, MADV_DONTNEED)
    }

    /// Whether the heap can give its free pages back (glibc's; `trimHeap` does nothing elsewhere).
    public static var heapCanTrim: Bool { folio_malloc_can_trim() != 0 }

    /// Gives the heap's free pages back to the system now, on the calling thread (glibc's
    /// `malloc_trim`).
    public static func trimHeap() { _ = folio_malloc_trim(0) }

    /// Blocks of `bytes` or more are mapped on their own, and unmapped when freed, from now on
    /// (glibc's `M_MMAP_THRESHOLD`; glibc otherwise moves the threshold itself).
    public static func mapBlocksOnTheirOwn(from bytes: Int32) { _ = folio_malloc_set_mmap_threshold(bytes) }

    /// Writes the heap's statistics to standard error (glibc's `malloc_stats`); false where
    /// there are none.
    public static func writeHeapStatistics() -> Bool { folio_malloc_stats() != 0 }

    /// Seconds since the Unix epoch, from the wall clock (`CLOCK_REALTIME`): what the reading
    /// positions' store records. (folio links no Foundation: `Date` is not there.)
    public static func secondsSinceEpoch() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`) from an arbitrary start; never goes back.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Whether something exists at `path` (a broken symbolic link does not).
    public static func fileExists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The target of symbolic link `path`, or nil.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard n > 0, n < buffer.count else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// The whole of a (small) regular file, or nil when it cannot be read.
    public static func readSmallFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return out }
            out += chunk[..<n]
        }
        return nil
    }

    /// `path` with `.` and `..` components and repeated slashes resolved by name (no file is
    /// looked at, as `URL.standardized` did): `/a/b/../c/./d` is `/a/c/d`.
    public static func lexicallyNormalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", path.hasPrefix("/") { continue }  // (above the root is the root)
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The working directory ("." when it cannot be known).
    public static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in directory `path` but `.` and `..`, in the order the system gives them;
    /// nil when it cannot be read.
    public static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
