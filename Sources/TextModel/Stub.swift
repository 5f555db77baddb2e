// Placeholder until the TextModel branch lands (same public API); deleted at the merge.
import CellWidth
import Styling

public enum DocumentKind: String, Sendable { case markdown, text }

public enum KindDetector {
    public static func kind(forPath path: String) -> DocumentKind? {
        let lower = path.lowercased()
        for ext in [".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mdx"] where lower.hasSuffix(ext) { return .markdown }
        return nil
    }
    public static func sniff(_ prefix: some Collection<UInt8>) -> DocumentKind {
        let s = String(decoding: prefix, as: UTF8.self)
        if s.contains("\u{1B}[") || s.contains("\u{08}") || s.hasPrefix("commit ") || s.hasPrefix("diff --git") { return .text }
        for line in s.split(separator: "\n", omittingEmptySubsequences: false).prefix(400) {
            if line.hasPrefix("# ") || line.hasPrefix("## ") || line.hasPrefix("```") { return .markdown }
        }
        return .text
    }
}

public struct StyledRun: Equatable, Sendable {
    public var range: Range<Int>
    public var attributes: TextAttributes
    public init(range: Range<Int>, attributes: TextAttributes) { self.range = range; self.attributes = attributes }
}

public struct TextLink: Equatable, Sendable {
    public var range: Range<Int>
    public var url: String
    public init(range: Range<Int>, url: String) { self.range = range; self.url = url }
}

public struct StyledLine: Equatable, Sendable {
    public var text: String
    public var runs: [StyledRun]
    public var links: [TextLink]
    public init(text: String, runs: [StyledRun] = [], links: [TextLink] = []) { self.text = text; self.runs = runs; self.links = links }
}

public enum TerminalTextDecoder {
    public static func decode(_ line: some Collection<UInt8>, tabWidth: Int = 8) -> StyledLine {
        var out: [UInt8] = []
        var column = 0
        for b in line {
            if b == 0x09 {
                let n = tabWidth - column % tabWidth
                out += Array(repeating: 0x20, count: n); column += n
            } else if b < 0x20 || b == 0x7F {
                out += [0x5E, b == 0x7F ? 0x3F : b + 0x40]; column += 2
            } else { out.append(b); if b & 0xC0 != 0x80 { column += 1 } }
        }
        return StyledLine(text: String(decoding: out, as: UTF8.self))
    }
}
