#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Threads

/// The bytes of many blocks' packed inlines, one after the other: a parse packs every block
/// it builds into one arena (`DocumentBuilder.build`), so a changelog's packed inlines are a
/// few hundred buffers, not one a block — each its own heap object, with a 32-byte header
/// and malloc's rounding, scattered among the parse's freed pages, which it kept from going
/// back.
///
/// Appended to only by the builder that made it, before any inlines that refer to it leave
/// that builder (`finish()` then shrinks it to its size); read-only from then on, so it is
/// shared between threads.
final class PackedArena: Sendable {
    private struct State {
        /// The bytes, `malloc`ed (an array in a class pays an exclusivity check and a bounds
        /// check on every read: search reads a paragraph's plain text from here, once per unit).
        var base: UnsafeMutablePointer<UInt8>?
        var count = 0
        var capacity = 0
        /// Prefixes of the link destinations packed here: a destination is packed as its
        /// prefix's number and the rest.
        var prefixes = LinkPrefixes()
    }
    /// Written by the builder that made the arena, until `finish()`; read-only after.
    private let state = HandOff(State())

    fileprivate var base: UnsafeMutablePointer<UInt8>? { state.value.base }
    fileprivate var count: Int { state.value.count }
    fileprivate var prefixes: LinkPrefixes {
        get { state.value.prefixes }
        _modify { yield &state.value.prefixes }
    }

    deinit { free(state.value.base) }

    /// `size` more bytes at the end (uninitialized), the offset of the first.
    fileprivate func grow(by size: Int) -> Int {
        let first = state.value.count
        if state.value.count + size > state.value.capacity {
            let grown = max(state.value.count + size, state.value.capacity * 2, 256)
            guard let p = realloc(state.value.base, grown) else { fatalError("out of memory") }
            state.value.base = p.assumingMemoryBound(to: UInt8.self)
            state.value.capacity = grown
        }
        state.value.count += size
        return first
    }

    /// Gives back the growth room (appending doubles the buffer).
    func finish() {
        if state.value.capacity > state.value.count, state.value.count > 0, let p = realloc(state.value.base, state.value.count) {
            state.value.base = p.assumingMemoryBound(to: UInt8.self)
            state.value.capacity = state.value.count
        }
        state.value.prefixes.finish()
    }

    /// Whether `size` more bytes go into this arena: it holds at most ~1 MB (one oversized
    /// inlines aside), so that neither its doubling growth nor the trim `finish` makes costs
    /// more than that, whatever the document's size.
    fileprivate func fits(_ size: Int) -> Bool { count == 0 || count + size <= Self.limit }
    static let limit = 1 << 20
}

/// Shared prefixes of link destinations, each kept once: a destination is kept as its
/// prefix's number (0: none) and the rest, by the packed inlines (`PackedArena`) and by the
/// content's links (`UnitLinks`). A changelog's links mostly share a few prefixes
/// (`https://github.com/rust-lang/rust/pull/`): most of each destination's bytes. All
/// prefixes are in one buffer (a string each, in each piece's arenas, cost more than they
/// saved), and a prefix is kept the second time it is seen (one used once would cost more
/// than it saves).
public struct LinkPrefixes: Sendable {
    /// Prefix n is `bytes[starts[n - 1]..<starts[n]]`.
    private var bytes: [UInt8] = []
    private var starts: [UInt32] = [0]
    /// Prefix → its number (0: seen once, not kept yet), while destinations are added
    /// (`finish` lets it go).
    private var numbers: [String: Int] = [:]

    public init() {}

