import CellWidth
import TestSupport
import Testing
@testable import TerminalScreen

/// `Grid.put` writes text of simple scalars (`Grid.isSimple`) one cell per scalar, without
/// grapheme segmentation: these laws hold it to the general way (`putByCharacter`).
@Suite struct GridFastPathTests {
    static let simpleRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0xA0...0x2FF, 0x370...0x482, 0x2010...0x205F, 0x2070...0x20CF, 0x2100...0x2BFF,
        0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
    ]

    /// Each simple scalar is a cluster of its own next to any other (both orders), no control
    /// character, and as wide alone as the Character it makes.
    @Test func simpleScalarsAreClustersOfTheirOwn() {
        var partners: [Unicode.Scalar] = []
        for range in Self.simpleRanges {
            for v in [range.lowerBound, range.lowerBound + (range.upperBound - range.lowerBound) / 2, range.upperBound] {
                partners.append(Unicode.Scalar(v)!)
            }
        }
        partners += ["\u{AD}", "═", "ℹ", "⚠", "‼", "★", "↩", "⌚", "가", "각"]
        var count = 0
        for range in Self.simpleRanges {
            for v in range {
                guard let s = Unicode.Scalar(v) else { continue }
                #expect(Grid.isSimple(v))
                count += 1
                let alone = Character(s)
                #expect(!Cell.isControl(alone) && CellWidth.of(alone) == CellWidth.of(s), "U+\(String(v, radix: 16))")
                for p in partners {
                    var pair = String(s); pair.unicodeScalars.append(p)
                    var reversed = String(p); reversed.unicodeScalars.append(s)
                    #expect(pair.count == 2 && reversed.count == 2, "U+\(String(v, radix: 16)) U+\(String(p.value, radix: 16))")
                }
            }
        }
        #expect(count == Self.simpleRanges.reduce(0) { $0 + $1.count })
        // Just outside: a combining mark, a control, a ZWJ, a variation selector.
        for v: UInt32 in [0x1F, 0x7F, 0x9F, 0x300, 0x483, 0x200D, 0x2060, 0x20D0, 0xFE0F, 0x1F600] {
            #expect(!Grid.isSimple(v))
        }
    }

    static let alphabet: [String] = [
        "a", "Z", " ", "~", "é", "Ω", "ж", "═", "│", "—", "…", "ℹ", "⚠", "⌚", "中", "か", "가",  // simple
        "e\u{301}", "\u{301}", "👍🏽", "❤\u{FE0F}", "\t", "\u{1B}", "\u{85}", "\u{200B}", "🇫🇷", "क्ष",  // not
    ]

    /// Random writes (overlapping, over wide cells, cut at both edges) leave the same grid and
    /// return the same column whichever way they are written.
    @Test(arguments: 0..<200)
    func putMatchesPutByCharacter(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 31 &+ 7)
        let rows = Int.random(in: 1...4, using: &rng), columns = Int.random(in: 1...12, using: &rng)
        var fast = Grid(rows: rows, columns: columns), reference = fast
        let styles: [CellStyle] = [.plain, CellStyle(bold: true), CellStyle(foreground: .ansi(2), hyperlink: "https://x")]
        for _ in 0..<Int.random(in: 1...12, using: &rng) {
            // Mostly simple text (the fast path), sometimes not.
            let pool = Bool.random(using: &rng) ? Array(Self.alphabet.prefix(17)) : Self.alphabet
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pool.randomElement(using: &rng)! }.joined()
            let style = styles.randomElement(using: &rng)!
            let row = Int.random(in: -1...rows, using: &rng), column = Int.random(in: -2...(columns + 1), using: &rng)
            let a = fast.put(text, style: style, row: row, column: column)
            let b = reference.putByCharacter(text, style: style, row: row, column: column)
            #expect(a == b, "\(text.debugDescription) at \(row),\(column)")
        }
        let same = fast == reference
        #expect(same, "fast\n\(fast.dump(styles: true))\nreference\n\(reference.dump(styles: true))")
    }
}
