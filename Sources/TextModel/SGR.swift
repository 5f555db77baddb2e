import Styling

/// Select Graphic Rendition: the parameters of `ESC [ … m` applied to `TextAttributes`.
enum SGR {
    /// One parameter: its `:`-separated sub-parameters, nil where empty (which counts as 0).
    typealias Parameter = [Int?]

    /// Splits `1;38:2::255:0:0` into parameters. Numbers saturate (no overflow on hostile input).
    static func parameters(_ bytes: UnsafeBufferPointer<UInt8>) -> [Parameter] {
        var result: [Parameter] = []
        var current: Parameter = []
        var number: Int?
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                number = min(99_999, (number ?? 0) * 10 + Int(b - UInt8(ascii: "0")))
            case UInt8(ascii: ":"):
                current.append(number); number = nil
            default:  // ";"
                current.append(number); number = nil
                result.append(current); current = []
            }
        }
        current.append(number)
        result.append(current)
        return result
    }

    /// Applies an SGR parameter string (digits, `;` and `:` only) to `attributes`.
    /// Unknown numbers are ignored; an incomplete or out-of-range colour is ignored.
    static func apply(_ bytes: UnsafeBufferPointer<UInt8>, to attributes: inout TextAttributes) {
        let list = parameters(bytes)
        var k = 0
        while k < list.count {
            let parameter = list[k]
            let code = parameter[0] ?? 0
            switch code {
            case 0: attributes = .plain
            case 1: attributes.bold = true
            case 2: attributes.dim = true
            case 3: attributes.italic = true
            case 4: attributes.underline = parameter.count < 2 || (parameter[1] ?? 0) != 0
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
                let color: TerminalColor?
                if parameter.count > 1 {
                    color = colonColor(parameter.dropFirst())
                } else {
                    let (semicolon, used) = semicolonColor(list, after: k)
                    color = semicolon
                    k += used
                }
                if let color {
                    if code == 38 { attributes.foreground = color }
                    if code == 48 { attributes.background = color }
                }
            default: break
            }
            k += 1
        }
    }

    /// `38:5:n`, `38:2:r:g:b` or `38:2:colorspace:r:g:b` (the part after 38).
    static func colonColor(_ sub: ArraySlice<Int?>) -> TerminalColor? {
        let values = Array(sub)
        guard let mode = values.first else { return nil }
        switch mode ?? 0 {
        case 5:
            guard values.count >= 2, let n = byte(values[1]) else { return nil }
            return .palette(n)
        case 2:
            let rgb = values.count >= 5 ? Array(values[2...4]) : values.count == 4 ? Array(values[1...3]) : []
            guard rgb.count == 3, let r = byte(rgb[0]), let g = byte(rgb[1]), let b = byte(rgb[2]) else { return nil }
            return .rgb(r, g, b)
        default:
            return nil
        }
    }

    /// `38;5;n` or `38;2;r;g;b`: the colour and how many parameters after `k` it used (as many
    /// as are there, when the sequence is cut short).
    static func semicolonColor(_ list: [Parameter], after k: Int) -> (TerminalColor?, Int) {
        func value(_ offset: Int) -> Int?? {
            k + offset < list.count ? .some(list[k + offset][0]) : .none
        }
        guard let mode = value(1) else { return (nil, 0) }
        switch mode ?? 0 {
        case 5:
            guard let n = value(2) else { return (nil, 1) }
            return (byte(n).map { TerminalColor.palette($0) }, 2)
        case 2:
            guard let r = value(2), let g = value(3), let b = value(4) else { return (nil, list.count - 1 - k) }
            guard let r = byte(r), let g = byte(g), let b = byte(b) else { return (nil, 4) }
            return (.rgb(r, g, b), 4)
        default:
            return (nil, 1)
        }
    }

    static func byte(_ value: Int?) -> UInt8? {
        let v = value ?? 0
        return v <= 255 ? UInt8(v) : nil
    }
}
