/// The Markdown source as the parser sees it: valid UTF-8 without NUL bytes, plus a line index.
///
/// Invalid UTF-8 and NUL are replaced by U+FFFD *before* cmark runs, so the byte columns cmark
/// reports and the bytes the extensions read (pipe tables, fenced-code detection) agree.
/// Lines end at `\n`, `\r\n` or a lone `\r`, as in CommonMark; line numbers are 1-based.
struct SourceText {
    /// Sanitized bytes (what cmark parses).
    let bytes: [UInt8]
    /// Byte offset at which each line starts; `lineStarts[n - 1]` is line `n`.
    private(set) var lineStarts: [Int]

    /// The source starts with a byte order mark. cmark skips it (one, only at the very start)
    /// and counts line 1's columns after it, so `line(1)` leaves it out too.
    let startsWithByteOrderMark: Bool

    init(_ input: [UInt8]) {
        startsWithByteOrderMark = Self.hasByteOrderMark(input[...])
        let isClean = input.withUnsafeBufferPointer(Self.isCleanUTF8)
        var clean = isClean ? input : Array(String(decoding: input, as: UTF8.self).utf8)
        if !isClean, clean.contains(0) {
            var repaired: [UInt8] = []
            repaired.reserveCapacity(clean.count + 16)
            for byte in clean {
                if byte == 0 { repaired.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { repaired.append(byte) }
            }
            clean = repaired
        }
        bytes = clean
        var starts: [Int] = []
        starts.reserveCapacity(clean.count / 32 + 1)
        clean.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            guard count > 0 else { return }
            starts.append(0)
            if buffer.firstIndex(of: 0x0D, from: 0) == nil {
                // Only LF line endings (the common case): let memchr find them.
                var from = 0
                while let newline = buffer.firstIndex(of: 0x0A, from: from) {
                    if newline + 1 < count { starts.append(newline + 1) }
                    from = newline + 1
                }
                return
            }
            var index = 0
            while index < count {
                let byte = buffer[index]
                index += 1
                if byte == 0x0A || byte == 0x0D {
                    if byte == 0x0D, index < count, buffer[index] == 0x0A { index += 1 }
                    if index < count { starts.append(index) }
                }
            }
        }
        lineStarts = starts
    }

    static func hasByteOrderMark(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF])
    }

    /// Whether `bytes` are well-formed UTF-8 without NUL: then they are used as they are (the
    /// common case), instead of being decoded into a String and copied back.
    static func isCleanUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            // Eight ASCII bytes at a time; a NUL among them is found by the zero-byte test.
            if i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { return false }
                    i += 8
                    continue
                }
            }
            let b = base[i]
            if b < 0x80 {
                if b == 0 { return false }
                i += 1
                continue
            }
            // Well-formed sequences per the Unicode standard (table 3-7).
            let need: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard i + need < count else { return false }
            let second = base[i + 1]
            guard second >= low && second <= high else { return false }
            for k in stride(from: 2, through: need, by: 1) where base[i + k] & 0xC0 != 0x80 { return false }
            i += need + 1
        }
        return true
    }

    /// Number of source lines; a final line ending does not start another line. 0 for empty input.
    var lineCount: Int { lineStarts.count }

    /// The bytes of 1-based line `number`, without its line ending (empty when out of range).
    func line(_ number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= lineStarts.count else { return bytes[0..<0] }
        let start = lineStarts[number - 1] + (number == 1 && startsWithByteOrderMark ? 3 : 0)
        var end = number < lineStarts.count ? lineStarts[number] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }
}
