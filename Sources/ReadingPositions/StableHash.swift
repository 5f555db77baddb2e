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
        var h = StableHash.offsetBasis
        for b in bytes {
            h ^= UInt64(b)
            h &*= StableHash.prime
        }
        rawValue = h
    }

    /// The fingerprint of a block's content text: FNV-1a over its UTF-8 after `normalized(_:)`,
    /// so re-flowing a paragraph (whitespace only) keeps its fingerprint.
    public static func fingerprint(of text: String) -> StableHash {
        StableHash(bytes: normalized(text).utf8)
    }

    /// Runs of whitespace collapse to one space; leading and trailing whitespace go.
    /// (Known limit: no Unicode normalisation — NFC and NFD spellings differ.)
    public static func normalized(_ text: String) -> String {
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
