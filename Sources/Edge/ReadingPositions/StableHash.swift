/// A stable 64-bit hash (FNV-1a): the same bytes give the same value in every process, on
/// every machine and in every folio version. (Swift's `Hasher` is randomly seeded per
/// process and must never be persisted.)
///
/// Stored as 16 lowercase hex digits, which JSON carries exactly (a `UInt64` as a JSON number
/// would not survive readers that go through `Double`).
public struct StableHash: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over the bytes.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        if let h = bytes.withContiguousStorageIfAvailable({ StableHash.fnv1a($0) }) {
            rawValue = h
            return
        }
        var h = StableHash.offsetBasis
        for b in bytes {
            h ^= UInt64(b)
            h &*= StableHash.prime
        }
        rawValue = h
    }

    /// The hash of no bytes: `continued(with:)` from here over pieces in order gives the hash
    /// of their concatenation.
    public static let empty = StableHash(rawValue: offsetBasis)

    /// This hash continued over more bytes (FNV-1a is sequential).
    public func continued(with bytes: UnsafeRawBufferPointer) -> StableHash {
        StableHash(rawValue: StableHash.fnv1a(bytes.bindMemory(to: UInt8.self), from: rawValue))
    }

    /// FNV-1a over a buffer (a concrete loop: the generic one, called from another module,
    /// ran unspecialised, which made saving a large document's position slow).
    static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>, from start: UInt64 = offsetBasis) -> UInt64 {
        var h = start
        for b in bytes {
            h ^= UInt64(b)
            h &*= prime
        }
        return h
    }

    /// The fingerprint of a block's content text: FNV-1a over its UTF-8 after `normalized(_:)`,
    /// so re-flowing a paragraph (whitespace only) keeps its fingerprint.
    ///
    /// ASCII text (most of it) is hashed straight from its bytes, collapsing whitespace on the
    /// way; the value is the same as hashing `normalized(text)` (tested), which other text
    /// still does.
    public static func fingerprint(of text: String) -> StableHash {
        var text = text
        if let h = text.withUTF8({ asciiFingerprint($0) }) { return StableHash(rawValue: h) }
        return StableHash(bytes: normalized(text).utf8)
    }

    /// `fingerprint(of:)` of the text whose UTF-8 bytes are `bytes` (a string is made only
    /// for text that is not all ASCII).
    public static func fingerprint(utf8 bytes: UnsafeBufferPointer<UInt8>) -> StableHash {
        if let h = asciiFingerprint(bytes) { return StableHash(rawValue: h) }
        return fingerprint(of: String(decoding: bytes, as: UTF8.self))
    }

    /// `fingerprint` of ASCII text, or nil when the text is not all ASCII.
    static func asciiFingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var h = offsetBasis
        let ascii = collapsingASCIIWhitespace(bytes) { b in
            h ^= UInt64(b)
            h &*= prime
        }
        return ascii ? h : nil
    }

    /// The bytes of `normalized` for ASCII text, handed to `emit` one by one (no string is
    /// built for a fingerprint); false, part way, at the first non-ASCII byte. The ASCII
    /// whitespace of Unicode's White_Space property (what `Character.isWhitespace` tests) is
    /// TAB, LF, VT, FF, CR and space.
    @inline(__always)
    static func collapsingASCIIWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (UInt8) -> Void) -> Bool {
        var started = false, pendingSpace = false
        for b in bytes {
            if b >= 0x80 { return false }
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                pendingSpace = started
                continue
            }
            if pendingSpace { emit(0x20); pendingSpace = false }
            emit(b)
            started = true
        }
        return true
    }

    /// Runs of whitespace collapse to one space; leading and trailing whitespace go.
    /// (Known limit: no Unicode normalisation — NFC and NFD spellings differ.)
    public static func normalized(_ text: String) -> String {
        var text = text
        if let ascii = text.withUTF8({ asciiNormalized($0) }) { return ascii }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for ch in text {
            if ch.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" "); pendingSpace = false }
                out.append(ch)
            }
        }
        return out
    }

    /// `normalized` of ASCII text from its bytes (nil when the text is not all ASCII).
    static func asciiNormalized(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        guard collapsingASCIIWhitespace(bytes, { out.append($0) }) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    public var hex: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public init?(hex: String) {
        guard hex.utf8.count == 16, let v = UInt64(hex, radix: 16) else { return nil }
        rawValue = v
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let h = StableHash(hex: s) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a 16-digit hex hash: \(s)"))
        }
        self = h
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}
