import CMalloc
#if canImport(Glibc)
import Glibc
#endif

/// What the machine is, and the memory calls folio makes, asked of the system here and
/// nowhere else: pure modules use these instead of calling `sysconf` or `madvise`, and the
/// heap's controls come from a C shim (`CMalloc`), not from symbols looked up by name.
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
}
