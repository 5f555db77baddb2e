import TestSupport
/// Seeded random Markdown using every element kind the layout knows, with CJK, emoji,
/// control characters, long words and nesting.
struct MarkdownGenerator {
    typealias SplitMix = SeededRandom

    var rng: SplitMix
    init(seed: UInt64) { rng = SplitMix(state: seed) }

    static let words = [
        "the", "tide", "is", "high", "harbour", "a", "of", "water", "supercalifragilisticexpialidocious",
        "日本語の文章", "한국어", "😀", "👍🏽", "👨‍👩‍👧", "❤️", "🇫🇷", "e\u{301}", "naïve", "ｆｕｌｌ", "x",
        "संयुक्ताक्षर", "स्त्री", "a\u{600}\u{600}\u{600}\u{600}b",  // clusters 3, 4 and 5 columns wide
        "\u{1B}[31mred", "tab\there", "a-very-long-hyphenated-word-that-never-ends", "0123456789012345678901234567890",
    ]

    mutating func word() -> String { Self.words.randomElement(using: &rng)! }

    mutating func inline(_ count: Int) -> String {
        var parts: [String] = []
        for _ in 0..<count {
            let w = word()
            switch Int.random(in: 0..<14, using: &rng) {
            case 0: parts.append("*\(w)*")
            case 1: parts.append("**\(w) \(word())**")
            case 2: parts.append("`\(w)`")
            case 3: parts.append("~~\(w)~~")
            case 4: parts.append("[\(w) \(word())](https://example.org/\(Int.random(in: 0..<99, using: &rng)))")
            case 5: parts.append("![\(w)](pic.png)")
            case 6: parts.append("<https://example.org>")
            case 7: parts.append("<b>\(w)</b>")
            case 8: parts.append("\(w)\\\n\(word())")
            case 9: parts.append("\(w)\n\(word())")
            default: parts.append(w)
            }
        }
        return parts.joined(separator: " ")
    }

    mutating func block(depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 2 ? 7 : 10), using: &rng) {
        case 0: return String(repeating: "#", count: Int.random(in: 1...6, using: &rng)) + " " + inline(Int.random(in: 1...6, using: &rng))
        case 1: return "```" + ["", "swift", "sh extra"].randomElement(using: &rng)! + "\n" + (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                String(repeating: " ", count: Int.random(in: 0...6, using: &rng)) + inline(Int.random(in: 0...12, using: &rng)).replacingOccurrences("`", "") + "\t;"
            }.joined(separator: "\n") + "\n```"
        case 2: return "---"
        case 3:
            let columns = Int.random(in: 1...4, using: &rng)
            let aligns = [":--", "--:", ":-:", "---"]
            var rows = ["| " + (0..<columns).map { _ in word() }.joined(separator: " | ") + " |"]
            rows.append("|" + (0..<columns).map { _ in aligns.randomElement(using: &rng)! }.joined(separator: "|") + "|")
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                rows.append("| " + (0..<columns).map { _ in inline(Int.random(in: 0...4, using: &rng)).replacingOccurrences("|", "").replacingOccurrences("\n", " ") }.joined(separator: " | ") + " |")
            }
            return rows.joined(separator: "\n")
        case 4: return "<div>\n" + word() + "\n</div>"
        case 5, 6: return inline(Int.random(in: 1...25, using: &rng))
        case 7:
            return indent(block(depth: depth + 1), "> ")
        default:
            let ordered = Bool.random(using: &rng)
            let tight = Bool.random(using: &rng)
            let start = Int.random(in: 0...12, using: &rng)
            return (0..<Int.random(in: 1...4, using: &rng)).map { k in
                let marker = ordered ? "\(start + k). " : ["- ", "* ", "- [ ] ", "- [x] "].randomElement(using: &rng)!
                var item = block(depth: depth + 1)
                if Bool.random(using: &rng) { item += "\n\n" + block(depth: depth + 1) }
                return marker + indent(item, String(repeating: " ", count: marker.count)).dropFirst(marker.count)
            }.joined(separator: tight ? "\n" : "\n\n")
        }
    }

    func indent(_ s: String, _ prefix: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }

    mutating func document(blocks: Int) -> String {
        (0..<blocks).map { _ in block(depth: 0) }.joined(separator: "\n\n") + "\n"
    }
}

extension String {
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}
