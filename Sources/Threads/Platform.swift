#if canImport(Glibc)
import Glibc
#endif

/// What the machine is, and the memory calls folio makes, asked of the system here and
/// nowhere else: pure modules use these instead of calling `sysconf` or `madvise`.
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
}
