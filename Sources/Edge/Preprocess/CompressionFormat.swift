/// The compressed formats folio opens by itself, each through the library Debian ships for it
/// (zlib, libbz2, liblzma, libzstd: `Decompressor`).
public enum CompressionFormat: String, Sendable, CaseIterable {
    case gzip, bzip2, xz, zstd

    /// Bytes `format(magic:)` needs to tell every format.
    public static let magicLength = 6

    /// The format a file's first bytes say, by magic number alone, never by its name: `ls.1.gz`
    /// that is not gzip is shown as it is, and gzip named otherwise is decompressed.
    /// gzip `1F 8B 08` (deflate, the only method gzip writes); bzip2 `BZh` and a block size
    /// `1`…`9`; xz `FD 37 7A 58 5A 00`; zstd's frame `28 B5 2F FD`. Nil for anything else,
    /// and for a prefix too short to tell.
    public static func format(magic bytes: some Collection<UInt8>) -> CompressionFormat? {
        let b = Array(bytes.prefix(magicLength))
        func starts(_ prefix: [UInt8]) -> Bool { b.count >= prefix.count && Array(b[0..<prefix.count]) == prefix }
        if starts([0x1F, 0x8B, 0x08]) { return .gzip }
        if starts([0x42, 0x5A, 0x68]), b.count >= 4, (0x31...0x39).contains(b[3]) { return .bzip2 }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        return nil
    }

    /// The suffix of each format's files.
    public var suffix: String {
        switch self {
        case .gzip: return ".gz"
        case .bzip2: return ".bz2"
        case .xz: return ".xz"
        case .zstd: return ".zst"
        }
    }

    /// The name of what a compressed file holds: `name` without a compression suffix, in any
    /// case (`README.md.gz` → `README.md`, `ls.1.BZ2` → `ls.1`), so that the name can say its
    /// kind. A name without one comes back as it is; so does one that would be left without
    /// a last component (`.gz`, `dir/.xz`). Works on the name's UTF-8, so a name holding
    /// `FileName`'s escapes keeps them.
    public static func uncompressedName(_ name: String) -> String {
        let bytes = Array(name.utf8)
        for format in allCases {
            let suffix = Array(format.suffix.utf8)
            guard bytes.count > suffix.count,
                  zip(bytes.suffix(suffix.count), suffix).allSatisfy({ (0x41...0x5A).contains($0) ? $0 | 0x20 == $1 : $0 == $1 }) else { continue }
            let kept = bytes.dropLast(suffix.count)
            guard let last = kept.last, last != UInt8(ascii: "/") else { return name }
            return String(decoding: kept, as: UTF8.self)
        }
        return name
    }
}
