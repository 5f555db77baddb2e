/// The escape sequences of a line: SGR and erase-to-end-of-line (CSI) and OSC 8 hyperlinks are
/// understood; any other ESC is shown as `^[` (see `TerminalTextDecoder`).
extension LineDecoder {
    /// ESC at `i`: an SGR or OSC 8 sequence is applied and removed; anything else shows ESC as
    /// `^[` and goes on with the byte after it. Returns the next input index.
    mutating func escape(at i: Int) -> Int {
        let n = input.count
        if i + 1 < n {
            switch input[i + 1] {
            case UInt8(ascii: "["):
                if let next = csi(from: i + 2) { return next }
            case UInt8(ascii: "]"):
                if let next = osc(from: i + 2) { return next }
            default:
                break
            }
        }
        appendCaret(0x1B)
        return i + 1
    }

    /// A CSI sequence's body from `start`; applies it when it is SGR (or drops it when it is
    /// `ESC [ K`) and returns the index after it, or nil for anything else (other CSI, malformed,
    /// or cut off by the line's end).
    mutating func csi(from start: Int) -> Int? {
        var j = start
        let n = input.count
        while j < n, input[j] >= 0x30 && input[j] <= 0x3F { j += 1 }
        let parametersEnd = j
        while j < n, input[j] >= 0x20 && input[j] <= 0x2F { j += 1 }
        guard j < n, j == parametersEnd else { return nil }
        let parameters = UnsafeBufferPointer(rebasing: input[start..<parametersEnd])
        if input[j] == UInt8(ascii: "K"), parameters.isEmpty || (parameters.count == 1 && parameters[0] == UInt8(ascii: "0")) {
            last = nil  // erase to the end of the line (grep, gcc): nothing to show on a fresh line
            return j + 1
        }
        guard input[j] == UInt8(ascii: "m") else { return nil }
        guard parameters.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x3A || $0 == 0x3B }) else { return nil }
        SGR.apply(parameters, to: &attributes)
        last = nil
        return j + 1
    }

    /// An OSC sequence's body from `start`. An OSC 8 hyperlink, properly terminated (BEL or
    /// ESC \) and with a URL of well-formed, control-free UTF-8, is applied; returns the index
    /// after it, else nil.
    mutating func osc(from start: Int) -> Int? {
        var j = start
        let n = input.count
        var terminatorLength = 0
        while j < n {
            let b = input[j]
            if b == 0x07 { terminatorLength = 1; break }
            if b == 0x1B {
                guard j + 1 < n, input[j + 1] == UInt8(ascii: "\\") else { return nil }
                terminatorLength = 2
                break
            }
            if b < 0x20 || b == 0x7F { return nil }
            j += 1
        }
        guard terminatorLength > 0 else { return nil }
        let body = UnsafeBufferPointer(rebasing: input[start..<j])
        // "8;params;URL"
        guard body.count >= 2, body[0] == UInt8(ascii: "8"), body[1] == UInt8(ascii: ";"),
              let separator = body[2...].firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let urlBytes = UnsafeBufferPointer(rebasing: body[(separator + 1)...])
        guard UTF8Scan.plainRun(in: urlBytes, from: 0) == urlBytes.count else { return nil }
        closeLink()
        if !urlBytes.isEmpty {
            linkURL = String(decoding: urlBytes, as: UTF8.self)
            linkStart = out.count
        }
        last = nil
        return j + terminatorLength
    }

    mutating func closeLink() {
        if let url = linkURL, out.count > linkStart {
            links.append(TextLink(range: linkStart..<out.count, url: url))
        }
        linkURL = nil
    }
}
