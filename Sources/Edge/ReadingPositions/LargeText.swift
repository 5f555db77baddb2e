import LineLayout
import MarkdownModel

/// Reading positions of text documents too large to hash whole or to list facts for every
/// line (over `threshold` bytes: a 1 GB log has ten million lines).
///
/// Why the threshold is low: listing every line's facts is work on the event loop at the first
/// save and at the restore, which grows with the lines; and a text file's lines are found a
/// slice at a time between keys, so a restore against every line's facts saw only the lines
/// found so far. Figures in docs/benchmarks.md ("Reading positions of text"). A sample
/// (`sampledHash`) of a text of 384 KB or less is all of it, so such text is still known by
/// all its bytes.
///
/// **Identity.** A file is known by its canonical path, as every file; its *content hash* is a
/// sample, not the whole: the size, the first and last 64 KB and 64 pieces of 4 KB spread
/// evenly between (about 400 KB read, whatever the size). Standard input, which has no
/// name, is known by its first 64 KB (`headKey`: they arrive at once, while the rest of a
/// pipe is read only as the view needs it), with the same sample as its content hash.
///
/// **Anchor.** The line (its index and the offset in its text, as every text position), the
/// byte offset where the line starts, and a fingerprint of the line's text. On reopening:
///
/// 1. the same sample → the stored line, exactly;
/// 2. a line with the same fingerprint, nearest the stored line number, then nearest the
///    line now at the stored byte offset (within `window` lines of either: lines added or
///    removed above move it);
/// 3. the line now at the stored byte offset;
/// 4. the stored line number, clamped to the lines there are.
///
/// An empty line's fingerprint proves nothing and is never searched for.
public enum LargeText {
    /// Text inputs larger than this get these positions (smaller ones are hashed whole).
    public static let threshold = 256 << 10
    /// Lines searched on each side of the stored line for its fingerprint.
    public static let window = 10_000
    static let edge = 64 << 10
    static let pieces = 64
    static let piece = 4 << 10

    /// The sampled content hash of `count` bytes read through `read` (see the type's rule).
    public static func sampledHash(count: Int, read: (Range<Int>) -> [UInt8]) -> StableHash {
        var h = StableHash.offsetBasis
        func mix(_ bytes: [UInt8]) {
            h = bytes.withUnsafeBufferPointer { StableHash.fnv1a($0, from: h) }
        }
        withUnsafeBytes(of: UInt64(count).littleEndian) { raw in mix(Array(raw)) }
        if count <= 2 * edge + pieces * piece {
            mix(read(0..<count))
            return StableHash(rawValue: h)
        }
        mix(read(0..<edge))
        let middle = count - 2 * edge
        for k in 0..<pieces {
            let at = edge + middle / pieces * k
            mix(read(at..<(at + piece)))
        }
        mix(read((count - edge)..<count))
        return StableHash(rawValue: h)
    }

    /// The sampled content hash of what `store` holds.
    public static func sampledHash(of store: any ByteSource) -> StableHash {
        sampledHash(count: store.count) { store.bytes($0) }
    }

    /// Bytes of a piped input's beginning that name it (`headKey`).
    public static let headSize = 64 << 10

    /// The store key of a piped large text: its first `headSize` bytes, which arrive at
    /// once (a pipe is read only a few MB past the view, so its size and end come late or
    /// never). Nil until that many bytes are in.
    public static func headKey(of store: any ByteSource) -> String? {
        guard store.count >= headSize else { return nil }
        return "stdin-head:" + StableHash(bytes: store.bytes(0..<headSize)).hex
    }

