/// The bytes of many blocks' packed inlines, one after the other: a parse packs every block
/// it builds into one arena (`DocumentBuilder.build`), so a 20 MB changelog's 170,000 packed
/// inlines are a few hundred buffers, not 170,000 — each its own heap object, with a 32-byte
/// header and malloc's rounding (~8 MB), scattered among the parse's freed pages, which it
/// kept from going back (~20 MB of slack).
///
/// Appended to only by the builder that made it, before any inlines that refer to it leave
/// that builder (`finish()` then shrinks it to its size); read-only from then on, so it is
/// shared between threads.
final class PackedArena: @unchecked Sendable {
    fileprivate var bytes: [UInt8] = []

    /// Gives back the growth room (appending doubles the buffer).
    func finish() { if bytes.capacity > bytes.count { bytes = bytes.withUnsafeBufferPointer { Array($0) } } }

    /// Whether `size` more bytes go into this arena: it holds at most ~1 MB (one oversized
    /// inlines aside), so that neither its doubling growth nor the copy `finish` makes costs
    /// more than that, whatever the document's size.
    fileprivate func fits(_ size: Int) -> Bool { bytes.isEmpty || bytes.count + size <= Self.limit }
    static let limit = 1 << 20
}

/// A block's inline nodes packed into bytes: what a finished `Inlines` holds, a slice of a
/// `PackedArena`.
///
/// Layout: the node count, then for each node in pre-order its tag byte, its descendant count
/// and its strings (text; a link's destination and title; an image's source and title), each
/// a length then its UTF-8 bytes. Counts and lengths are LEB128 varints (one byte below 128).
/// The encoding is canonical — equal nodes give equal bytes — so packed inlines compare by
/// their bytes.
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
        var size = Self.varintSize(nodes.count)
        for node in nodes {
            size += 1 + Self.varintSize(node.descendantCount)
            switch node.kind {
            case .text(let s), .code(let s), .html(let s): size += Self.stringSize(s)
            case .link(let a, let b, _), .image(let a, let b): size += Self.stringSize(a) + Self.stringSize(b)
            case .softBreak, .lineBreak, .emphasis, .strong, .strikethrough: break
            }
        }
        if !arena.fits(size) { arena.finish(); arena = PackedArena() }
        self.arena = arena
        start = UInt32(arena.bytes.count)
        count = UInt32(size)
        let first = arena.bytes.count
        arena.bytes.append(contentsOf: repeatElement(0, count: size))
        arena.bytes.withUnsafeMutableBufferPointer { whole in
            let buffer = UnsafeMutableBufferPointer(rebasing: whole[first...])
            var at = 0
            func put(_ byte: UInt8) { buffer[at] = byte; at += 1 }
            func varint(_ value: Int) {
                var v = UInt(max(0, value))
                while v >= 0x80 { put(UInt8(v & 0x7F) | 0x80); v >>= 7 }
                put(UInt8(v))
            }
            func string(_ s: String) {
                var s = s
                s.withUTF8 { utf8 in
                    varint(utf8.count)
                    guard let base = utf8.baseAddress, utf8.count > 0 else { return }
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(from: base, byteCount: utf8.count)
                    at += utf8.count
                }
            }
            varint(nodes.count)
            for node in nodes {
                switch node.kind {
                case .text(let s): put(Tag.text.rawValue); varint(node.descendantCount); string(s)
                case .code(let s): put(Tag.code.rawValue); varint(node.descendantCount); string(s)
                case .html(let s): put(Tag.html.rawValue); varint(node.descendantCount); string(s)
                case .softBreak: put(Tag.softBreak.rawValue); varint(node.descendantCount)
                case .lineBreak: put(Tag.lineBreak.rawValue); varint(node.descendantCount)
                case .emphasis: put(Tag.emphasis.rawValue); varint(node.descendantCount)
                case .strong: put(Tag.strong.rawValue); varint(node.descendantCount)
                case .strikethrough: put(Tag.strikethrough.rawValue); varint(node.descendantCount)
                case .link(let destination, let title, let autolink):
                    put((autolink ? Tag.autolink : Tag.link).rawValue); varint(node.descendantCount)
                    string(destination); string(title)
                case .image(let source, let title):
                    put(Tag.image.rawValue); varint(node.descendantCount); string(source); string(title)
                }
            }
            precondition(at == size, "PackedInlines: size \(size) computed, \(at) written")
        }
    }

    /// The bytes this packing holds.
    var byteCount: Int { Int(count) }

    /// Its bytes, in its arena.
    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        arena.bytes.withUnsafeBufferPointer { whole in
            body(UnsafeBufferPointer(rebasing: whole[Int(start)..<(Int(start) + Int(count))]))
        }
    }

    static func == (a: PackedInlines, b: PackedInlines) -> Bool {
        if a.arena === b.arena && a.start == b.start && a.count == b.count { return true }
        return a.count == b.count && a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }

    func nodes(limit: Int = .max) -> [InlineNode] {
        withBytes { buffer in
            var reader = Reader(buffer: buffer)
            let count = min(limit, reader.varint())
            var nodes: [InlineNode] = []
            nodes.reserveCapacity(count)
            for _ in 0..<count {
                let tag = Tag(rawValue: reader.byte())!
                let descendants = reader.varint()
                let kind: InlineKind
                switch tag {
                case .text: kind = .text(reader.string())
                case .code: kind = .code(reader.string())
                case .html: kind = .html(reader.string())
                case .softBreak: kind = .softBreak
                case .lineBreak: kind = .lineBreak
                case .emphasis: kind = .emphasis
                case .strong: kind = .strong
                case .strikethrough: kind = .strikethrough
                case .link, .autolink:
                    let destination = reader.string()
                    kind = .link(destination: destination, title: reader.string(), autolink: tag == .autolink)
                case .image:
                    let source = reader.string()
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
            var k = 0, skip = 0, lastIsText = false
            while k < count {
                let tag = Tag(rawValue: reader.byte())!
                let descendants = reader.varint()
                switch tag {
                case .text, .code, .html: _ = reader.stringBytes()
                case .link, .autolink, .image: _ = reader.stringBytes(); _ = reader.stringBytes()
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

    /// `Inlines.plainText`, read straight from the bytes: the text of text, code and HTML
    /// nodes, a space for a soft break and a newline for a hard one.
    var plainText: String {
        withBytes { buffer in
            var reader = Reader(buffer: buffer)
            let count = reader.varint()
            var out: [UInt8] = []
            out.reserveCapacity(buffer.count)
            for _ in 0..<count {
                let tag = Tag(rawValue: reader.byte())!
                _ = reader.varint()
                switch tag {
                case .text, .code, .html: out.append(contentsOf: reader.stringBytes())
                case .softBreak: out.append(0x20)
                case .lineBreak: out.append(0x0A)
                case .emphasis, .strong, .strikethrough: break
                case .link, .autolink, .image: _ = reader.stringBytes(); _ = reader.stringBytes()
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var at = 0
        mutating func byte() -> UInt8 { defer { at += 1 }; return buffer[at] }
        mutating func varint() -> Int {
            var value = 0, shift = 0
            while true {
                let b = byte()
                value |= Int(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
        }
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8> {
            let length = varint()
            defer { at += length }
            return UnsafeBufferPointer(rebasing: buffer[at..<(at + length)])
        }
        mutating func string() -> String { String(decoding: stringBytes(), as: UTF8.self) }
    }

    private static func varintSize(_ value: Int) -> Int {
        var v = UInt(max(0, value)), size = 1
        while v >= 0x80 { v >>= 7; size += 1 }
        return size
    }

    private static func stringSize(_ s: String) -> Int {
        let n = s.utf8.count
        return varintSize(n) + n
    }
}
