#if canImport(Glibc)
import Glibc
#endif

/// Bytes in a buffer grown with `realloc`: glibc maps a large buffer on its own and grows or
/// shrinks it with `mremap`, in place, so neither growth by doubling nor the trim to the exact
/// size ever holds two buffers (an array's `exactlySized` copy of a changelog's unit texts held
/// both, at the top of the pager's peak). Copies share the buffer until one
/// of them appends (then it copies).
public struct GrowableBytes: @unchecked Sendable {
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>?
        var count = 0, capacity = 0
        deinit { free(base) }
    }
    private var storage = Storage()

    public init() {}

    public var count: Int { storage.count }

    private mutating func reserve(_ extra: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage()
            if storage.count > 0 {
                copy.base = malloc(storage.count)!.assumingMemoryBound(to: UInt8.self)
                copy.base!.update(from: storage.base!, count: storage.count)
            }
            copy.count = storage.count
            copy.capacity = storage.count
            storage = copy
        }
        let needed = storage.count + extra
        guard needed > storage.capacity else { return }
        let capacity = max(needed, storage.capacity * 2, 64)
        guard let grown = realloc(storage.base, capacity) else { fatalError("out of memory") }
        storage.base = grown.assumingMemoryBound(to: UInt8.self)
        storage.capacity = capacity
    }

    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage.base! + storage.count).update(from: from, count: bytes.count)
        storage.count += bytes.count
    }

    public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.base![storage.count] = byte
        storage.count += 1
    }

    /// Gives back the growth room, in place where `realloc` can.
    public mutating func shrink() {
        guard isKnownUniquelyReferenced(&storage), storage.capacity > storage.count, storage.count > 0,
              let shrunk = realloc(storage.base, storage.count) else { return }
        storage.base = shrunk.assumingMemoryBound(to: UInt8.self)
        storage.capacity = storage.count
    }

    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }
}
