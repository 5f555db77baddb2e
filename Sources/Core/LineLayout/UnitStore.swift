#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MarkdownModel
import Threads

/// The content texts of a Markdown document's units in one UTF-8 buffer, with each unit's
/// start: what search reads and anchors count in. One buffer instead of a string per unit:
/// a large changelog has hundreds of thousands of units, and a string over 15 bytes is a
/// heap object with a 32-byte header and malloc's rounding.
///
/// A unit whose text is exactly its block's packed plain text (most paragraphs and headings:
/// `BlockKind.withPackedPlainText`) is *shared*: it keeps no bytes here, and its owner
/// (`MarkdownContent.withText(ofUnit:)`) reads the text from the block.
struct UnitTexts: Sendable {
    /// The texts of the units that are not shared, one after the other.
    private var bytes = GrowableBytes()
    /// `starts[u]` is where unit u's text begins in the texts of all units, shared ones
    /// included (so a unit's length is two reads); one entry more than units. (32 bits: no
    /// document held in memory has 4 GB of text.)
    private var starts: [UInt32] = [0]
    /// `ownStarts[r]` is where the r-th unshared unit's text begins in `bytes`; one entry more.
    private var ownStarts: [UInt32] = [0]
    /// One bit per unit: set when the unit's text is its block's (it has no bytes here).
    private var sharedBits: [UInt64] = []
    /// Unshared units before each run of 64 (the rank of a unit among them: `ownRank`).
    private var ownBefore: [UInt32] = []

    var count: Int { starts.count - 1 }
    /// Bytes of all units' texts, shared ones included.
    var byteCount: Int { Int(starts[starts.count - 1]) }

    mutating func reserve(units: Int) {
        starts.reserveCapacity(units + 1)
        sharedBits.reserveCapacity((units + 63) / 64)
        ownBefore.reserveCapacity((units + 63) / 64)
    }

    /// Appends a unit's text; `shared` when it is its block's packed plain text, which is
    /// then not copied.
    mutating func append(_ text: String, shared: Bool = false) {
        let u = count
        if u % 64 == 0 {
            sharedBits.append(0)
            ownBefore.append(UInt32(ownStarts.count - 1))
        }
        var text = text
        let n = text.withUTF8 { utf8 in
            if shared {
                sharedBits[u / 64] |= 1 << UInt64(u % 64)
            } else {
                bytes.append(utf8)
                ownStarts.append(UInt32(bytes.count))
            }
            return utf8.count
        }
        precondition(Int(starts[u]) + n <= Int(UInt32.max), "unit texts of 4 GB")
        starts.append(starts[u] + UInt32(n))
    }

    /// Whether unit u's text is its block's (`append(_:shared:)`).
    func isShared(_ u: Int) -> Bool { sharedBits[u / 64] & (1 << UInt64(u % 64)) != 0 }

    /// How many unshared units come before unit u.
    private func ownRank(_ u: Int) -> Int {
        let below = ~sharedBits[u / 64] & ((1 << UInt64(u % 64)) &- 1)
        return Int(ownBefore[u / 64]) + below.nonzeroBitCount
    }

    /// The same texts in buffers of exactly their size: appending grows a buffer by doubling,
    /// and a document's texts would otherwise keep up to twice their bytes.
    mutating func shrink() {
        bytes.shrink()
        starts = starts.exactlySized
        ownStarts = ownStarts.exactlySized
        sharedBits = sharedBits.exactlySized
        ownBefore = ownBefore.exactlySized
    }

    /// The length of unit u's text (shared or not).
    func byteCount(_ u: Int) -> Int { Int(starts[u + 1] - starts[u]) }

    /// The bytes kept for unit u (none for a shared unit).
    func withBytes<R>(_ u: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if isShared(u) { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let r = ownRank(u)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(ownStarts[r])..<Int(ownStarts[r + 1])])) }
    }
}

/// The links of a Markdown document's units: each link's range in its unit's text and its
/// destination, the destinations in one UTF-8 buffer. A changelog's links were an array per
/// unit and a heap string per destination, several times what they take here.
/// Links are numbered across the document in unit order (`index`), so a list of them can
/// name one by a number.
public struct UnitLinks: Sendable {
    private struct Entry {
        /// End of the destination in `destinations` (it starts where the previous one ends).
        var destinationEnd: UInt32
        var lower: Int32, upper: Int32
    }
    /// Each destination: the number of its prefix (a varint, 0 for none) and the rest.
    private var destinations = GrowableBytes()
    private var entries: [Entry] = []
    /// The destinations' shared prefixes, each kept once.
    private var prefixes = LinkPrefixes()
    /// `starts[u]` is unit u's first link; one entry more than units.
    private var starts: [UInt32] = [0]

    init() {}

    mutating func reserve(units: Int) { starts.reserveCapacity(units + 1) }

    mutating func append(_ links: [LinkTarget]) {
        for link in links {
            let (number, cut) = prefixes.number(of: link.destination)
            Varint.write(number) { destinations.append($0) }
            var destination = link.destination
            destination.withUTF8 { destinations.append(UnsafeBufferPointer(rebasing: $0[cut...])) }
            precondition(destinations.count <= Int(UInt32.max), "link destinations of 4 GB")
            entries.append(Entry(destinationEnd: UInt32(destinations.count), lower: Int32(clamping: link.range.lowerBound),
                                 upper: Int32(clamping: link.range.upperBound)))
        }
        starts.append(UInt32(entries.count))
    }

    /// Links in all units.
    public var count: Int { entries.count }


    /// The same links in buffers of exactly their size (as `UnitTexts.shrink`).
    mutating func shrink() {
        destinations.shrink()
        entries = entries.exactlySized
        starts = starts.exactlySized
        prefixes.finish()
    }

    /// The numbers of unit u's links.
    public func indices(ofUnit u: Int) -> Range<Int> { Int(starts[u])..<Int(starts[u + 1]) }

    /// Link number i's range in its unit's text.
    public func range(_ i: Int) -> Range<Int> { Int(entries[i].lower)..<Int(entries[i].upper) }

    /// Link number i's destination.
    public func destination(_ i: Int) -> String {
        var at = i == 0 ? 0 : Int(entries[i - 1].destinationEnd)
        let end = Int(entries[i].destinationEnd)
        return destinations.withUnsafeBufferPointer { bytes in
            let number = Varint.read(bytes, at: &at)
            return prefixes.destination(number, rest: UnsafeBufferPointer(rebasing: bytes[at..<end]))
        }
    }

    public func link(_ i: Int) -> LinkTarget { LinkTarget(destination: destination(i), range: range(i)) }

    /// Unit u's links, in the order its layout found them.
    public subscript(u: Int) -> [LinkTarget] { indices(ofUnit: u).map(link) }
}

extension Array {
    /// A copy with no spare capacity (appending grows an array by doubling).
    var exactlySized: [Element] { withUnsafeBufferPointer { Array($0) } }
}
