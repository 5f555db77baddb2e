import Styling

/// Select Graphic Rendition: the parameters of `ESC [ … m` applied to `TextAttributes`.
enum SGR {
    /// One parameter and its `:`-separated sub-parameters: up to 8 values, -1 where empty (which
    /// counts as 0). Sub-parameters past the eighth are dropped. No allocation.
    struct Parameter {
        var values = SIMD8<Int32>(repeating: -1)
        var count = 0

        /// Value `k`, 0 when empty; nil past the end.
        subscript(_ k: Int) -> Int? {
            k < count ? Int(max(0, values[k])) : nil
        }
        func isEmpty(_ k: Int) -> Bool { k >= count || values[k] < 0 }
    }

    /// Reads parameters one at a time from `1;38:2::255:0:0`. Numbers saturate (no overflow on
    /// hostile input).
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var done = false

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func next() -> Parameter? {
            guard !done else { return nil }
            var parameter = Parameter()
            var number: Int32 = -1
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    number = min(99_999, max(0, number) * 10 + Int32(b - UInt8(ascii: "0")))
                case UInt8(ascii: ":"):
                    if parameter.count < 8 { parameter.values[parameter.count] = number; parameter.count += 1 }
                    number = -1
                default:  // ";"
                    if parameter.count < 8 { parameter.values[parameter.count] = number; parameter.count += 1 }
                    return parameter
                }
            }
            if parameter.count < 8 { parameter.values[parameter.count] = number; parameter.count += 1 }
            done = true
            return parameter
        }
    }

    /// Applies an SGR parameter string (digits, `;` and `:` only) to `attributes`.
    /// Unknown numbers are ignored; an incomplete or out-of-range colour is ignored.
    static func apply(_ bytes: UnsafeBufferPointer<UInt8>, to attributes: inout TextAttributes) {
        var reader = Reader(bytes)
        while let parameter = reader.next() {
            let code = parameter[0] ?? 0
            switch code {
            case 0: attributes = .plain
            case 1: attributes.bold = true
            case 2: attributes.dim = true
            case 3: attributes.italic = true
            case 4: attributes.underline = (parameter[1] ?? 1) != 0
            case 7: attributes.reverse = true
            case 9: attributes.strikethrough = true
            case 22: attributes.bold = false; attributes.dim = false
            case 23: attributes.italic = false
            case 24: attributes.underline = false
            case 27: attributes.reverse = false
            case 29: attributes.strikethrough = false
            case 30...37: attributes.foreground = .ansi(UInt8(code - 30))
            case 90...97: attributes.foreground = .ansi(UInt8(code - 90 + 8))
            case 39: attributes.foreground = .default
            case 40...47: attributes.background = .ansi(UInt8(code - 40))
            case 100...107: attributes.background = .ansi(UInt8(code - 100 + 8))
            case 49: attributes.background = .default
            case 38, 48, 58:
                let color = parameter.count > 1 ? colonColor(parameter) : semicolonColor(&reader)
                if let color {
                    if code == 38 { attributes.foreground = color }
                    if code == 48 { attributes.background = color }
                }
            default: break
            }
        }
    }

    /// `38:5:n`, `38:2:r:g:b` or `38:2:colorspace:r:g:b`.
    static func colonColor(_ p: Parameter) -> TerminalColor? {
        switch p[1] ?? 0 {
        case 5:
            guard let n = byte(p[2]) else { return nil }
            return .palette(n)
        case 2:
            let first = p.count >= 6 ? 3 : p.count == 5 ? 2 : -1
            guard first > 0, let r = byte(p[first]), let g = byte(p[first + 1]), let b = byte(p[first + 2]) else { return nil }
            return .rgb(r, g, b)
        default:
            return nil
        }
    }

    /// `38;5;n` or `38;2;r;g;b`: reads the parameters after 38 (as many as are there, when the
    /// sequence is cut short).
    static func semicolonColor(_ reader: inout Reader) -> TerminalColor? {
        guard let mode = reader.next() else { return nil }
        switch mode[0] ?? 0 {
        case 5:
            guard let n = reader.next() else { return nil }
            return byte(n[0]).map { TerminalColor.palette($0) }
        case 2:
            guard let r = reader.next(), let g = reader.next(), let b = reader.next() else { return nil }
            guard let r = byte(r[0]), let g = byte(g[0]), let b = byte(b[0]) else { return nil }
            return .rgb(r, g, b)
        default:
            return nil
        }
    }

    static func byte(_ value: Int?) -> UInt8? {
        guard let value else { return nil }
        return value <= 255 ? UInt8(value) : nil
    }
}
