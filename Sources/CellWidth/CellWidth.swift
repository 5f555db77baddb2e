/// Terminal display width of text, by grapheme cluster.
///
/// A terminal lays text out in cells; what occupies how many cells is decided per grapheme
/// cluster (a user-perceived character), not per scalar:
///
/// - East Asian Wide and Fullwidth characters (CJK, Hangul syllables, fullwidth forms) take 2.
/// - Emoji take 2 when presented as emoji: scalars with Emoji_Presentation, a text-default
///   emoji followed by VS16 (U+FE0F), ZWJ sequences (👨‍👩‍👧), skin-tone modifier sequences
///   (👍🏽), flags (a pair of regional indicators 🇫🇷) and keycaps (1️⃣).
/// - Combining marks (Mn, Me), format characters (Cf: ZWJ, ZWSP, soft hyphen…) and controls
///   take 0 when they stand alone (at the start of a string); attached to a base they add nothing.
///   Spacing marks (Mc) add a column each, as terminals draw them (at most 2 per cluster).
/// - A prepended concatenation mark (U+0600…0605, U+06DD, U+070F, U+08E2…) takes a column of
///   its own, and the cluster it starts one more for what follows (2, the most a cell holds; a
///   wide character after the mark would need 3 — counted 2, a known limit).
/// - Everything else printable takes 1 (East Asian Ambiguous counts as narrow).
///
/// glibc's `wcwidth` is not used: it is wrong for emoji sequences (👍🏽 = 4, ❤️ = 1).
public enum CellWidth {
    /// Columns a grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        var it = scalars.makeIterator()
        guard let first = it.next() else { return 0 }
        guard let second = it.next() else { return of(first) }
        if first.value < 0x80 {
            // "1️⃣", "#⃣": keycap sequences are emoji; "e\u{301}" is a letter with a mark.
            if scalars.contains(where: { $0.value == 0x20E3 }) { return 2 }
            if first.value < 0x20 || first.value == 0x7F { return 0 }
            return min(2, 1 + spacingMarks(after: scalars))
        }
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return 2 }
        let firstProps = first.properties
        if firstProps.isEmoji {
            for s in scalars {
                switch s.value {
                case 0xFE0F, 0x200D, 0x20E3, 0x1F3FB...0x1F3FF: return 2  // VS16, ZWJ, keycap, skin tone
                case 0xFE0E: return isWide(first.value) ? 2 : 1            // VS15: text presentation
                default: continue
                }
            }
        }
        if isVisiblePrepend(first.value) {
            // Terminals draw the mark in a column of its own, then what follows it.
            var rest = 0
            for s in scalars.dropFirst() { rest = max(rest, of(s)) }
            return min(2, 1 + rest)
        }
        let base = of(first)
        if base == 0 {
            // A cluster that starts with a zero-width scalar is a prepend cluster (U+0600…0605
            // and the like, which Unicode joins to the character after them): it is as wide as
            // what follows.
            var widest = 0
            for s in scalars.dropFirst() { widest = max(widest, of(s)) }
            return min(2, widest)
        }
        // Spacing marks (Mc: many Indic vowel signs) take a column of their own in terminals,
        // which give every code point its own width; count them so rows never run wider than
        // the terminal thinks. (Capped at 2, the most a cell holds; longer chains are rare.)
        return min(2, base + spacingMarks(after: scalars))
    }

    /// Spacing marks (Mc) after a cluster's first scalar.
    static func spacingMarks(after scalars: String.UnicodeScalarView) -> Int {
        var marks = 0
        for s in scalars.dropFirst() where s.value >= 0x300 && s.properties.generalCategory == .spacingMark { marks += 1 }
        return marks
    }

    /// Columns of a single scalar standing alone: 0, 1 or 2. Controls count 0.
    public static func of(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return 0 }                      // DEL and C1 controls
        if v < 0x300 { return v == 0xAD ? 0 : 1 }     // Latin-1, Latin Extended: all narrow
        if isPrependedConcatenationMark(v) { return 1 }
        if v >= 0x1160 && v <= 0x11FF { return 0 }    // Hangul medial vowels / final consonants
        if isWide(v) { return 2 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if s.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns a string occupies (sum over its grapheme clusters).
    public static func of(_ s: Substring) -> Int {
        if let ascii = s.utf8.withContiguousStorageIfAvailable({ asciiWidth($0) }), let w = ascii {
            return w
        }
        var total = 0
        for c in s { total += of(c) }
        return total
    }

    public static func of(_ s: String) -> Int {
        var s = s
        if let ascii = s.withUTF8({ asciiWidth($0) }) { return ascii }
        var total = 0
        for c in s { total += of(c) }
        return total
    }

    /// Width of a buffer of printable ASCII (its byte count), or nil when it holds anything else.
    @inline(__always)
    static func asciiWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for b in bytes where b < 0x20 || b >= 0x7F { return nil }
        return bytes.count
    }

    /// Unicode's Prepended_Concatenation_Mark (Arabic number signs U+0600…0605, end of ayah
    /// U+06DD, Syriac abbreviation mark U+070F, U+0890–0891, U+08E2, Kaithi U+110BD/U+110CD):
    /// format characters that are visible, which terminals draw in a column of their own.
    /// Grapheme segmentation joins one to the character after it, so the cluster is 2 wide.
    @inline(__always)
    public static func isPrependedConcatenationMark(_ v: UInt32) -> Bool {
        switch v {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD: return true
        default: return false
        }
    }

    /// Characters that grapheme segmentation joins to the character after them (Unicode's
    /// Grapheme_Cluster_Break=Prepend) and that are drawn: the prepended concatenation marks
    /// and a few letters (Malayalam dot reph U+0D4E, and in other scripts of planes 1).
    /// Terminals give each its own column, then draw what follows.
    @inline(__always)
    static func isVisiblePrepend(_ v: UInt32) -> Bool {
        if isPrependedConcatenationMark(v) { return true }
        switch v {
        case 0xD4E, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02: return true
        default: return false
        }
    }

    @inline(__always)
    static func isRegionalIndicator(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x1F1E6 && s.value <= 0x1F1FF
    }

    /// Whether a code point is East Asian Wide or Fullwidth (binary search in `wideRanges`).
    public static func isWide(_ v: UInt32) -> Bool {
        if v < wideRanges[0].0 { return false }
        var lo = 0, hi = wideRanges.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if wideRanges[mid].1 < v { lo = mid + 1 } else { hi = mid }
        }
        return lo < wideRanges.count && wideRanges[lo].0 <= v
    }
}