    /// The position of `anchor` (a line of `content`) for storing.
    public static func capture(anchor: Anchor, in content: TextContent) -> ReadingPosition {
        let units = content.unitCount
        guard units > 0 else {
            return ReadingPosition(anchor: Anchor(block: BlockID(0), offset: 0), leafIndex: 0,
                                   fingerprint: StableHash.fingerprint(of: ""), headingPath: [], sectionIndex: 0,
                                   sourceLine: 1, fraction: 0, byteOffset: 0)
        }
        let u = Unit(min(max(0, anchor.block.rawValue), units - 1))
        let start = content.startOffset(ofUnit: u)
        let size = max(1, content.store.count)
        return ReadingPosition(anchor: Anchor(block: content.id(ofUnit: u), offset: anchor.offset, ordinal: anchor.ordinal),
                               leafIndex: u.index, fingerprint: StableHash.fingerprint(of: content.text(ofUnit: u)),
                               headingPath: [], sectionIndex: 0, sourceLine: u.index + 1,
                               fraction: Double(start) / Double(size), byteOffset: start)
    }

    /// How many bytes must be indexed for `resolve` to see everything it may look at: the
    /// stored line's bytes and the window around it (estimated from the line's average length).
    /// A position saved without a byte offset (for text that was hashed whole: smaller then,
    /// or saved by a folio whose threshold was 16 MB) may be anywhere: all of it.
    public static func bytesNeeded(for stored: ReadingPosition) -> Int {
        guard let offset = stored.byteOffset else { return .max }
        let perLine = stored.leafIndex > 0 ? max(1, offset / stored.leafIndex) : 256
        return offset + (window + 1) * min(perLine, 4096)
    }

    /// Finds `stored` in `content` (indexed far enough: `bytesNeeded`) by the rules of the type.
    public static func resolve(_ stored: ReadingPosition, storedContentHash: StableHash, currentHash: StableHash,
                               in content: TextContent) -> ResolvedPosition {
        let units = content.unitCount
        guard units > 0 else { return ResolvedPosition(anchor: Anchor(block: BlockID(0), offset: 0), rule: .fraction) }
        let line = stored.anchor.block.rawValue
        func anchor(_ u: Unit, keepOffset: Bool) -> Anchor {
            guard keepOffset else { return Anchor(block: content.id(ofUnit: u), offset: 0) }
            let text = content.text(ofUnit: u)
            return Anchor(block: content.id(ofUnit: u), offset: snapOffset(stored.anchor.offset, in: text),
                          ordinal: stored.anchor.ordinal)
        }
        // 1. The same bytes (as far as the sample tells).
        if storedContentHash == currentHash, line >= 0, line < units {
            return ResolvedPosition(anchor: anchor(Unit(line), keepOffset: true), rule: .exact)
        }
        let atByte = stored.byteOffset.flatMap { content.unit(containingByte: $0) }
        // 2. The same text, near where it was.
        if stored.fingerprint != StableHash.fingerprint(of: "") {
            for center in [Unit(min(max(0, line), units - 1)), atByte].compactMap({ $0 }) {
                if let u = nearest(to: center, in: content, units: units,
                                   where: { StableHash.fingerprint(of: content.text(ofUnit: $0)) == stored.fingerprint }) {
                    return ResolvedPosition(anchor: anchor(u, keepOffset: true), rule: .fingerprint)
                }
            }
        }
        // 3. Where its bytes were.
        if let atByte { return ResolvedPosition(anchor: anchor(atByte, keepOffset: false), rule: .byteOffset) }
        // 4. Its line number.
        return ResolvedPosition(anchor: anchor(Unit(min(max(0, stored.sourceLine - 1), units - 1)), keepOffset: false),
                                rule: .sourceLine)
    }

    /// The unit nearest `center` (within `window`) that satisfies `matches`; ties go up.
    static func nearest(to center: Unit, in content: TextContent, units: Int, where matches: (Unit) -> Bool) -> Unit? {
        for distance in 0...window {
            for u in distance == 0 ? [center] : [center - distance, center + distance] where u >= 0 && u.index < units {
                if matches(u) { return u }
            }
            if center - distance < 0 && (center + distance).index >= units { return nil }
        }
        return nil
    }
}
