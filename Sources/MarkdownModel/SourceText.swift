/// The Markdown source as the parser sees it: valid UTF-8 without NUL bytes, plus a line index.
///
/// Invalid UTF-8 and NUL are replaced by U+FFFD *before* cmark runs, so the byte columns cmark
/// reports and the bytes the extensions read (pipe tables, fenced-code detection) agree.
/// Lines end at `\n`, `\r\n` or a lone `\r`, as in CommonMark; line numbers are 1-based.
struct SourceText {
    /// Sanitized bytes (what cmark parses).
    let bytes: [UInt8]
    /// Byte offset at which each line starts; `lineStarts[n - 1]` is line `n`.
    private(set) var lineStarts: [Int]

    init(_ input: [UInt8]) {
        var clean = Array(String(decoding: input, as: UTF8.self).utf8)
        if clean.contains(0) {
            var repaired: [UInt8] = []
            repaired.reserveCapacity(clean.count + 16)
            for byte in clean {
                if byte == 0 { repaired.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { repaired.append(byte) }
            }
            clean = repaired
        }
        bytes = clean
        var starts: [Int] = []
        starts.reserveCapacity(clean.count / 32 + 1)
        clean.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            guard count > 0 else { return }
            starts.append(0)
            var index = 0
            while index < count {
                let byte = buffer[index]
                index += 1
                if byte == 0x0A || byte == 0x0D {
                    if byte == 0x0D, index < count, buffer[index] == 0x0A { index += 1 }
                    if index < count { starts.append(index) }
                }
            }
        }
        lineStarts = starts
    }

    /// Number of source lines; a final line ending does not start another line. 0 for empty input.
    var lineCount: Int { lineStarts.count }

    /// The bytes of 1-based line `number`, without its line ending (empty when out of range).
    func line(_ number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= lineStarts.count else { return bytes[0..<0] }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }
}
