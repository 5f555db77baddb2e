/// The JSON of the store's lines, read and written here: folio links no Foundation (its
/// mere presence in the binary cost every start-up its relocations and set-up; see
/// docs/benchmarks.md, "Start-up"), so `JSONEncoder` and `JSONDecoder` are not there.
///
/// Reading is RFC 8259 JSON, as `JSONDecoder` read these lines, with its one leniency (a
/// trailing comma in an object or array): a line that is not (a raw control character in a
/// string, a lone surrogate, `01`, `.5`, `NaN`, a number too large for a `Double`, something
/// after the value) does not decode. Duplicate names: the
/// first wins, as it did. Nesting deeper than `maximumDepth` does not decode (a damaged file
/// of a million `[` must not exhaust the stack). Writing is byte for byte what `JSONEncoder`
/// wrote with `.sortedKeys` and `.withoutEscapingSlashes` (a law in the tests): names in
/// UTF-8 order, `"`, `\` and the C0 controls escaped (`\n`-style where JSON has one,
/// `\u00XX` otherwise), numbers as Swift spells them without a trailing `.0`.
indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A finite number; `integer` when it is also an exact `Int` (`1`, `-0`, `1.0`, `1e2`).
    case number(Double, integer: Int?)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([Member])

    struct Member: Equatable, Sendable {
        var name: String
        var value: JSONValue
    }

    static let maximumDepth = 512

    /// The value of member `name` (the first of that name), nil when absent or not an object.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var double: Double? { if case .number(let d, _) = self { d } else { nil } }
    var int: Int? { if case .number(_, let i) = self { i } else { nil } }
    var isNull: Bool { self == .null }

    /// `bytes` as one JSON value (white space around it allowed), or nil.
    static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in parseBuffer(buffer) }
        return parsed ?? Array(bytes).withUnsafeBufferPointer { parseBuffer($0) }
    }

    private static func parseBuffer(_ buffer: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = JSONReader(bytes: buffer)
        parser.skipSpace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.at == buffer.count ? value : nil
    }
}

private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
        while let b = next, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { at += 1 }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard bytes.count - at >= n else { return false }
        for k in 0..<n where bytes[at + k] != word.utf8Start[k] { return false }
        at += n
        return true
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard let b = next else { return nil }
        switch b {
        case UInt8(ascii: "{"):
            guard depth < JSONValue.maximumDepth else { return nil }
            var members: [JSONValue.Member] = []
            let closed = items(closing: UInt8(ascii: "}")) { r in
                guard r.next == UInt8(ascii: "\""), let name = r.string() else { return false }
                r.skipSpace()
                guard r.next == UInt8(ascii: ":") else { return false }
                r.at += 1
                r.skipSpace()
                guard let v = r.value(depth: depth + 1) else { return false }
                members.append(.init(name: name, value: v))
                return true
            }
            return closed ? .object(members) : nil
        case UInt8(ascii: "["):
            guard depth < JSONValue.maximumDepth else { return nil }
            var elements: [JSONValue] = []
            let closed = items(closing: UInt8(ascii: "]")) { r in
                guard let v = r.value(depth: depth + 1) else { return false }
                elements.append(v)
                return true
            }
            return closed ? .array(elements) : nil
        case UInt8(ascii: "\""):
            return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    /// From an opening bracket: items read by `item` (which reads one and says whether it
    /// could), separated by commas, up to `closing`; a trailing comma allowed, as `JSONDecoder`
    /// allows it. False when they are not so.
    mutating func items(closing: UInt8, _ item: (inout JSONReader) -> Bool) -> Bool {
        at += 1
        skipSpace()
        if next == closing { at += 1; return true }
        while true {
            skipSpace()
            guard item(&self) else { return false }
            skipSpace()
            if next == UInt8(ascii: ",") {
                at += 1
                skipSpace()
                if next == closing { at += 1; return true }
                continue
            }
            if next == closing { at += 1; return true }
            return false
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite.
    mutating func number() -> JSONValue? {
        let start = at
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.at
            while let b = r.next, b >= 0x30 && b <= 0x39 { r.at += 1 }
            return r.at - s
        }
        if next == UInt8(ascii: "-") { at += 1 }
        guard let first = next, first >= 0x30 && first <= 0x39 else { return nil }
        if first == 0x30 { at += 1 } else { _ = digits(&self) }
        var integral = true
        if next == UInt8(ascii: ".") {
            at += 1
            guard digits(&self) > 0 else { return nil }
            integral = false
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            at += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { return nil }
            integral = false
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { return nil }
        var integer: Int? = integral ? Int(text) : nil
        if integer == nil, d == d.rounded(.towardZero), abs(d) < 0x1p63 { integer = Int(d) }
        return .number(d, integer: integer)
    }

    /// A string from its opening quote; nil when it is not valid JSON or not UTF-8.
    mutating func string() -> String? {
        at += 1
        let start = at
        // Without escapes (nearly every string): validated in place.
        while let b = next, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") {
            guard b >= 0x20 else { return nil }
            at += 1
        }
        guard let stop = next else { return nil }
        if stop == UInt8(ascii: "\"") {
            at += 1
            return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(at - 1)]), as: UTF8.self)
        }
        var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<at]))
        while let b = next {
            at += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(validating: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = next else { return nil }
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    var scalarValue = UInt32(unit)
                    if (0xD800...0xDBFF).contains(unit) {
                        // A high surrogate must be followed by an escaped low one.
                        guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
                    out.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard b >= 0x20 else { return nil }
                out.append(b)
            }
        }
        return nil
    }

    mutating func hex4() -> UInt16? {
        guard bytes.count - at >= 4 else { return nil }
        var v: UInt16 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
            at += 1
        }
        return v
    }
}

/// Writes JSON as the store's lines spell it (see `JSONValue`). Objects are written member by
/// member by their owners, names in UTF-8 order.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x08: raw(#"\b"#)
            case 0x0C: raw(#"\f"#)
            case 0x0A: raw(#"\n"#)
            case 0x0D: raw(#"\r"#)
            case 0x09: raw(#"\t"#)
            case 0..<0x20:
                raw(#"\u00"#)
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(b >> 4)])
                bytes.append(hex[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func number(_ i: Int) { bytes.append(contentsOf: String(i).utf8) }

    /// As Swift spells it (`0.5`, `1e-07`, `1.5e+300`), without a trailing `.0`.
    mutating func number(_ d: Double) {
        let s = d.description
        bytes.append(contentsOf: s.hasSuffix(".0") ? s.utf8.dropLast(2) : s.utf8[...])
    }

    /// `{`, then `body` writes the members through `member`, then `}`.
    mutating func object(_ body: (inout ObjectWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        // The bytes move into `members` and back (emptied here, they are not copied).
        var members = ObjectWriter(writer: self)
        bytes = []
        body(&members)
        self = members.writer
        bytes.append(UInt8(ascii: "}"))
    }

    struct ObjectWriter {
        fileprivate var writer: JSONWriter
        private var first = true
        fileprivate init(writer: JSONWriter) { self.writer = writer }

        /// Writes `"name":` and then the value through `value`; names must come in UTF-8 order.
        mutating func member(_ name: String, _ value: (inout JSONWriter) -> Void) {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.string(name)
            writer.bytes.append(UInt8(ascii: ":"))
            value(&writer)
        }
    }
}