    /// Where a destination's shared prefix ends: after the last `/` of a URL with a scheme
    /// and a path (`https://host/a/` of `https://host/a/b`), 0 when it has none worth it or it
    /// holds a `^` (packed inlines without a `^` byte are known to hold no footnote reference).
    public static func end(of destination: String) -> Int {
        let utf8 = destination.utf8
        guard utf8.count >= 16, let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return 0 }
        let afterColon = utf8.index(after: colon)
        guard utf8[afterColon...].starts(with: "//".utf8), let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return 0 }
        let end = utf8.distance(from: utf8.startIndex, to: slash) + 1
        let schemeEnd = utf8.distance(from: utf8.startIndex, to: afterColon) + 2
        guard end > schemeEnd, end >= 12, !utf8.prefix(end).contains(UInt8(ascii: "^")) else { return 0 }
        return end
    }

    /// The number of `destination`'s prefix (0: none) and the UTF-8 length of that prefix.
    public mutating func number(of destination: String) -> (number: Int, length: Int) {
        let cut = Self.end(of: destination)
        guard cut > 0 else { return (0, 0) }
        let prefix = String(decoding: destination.utf8.prefix(cut), as: UTF8.self)
        guard let known = numbers[prefix] else { numbers[prefix] = 0; return (0, 0) }
        if known > 0 { return (known, cut) }
        guard starts.count < 1 << 16 else { return (0, 0) }
        bytes.append(contentsOf: prefix.utf8)
        starts.append(UInt32(bytes.count))
        numbers[prefix] = starts.count - 1
        return (starts.count - 1, cut)
    }

    /// A destination from its prefix's number and the rest.
    public func destination(_ number: Int, rest: UnsafeBufferPointer<UInt8>) -> String {
        guard number > 0 else { return String(decoding: rest, as: UTF8.self) }
        return bytes.withUnsafeBufferPointer { all in
            let prefix = UnsafeBufferPointer(rebasing: all[Int(starts[number - 1])..<Int(starts[number])])
            return String(unsafeUninitializedCapacity: prefix.count + rest.count) { out in
                _ = out.initialize(fromContentsOf: prefix)
                _ = UnsafeMutableBufferPointer(rebasing: out[prefix.count...]).initialize(fromContentsOf: rest)
                return prefix.count + rest.count
            }
        }
    }

    /// Buffers of exactly their size, and no more prefixes taken.
    public mutating func finish() {
        bytes = bytes.withUnsafeBufferPointer { Array($0) }
        starts = starts.withUnsafeBufferPointer { Array($0) }
        numbers = [:]
    }
}

/// A block's inline nodes packed into bytes: what a finished `Inlines` holds, a slice of a
/// `PackedArena`.
///
/// Layout: the node count, the length of the plain text, the plain text (`Inlines.plainText`:
/// the text of text, code and HTML nodes in order, a space for a soft break and a newline for
/// a hard one), then for each node in pre-order its tag byte, its descendant count, and:
/// for a text, code or HTML node the length of its text (its bytes are the next ones of the
/// plain text); for a link or an image its destination and title, each a length then its
/// UTF-8 bytes, a destination first the number of its prefix in the arena (`LinkPrefixes`, 0
/// for none), then the rest. Counts, numbers and lengths are LEB128 varints (one byte below
/// 128). Within one arena the encoding is canonical — equal nodes give equal bytes; packed
/// inlines of different arenas compare by their nodes.
///
/// The plain text is one run of bytes so that the layout's content text of a paragraph or
/// heading — most often exactly these bytes — is read from here and not kept twice
/// (`MarkdownContent`'s shared texts).
struct PackedInlines: Sendable, Equatable {
    private let arena: PackedArena
    private let start: UInt32
    private let count: UInt32

    private enum Tag: UInt8 {
        case text, code, html, softBreak, lineBreak, emphasis, strong, strikethrough
        case link, autolink, image
    }

    /// `nodes` packed into an arena of their own.
    init(_ nodes: [InlineNode]) {
        var arena = PackedArena()
        self.init(nodes, into: &arena)
        arena.finish()
    }

