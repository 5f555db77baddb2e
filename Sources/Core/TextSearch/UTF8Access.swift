/// A text whose UTF-8 bytes a search can read in place: a `String`, or a pager's unit text
/// kept in a shared buffer.
public protocol UTF8Text {
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
}

extension String: UTF8Text {
    /// Calls `body` with the string's UTF-8 bytes without copying them when the string is
    /// stored contiguously (every native Swift string is). Only a bridged or otherwise
    /// non-contiguous string is copied, once per call.
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}

/// `offset` rounded up to the next Unicode scalar boundary, clamped to `0...bytes.count`.
func scalarBoundary(atOrAfter offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var i = min(max(offset, 0), bytes.count)
    while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
    return i
}

/// The scalar boundary just after the scalar starting at `offset` (or `bytes.count + 1` at the
/// end, so a loop over start offsets terminates).
func nextScalarBoundary(after offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard offset < bytes.count else { return bytes.count + 1 }
    return scalarBoundary(atOrAfter: offset + 1, in: bytes)
}
