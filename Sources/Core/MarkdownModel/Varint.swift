/// Unsigned LEB128 numbers: 7 bits a byte, the lowest first, the high bit set on every byte
/// but the last. The packed inlines (`PackedInlines`) and the units' link table
/// (`UnitLinks`) write their lengths and prefix numbers so: most are under 128, one byte.
public enum Varint {
    /// The bytes `value` takes (a negative value is written as 0).
    @inlinable
    public static func size(_ value: Int) -> Int {
        var v = UInt(max(0, value)), size = 1
        while v >= 0x80 { v >>= 7; size += 1 }
        return size
    }

    /// Writes `value` (a negative one as 0), a byte at a time, to `put`.
    @inlinable
    public static func write(_ value: Int, to put: (UInt8) -> Void) {
        var v = UInt(max(0, value))
        while v >= 0x80 { put(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        put(UInt8(v))
    }

    /// The number written at `at` in `bytes`; `at` moves past it.
    @inlinable
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> Int {
        var value = 0, shift = 0
        while true {
            let b = bytes[at]; at += 1
            value |= Int(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }
}