    /// `nodes` packed at the end of `arena` (a new one when it is full).
    init(_ nodes: [InlineNode], into arena: inout PackedArena) {
        // The arena is chosen on a bound (a prefix number takes at most 3 bytes), then the
        // destinations' prefixes are found in it.
        var plain = 0
        for node in nodes {
            switch node.kind {
            case .text(let s), .code(let s), .html(let s): plain += s.utf8.count
            case .softBreak, .lineBreak: plain += 1
            case .link, .image, .emphasis, .strong, .strikethrough: break
            }
        }
        var bound = Varint.size(nodes.count) + Varint.size(plain) + plain
        for node in nodes {
            bound += 1 + Varint.size(node.descendantCount)
            switch node.kind {
            case .text(let s), .code(let s), .html(let s): bound += Varint.size(s.utf8.count)
            case .link(let a, let b, _), .image(let a, let b): bound += 3 + Self.stringSize(a) + Self.stringSize(b)
            case .softBreak, .lineBreak, .emphasis, .strong, .strikethrough: break
            }
        }
        if !arena.fits(bound) { arena.finish(); arena = PackedArena() }
        var prefixes: [(number: Int, length: Int)] = []
        var size = Varint.size(nodes.count) + Varint.size(plain) + plain
        for node in nodes {
            size += 1 + Varint.size(node.descendantCount)
            switch node.kind {
            case .text(let s), .code(let s), .html(let s): size += Varint.size(s.utf8.count)
            case .link(let a, let b, _), .image(let a, let b):
                let prefix = arena.prefixes.number(of: a)
                prefixes.append(prefix)
                let rest = a.utf8.count - prefix.length
                size += Varint.size(prefix.number) + Varint.size(rest) + rest + Self.stringSize(b)
            case .softBreak, .lineBreak, .emphasis, .strong, .strikethrough: break
            }
        }
        self.arena = arena
        let first = arena.grow(by: size)
        start = UInt32(first)
        count = UInt32(size)
        do {
            let buffer = UnsafeMutableBufferPointer(start: arena.base! + first, count: size)
            var at = 0
            func put(_ byte: UInt8) { buffer[at] = byte; at += 1 }
            func varint(_ value: Int) { Varint.write(value, to: put) }
            func string(_ s: String, droppingFirst dropped: Int = 0) {
                var s = s
                s.withUTF8 { whole in
                    let utf8 = UnsafeBufferPointer(rebasing: whole[dropped...])
                    varint(utf8.count)
                    guard let base = utf8.baseAddress, utf8.count > 0 else { return }
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(from: base, byteCount: utf8.count)
                    at += utf8.count
                }
            }
            func bytes(_ s: String) {
                var s = s
                s.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress, utf8.count > 0 else { return }
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(from: base, byteCount: utf8.count)
                    at += utf8.count
                }
            }
            var link = 0
            func destination(_ s: String) {
                let prefix = prefixes[link]
                link += 1
                varint(prefix.number)
                string(s, droppingFirst: prefix.length)
            }
            varint(nodes.count)
            varint(plain)
            for node in nodes {
                switch node.kind {
                case .text(let s), .code(let s), .html(let s): bytes(s)
                case .softBreak: put(0x20)
                case .lineBreak: put(0x0A)
                case .link, .image, .emphasis, .strong, .strikethrough: break
                }
            }
            for node in nodes {
                switch node.kind {
                case .text(let s): put(Tag.text.rawValue); varint(node.descendantCount); varint(s.utf8.count)
                case .code(let s): put(Tag.code.rawValue); varint(node.descendantCount); varint(s.utf8.count)
                case .html(let s): put(Tag.html.rawValue); varint(node.descendantCount); varint(s.utf8.count)
                case .softBreak: put(Tag.softBreak.rawValue); varint(node.descendantCount)
                case .lineBreak: put(Tag.lineBreak.rawValue); varint(node.descendantCount)
                case .emphasis: put(Tag.emphasis.rawValue); varint(node.descendantCount)
                case .strong: put(Tag.strong.rawValue); varint(node.descendantCount)
                case .strikethrough: put(Tag.strikethrough.rawValue); varint(node.descendantCount)
                case .link(let target, let title, let autolink):
                    put((autolink ? Tag.autolink : Tag.link).rawValue); varint(node.descendantCount)
                    destination(target); string(title)
                case .image(let source, let title):
                    put(Tag.image.rawValue); varint(node.descendantCount); destination(source); string(title)
                }
            }
            precondition(at == size, "PackedInlines: size \(size) computed, \(at) written")
        }
    }

    /// The bytes this packing holds.
    var byteCount: Int { Int(count) }

    /// Its bytes, in its arena.
    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: arena.base.map { $0 + Int(start) }, count: Int(count)))
    }

    static func == (a: PackedInlines, b: PackedInlines) -> Bool {
        guard a.arena === b.arena else { return a.nodes() == b.nodes() }  // other prefix numbers
        if a.start == b.start && a.count == b.count { return true }
        return a.count == b.count && a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }

    func nodes(limit: Int = .max) -> [InlineNode] {
        withBytes { buffer in
            var reader = Reader(buffer: buffer)
            let count = min(limit, reader.varint())
            var text = reader.plainText()
            var nodes: [InlineNode] = []
            nodes.reserveCapacity(count)
            for _ in 0..<count {
                let tag = Tag(rawValue: reader.byte())!
                let descendants = reader.varint()
                let kind: InlineKind
                switch tag {
                case .text: kind = .text(text.string(reader.varint()))
                case .code: kind = .code(text.string(reader.varint()))
                case .html: kind = .html(text.string(reader.varint()))
                case .softBreak: text.skip(1); kind = .softBreak
                case .lineBreak: text.skip(1); kind = .lineBreak
                case .emphasis: kind = .emphasis
                case .strong: kind = .strong
                case .strikethrough: kind = .strikethrough
                case .link, .autolink:
                    let destination = reader.destination(arena)
                    kind = .link(destination: destination, title: reader.string(), autolink: tag == .autolink)
                case .image:
                    let source = reader.destination(arena)
                    kind = .image(source: source, title: reader.string())
                }
                nodes.append(InlineNode(kind, descendantCount: descendants))
            }
            return nodes
        }
    }

    /// The first node, decoded alone.
    func firstNode() -> InlineNode? { nodes(limit: 1).first }

    /// Whether `byte` occurs anywhere in the buffer (in a string, or as a tag or count): false
    /// proves that no text of these inlines contains it.
    func contains(byte: UInt8) -> Bool { withBytes { $0.contains(byte) } }

    /// Whether two text nodes follow each other at the top level, read from the bytes.
    var hasAdjacentTopLevelText: Bool {
        withBytes { buffer in
            var reader = Reader(buffer: buffer)
            let count = reader.varint()
            _ = reader.plainText()
            var k = 0, skip = 0, lastIsText = false
            while k < count {
                let tag = Tag(rawValue: reader.byte())!
                let descendants = reader.varint()
                switch tag {
                case .text, .code, .html: _ = reader.varint()
                case .link, .autolink, .image: _ = reader.varint(); _ = reader.stringBytes(); _ = reader.stringBytes()
                default: break
                }
                if skip > 0 { skip -= 1 } else {
                    let isText = tag == .text
                    if isText && lastIsText { return true }
                    lastIsText = isText
                    skip = descendants
                }
                k += 1
            }
            return false
        }
    }

    /// `Inlines.plainText`, read straight from the bytes.
    var plainText: String { withPlainText { String(decoding: $0, as: UTF8.self) } }

    /// The plain text's bytes, where they are kept (no copy).
    func withPlainText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withExtendedLifetime(arena) { body(unsafePlainText) }
    }

    /// The plain text's bytes in the arena: valid while the arena lives (as long as these
    /// inlines or any copy of them do; it is never written again).
    var unsafePlainText: UnsafeBufferPointer<UInt8> {
        withBytes { buffer in
            var reader = Reader(buffer: buffer)
            _ = reader.varint()
            return reader.plainText().bytes
        }
    }

    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var at = 0
        mutating func byte() -> UInt8 { defer { at += 1 }; return buffer[at] }
        mutating func varint() -> Int { Varint.read(buffer, at: &at) }
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8> {
            let length = varint()
            defer { at += length }
            return UnsafeBufferPointer(rebasing: buffer[at..<(at + length)])
        }
        mutating func string() -> String { String(decoding: stringBytes(), as: UTF8.self) }
        /// The plain text (its length, then its bytes), read as the nodes take their texts.
        mutating func plainText() -> PlainText { PlainText(bytes: stringBytes()) }
        mutating func destination(_ arena: PackedArena) -> String {
            let number = varint()
            return arena.prefixes.destination(number, rest: stringBytes())
        }
    }

    /// The plain text, consumed in order by the nodes that hold its bytes.
    private struct PlainText {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0
        mutating func string(_ length: Int) -> String {
            defer { at += length }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<(at + length)]), as: UTF8.self)
        }
        mutating func skip(_ length: Int) { at += length }
    }

    private static func stringSize(_ s: String) -> Int {
        let n = s.utf8.count
        return Varint.size(n) + n
    }
}
