/// Byte-level helpers shared by the decoder and the sniffer.
enum UTF8Scan {
    /// Whether every byte is printable ASCII (0x20…0x7E). Eight bytes at a time.
    @inline(__always)
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // High bit set (≥ 0x80), a byte below 0x20, or a DEL (0x7F) in any lane.
            let below20 = (word &- 0x20 &* ones) & ~word & high
            let del = ((word ^ (0x7F &* ones)) &- ones) & ~(word ^ (0x7F &* ones)) & high
            if (word & high) | below20 | del != 0 { return false }
            i += 8
        }
        while i < n {
            let b = base[i]
            if b < 0x20 || b >= 0x7F { return false }
            i += 1
        }
        return true
    }

    /// The scalar encoded at `i` and its length in bytes, or nil when the bytes there are not
    /// well-formed UTF-8 (a stray continuation byte, an overlong form, a surrogate, a value
    /// above U+10FFFF, or a sequence cut short).
    @inline(__always)
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int)? {
        let n = bytes.count
        let b0 = bytes[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> UInt32? {
            guard i + k < n else { return nil }
            let b = bytes[i + k]
            return b >= lo && b <= hi ? UInt32(b & 0x3F) : nil
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { return nil }
            return (Unicode.Scalar(UInt32(b0 & 0x1F) << 6 | c1)!, 2)
        case 0xE0...0xEF:
            let lo: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
            let hi: UInt8 = b0 == 0xED ? 0x9F : 0xBF
            guard let c1 = cont(1, lo, hi), let c2 = cont(2) else { return nil }
            return (Unicode.Scalar(UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2)!, 3)
        case 0xF0...0xF4:
            let lo: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
            let hi: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
            guard let c1 = cont(1, lo, hi), let c2 = cont(2), let c3 = cont(3) else { return nil }
            return (Unicode.Scalar(UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3)!, 4)
        default:
            return nil
        }
    }

    /// Whether a scalar is a control character: C0, DEL or C1.
    @inline(__always)
    static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v < 0xA0)
    }

    /// Length of the run of shown-as-is text starting at `i`: well-formed UTF-8 with no control
    /// character (C0, DEL, C1). Stops at the first byte that needs decoding work.
    static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
        var j = i
        let n = bytes.count
        while j < n {
            let b = bytes[j]
            if b >= 0x20 && b < 0x7F { j += 1; continue }
            if b < 0x80 { break }
            guard let (s, len) = scalar(in: bytes, at: j), !isControl(s.value) else { break }
            j += len
        }
        return j - i
    }
}
