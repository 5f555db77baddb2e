/// Whether a file looks like a binary file, by less's rule (`bin_file` in less's filename.c,
/// with less's UTF-8 tables): before opening a file, less looks at its first 256 bytes and asks
/// "may be a binary file.  See it anyway?" when more than 5 of them are binary characters.
///
/// A binary character is, decoding the bytes as UTF-8:
/// - a byte that does not belong to a well-formed UTF-8 sequence (each ill-formed sequence
///   counts once, then decoding goes on at the next byte that may start one); a sequence cut
///   off by the end of the 256 bytes does not count, since the file goes on;
/// - a control character other than backspace, tab, line feed, form feed and carriage return
///   (U+0000–0007, U+000B, U+000E–001F, U+007F–009F), and the line and paragraph separators
///   U+2028, U+2029 (less's `ubin` table: Unicode's Cc, Zl and Zp).
///
/// An escape sequence that folio shows as text shows it — CSI (SGR colours, `ESC [ K`) and OSC
/// (hyperlinks), complete within the bytes looked at — is skipped, as less -R skips them;
/// any other ESC is a control character. (less's table also lists a few private-use code
/// points, U+E000, U+F8FF and four in the planes 15 and 16, an artefact of how it was
/// generated; folio does not count them: symbol fonts put text there.)
public enum BinaryFile {
    /// Bytes looked at.
    public static let prefixLength = 256
    /// More binary characters than this in the prefix make a binary file.
    public static let threshold = 5

    public static func looksBinary(_ prefix: some Collection<UInt8>) -> Bool {
        binaryCharacters(in: Array(prefix.prefix(prefixLength))) > threshold
    }

    /// The number of binary characters in `bytes` by the type's rule.
    public static func binaryCharacters(in bytes: [UInt8]) -> Int {
        var count = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x1B, let end = escapeSequenceEnd(bytes, at: i) {
                i = end
                continue
            }
            if b < 0x80 {
                if isBinary(UInt32(b)) { count += 1 }
                i += 1
                continue
            }
            switch decode(bytes, at: i) {
            case .scalar(let value, let length):
                if isBinary(value) { count += 1 }
                i += length
            case .cutOff:
                return count
            case .illFormed:
                count += 1
                i += 1
                while i < n, bytes[i] & 0xC0 == 0x80 { i += 1 }  // on to a byte that may start one
            }
        }
        return count
    }

    /// Cc (but BS, TAB, LF, FF, CR), Zl, Zp.
    static func isBinary(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x07, 0x0B, 0x0E...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }

    enum Decoded {
        case scalar(UInt32, length: Int)
        case cutOff
        case illFormed
    }

    /// The UTF-8 sequence starting at `i` (a byte of 0x80 or more), by Unicode's table of
    /// well-formed sequences (no overlong forms, surrogates or values past U+10FFFF).
    static func decode(_ bytes: [UInt8], at i: Int) -> Decoded {
        let lead = bytes[i]
        let length: Int
        var value: UInt32
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0: (length, value, low) = (3, 0, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xED: (length, value, high) = (3, 0x0D, 0x9F)
        case 0xF0: (length, value, low) = (4, 0, 0x90)
        case 0xF1...0xF3: (length, value) = (4, UInt32(lead & 0x07))
        case 0xF4: (length, value, high) = (4, 4, 0x8F)
        default: return .illFormed
        }
        for k in 1..<length {
            guard i + k < bytes.count else { return .cutOff }
            let b = bytes[i + k]
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard b >= lo && b <= hi else { return .illFormed }
            value = value << 6 | UInt32(b & 0x3F)
        }
        return .scalar(value, length: length)
    }

    /// The index after the escape sequence at `i` (an ESC) when it is a complete CSI
    /// (`ESC [`, parameter and intermediate bytes, a final byte) or OSC (`ESC ]` … BEL or
    /// `ESC \`) sequence within `bytes`; else nil.
    static func escapeSequenceEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        guard i + 1 < bytes.count else { return nil }
        var j = i + 2
        switch bytes[i + 1] {
        case UInt8(ascii: "["):
            while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
            guard j < bytes.count, (0x40...0x7E).contains(bytes[j]) else { return nil }
            return j + 1
        case UInt8(ascii: "]"):
            while j < bytes.count {
                if bytes[j] == 0x07 { return j + 1 }
                if bytes[j] == 0x1B { return j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: "\\") ? j + 2 : nil }
                if bytes[j] < 0x20 { return nil }
                j += 1
            }
            return nil
        default:
            return nil
        }
    }
}
