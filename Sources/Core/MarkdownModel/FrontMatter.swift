/// YAML (`---` … `---` or `...`) or TOML (`+++` … `+++`) front matter: metadata on the
/// source's first lines that static site generators and GitHub read instead of showing.
///
/// Recognised only when the source's first line (after a byte order mark) is the fence
/// alone (trailing blanks allowed) and a closing fence follows on a later line.
struct FrontMatter: Equatable {
    /// The lines between the fences, each ended by LF.
    var literal: String
    var toml: Bool
    /// Lines taken, fences included.
    var lineCount: Int
    /// Bytes taken, fences and the closing fence's line end included (and a byte order mark).
    var byteCount: Int

    /// The source opens front matter on its first line that has not been closed yet (more
    /// of a growing input may close it).
    static func isOpen(_ bytes: [UInt8]) -> Bool {
        let start = SourceText.hasByteOrderMark(bytes[...]) ? 3 : 0
        guard start < bytes.count, bytes[start] == UInt8(ascii: "-") || bytes[start] == UInt8(ascii: "+"),
              detect(bytes) == nil else { return false }
        let closer = bytes[start] == UInt8(ascii: "+") ? "\n+++\n" : "\n---\n"
        return detect(bytes + Array(closer.utf8)) != nil
    }

    static func detect(_ bytes: [UInt8]) -> FrontMatter? {
        var start = SourceText.hasByteOrderMark(bytes[...]) ? 3 : 0
        guard bytes.count - start >= 7 else { return nil }
        let first = bytes[start]
        guard first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return nil }
        let toml = first == UInt8(ascii: "+")
        func lineEnd(_ from: Int) -> (end: Int, next: Int) {
            var i = from
            while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
            var next = i
            if next < bytes.count, bytes[next] == 0x0D { next += 1 }
            if next < bytes.count, bytes[next] == 0x0A { next += 1 }
            return (i, next)
        }
        func isFence(_ from: Int, _ end: Int, closing: Bool) -> Bool {
            var i = from
            let marker: [UInt8] = toml ? Array("+++".utf8) : Array("---".utf8)
            let alternative: [UInt8] = Array("...".utf8)
            guard end - from >= 3 else { return false }
            let head = Array(bytes[from..<(from + 3)])
            guard head == marker || (closing && !toml && head == alternative) else { return false }
            i += 3
            while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            return i == end
        }
        let opening = lineEnd(start)
        guard isFence(start, opening.end, closing: false), opening.next > opening.end else { return nil }
        start = opening.next
        var literal: [UInt8] = []
        var lines = 1
        var at = start
        while at < bytes.count {
            let line = lineEnd(at)
            lines += 1
            if isFence(at, line.end, closing: true) {
                return FrontMatter(literal: String(decoding: literal, as: UTF8.self), toml: toml, lineCount: lines,
                                   byteCount: line.next)
            }
            literal += bytes[at..<line.end]
            literal.append(0x0A)
            at = line.next
        }
        return nil
    }
}

/// GitHub alerts: a block quote whose first paragraph starts with a line that is only
/// `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case).
enum Alerts {
    /// The alert and the paragraph's inlines without the marker line, or nil.
    static func strippingMarker(from inlines: Inlines) -> (AlertKind, Inlines)? {
        guard let first = inlines.nodes.first, case .text(let text) = first.kind else { return nil }
        var marker = Substring(text)
        while marker.last == " " || marker.last == "\t" { marker.removeLast() }
        guard marker.hasPrefix("[!"), marker.hasSuffix("]"),
              let kind = AlertKind(rawValue: marker.dropFirst(2).dropLast().lowercased()) else { return nil }
        var nodes = Array(inlines.nodes.dropFirst())
        if let next = nodes.first {
            switch next.kind {
            case .softBreak, .lineBreak: nodes.removeFirst()
            default: return nil
            }
        }
        return (kind, Inlines(nodes))
    }
}
