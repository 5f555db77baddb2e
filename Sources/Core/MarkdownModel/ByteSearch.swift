#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Index of the first `byte` in `from..<end` (end: the buffer's end), found with memchr
    /// (vectorised: the line scans of a 20 MB source depend on it), or nil.
    func firstIndex(of byte: UInt8, from: Int, end: Int? = nil) -> Int? {
        let end = end ?? count
        guard from < end, let base = baseAddress, let hit = memchr(base + from, Int32(byte), end - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
