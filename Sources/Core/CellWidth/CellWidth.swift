/// Terminal display width of text, by grapheme cluster.
///
/// A terminal lays text out in cells. Most terminals (tmux, xterm, VTE, foot, and glibc's
/// `wcswidth` that less and the shell count with) give every code point its own width and
/// draw a cluster's code points one after the other, so a cluster is as wide as the sum of
/// its code points; only emoji sequences are joined into one wide glyph. The layout wraps by
/// cluster and counts them that way:
///
/// - Emoji sequences take 2: a flag (two regional indicators 🇫🇷), an emoji followed by
///   VS16 (❤️, keycaps 1️⃣), a skin-tone modifier sequence (👍🏽) and a ZWJ sequence (👨‍👩‍👧).
/// - Any other cluster takes the sum of its code points' widths (`of(_: Unicode.Scalar)`):
///   `क्ष` (क, virama, ष) is 2, `स्त्री` 4, `कि` (a spacing vowel sign) 2, and a run of Arabic
///   number signs joined to the digit after them (`؀؀1`) one column each, plus the digit's.
///
/// A cluster can therefore be wider than 2 (the screen grid gives it that many cells). Known
/// limits: terminals that segment clusters themselves disagree on the non-emoji ones — kitty
/// (0.42 on) draws every cluster in the width of its first code point, WezTerm caps a cluster
/// at 2 — and tmux joins the code point after a ZWJ to the cell before it (`क्\u{200D}ष` is 1
/// column there).
///
/// glibc's `wcwidth` per code point is not used at run time (it depends on the locale); the
/// tables here agree with it (tested) except where glibc has no width for a code point newer
/// than its tables (it says -1; folio takes the Unicode properties Swift knows).
public enum CellWidth {
    /// Columns a grapheme cluster occupies: 0 or more (2 for an emoji sequence).
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        var it = scalars.makeIterator()
        guard let first = it.next() else { return 0 }
        guard let second = it.next() else { return of(first) }
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return 2 }  // a flag
        // One pass sums the widths and stops at what makes an emoji sequence of the cluster;
        // most clusters (a letter and its marks) have none of it and skip the emoji properties.
        var rest = 0
        var zwj = false
        var next: Unicode.Scalar? = second
        while let s = next {
            switch s.value {
            case 0xFE0F:  // VS16, zero width when it does not make an emoji
                if isEmoji(first) { return 2 }
            case 0x200D:  // ZWJ, zero width
                zwj = true
            case 0x1F3FB...0x1F3FF:  // a skin-tone modifier, wide when it does not join
                if isEmojiModifierBase(first) { return 2 }
                rest += 2
            default:
                if zwj && isEmoji(first) { return 2 }
                rest += of(s)
            }
            next = it.next()
        }
        return of(first) + rest
    }

    /// Whether `first` starts an emoji sequence when VS16 or a ZWJ that joins something (not
    /// one at the end of the cluster) follows it. Of ASCII, digits, # and * are emoji (keycap
    /// bases, 1️⃣); "e\u{FE0F}" is a letter.
    @inline(__always)
    static func isEmoji(_ first: Unicode.Scalar) -> Bool {
        if first.value < 0x80 {
            return (first.value >= 0x30 && first.value <= 0x39) || first.value == 0x23 || first.value == 0x2A
        }
        return first.properties.isEmoji
    }

    /// Whether a skin-tone modifier after `first` makes an emoji sequence (👍🏽): only after an
    /// emoji modifier base; after anything else it is a wide character of its own, as tmux
    /// draws it (😀🏽 is 4 columns).
    @inline(__always)
    static func isEmojiModifierBase(_ first: Unicode.Scalar) -> Bool {
        first.value >= 0x80 && first.properties.isEmojiModifierBase
    }

    /// Columns of a single scalar, as a terminal that draws code points one by one gives it: 0,
    /// 1 or 2. Controls count 0 (the layout shows them in caret notation before measuring).
    public static func of(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return 0 }                      // DEL and C1 controls
        if v < 0x300 { return 1 }                     // Latin-1, Latin Extended (terminals draw the soft hyphen)
        if isNarrowWithoutLookUp(v) { return 1 }
        return ofLookingUp(s)
    }

    /// Greek and Cyrillic letters, most general punctuation, box drawing and block elements:
    /// one column each, without the property look-ups of `ofLookingUp` (a frame's rules,
    /// borders and quotes, which the look-ups made costly to compose; docs/benchmarks.md). A
    /// law test holds these ranges to `ofLookingUp`.
    @inline(__always)
    static func isNarrowWithoutLookUp(_ v: UInt32) -> Bool {
        (v >= 0x370 && v <= 0x482) || (v >= 0x2010 && v <= 0x2027) || (v >= 0x2500 && v <= 0x259F)
    }

    /// `of` for a scalar from U+0300 on, by its properties and the tables.
    static func ofLookingUp(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if isPrependedConcatenationMark(v) { return 1 }
        // Hangul medial vowels and final consonants (Jamo, Jamo Extended-B): drawn into the
        // syllable block before them.
        if (v >= 0x1160 && v <= 0x11FF) || (v >= 0xD7B0 && v <= 0xD7FF) { return 0 }
        if isWide(v) { return 2 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Emoji newer than the wide table; a regional indicator alone is one column (wcwidth),
        // a pair a flag (`of(_: Character)`).
        if s.properties.isEmojiPresentation && !isRegionalIndicator(s) { return 2 }
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
    /// Grapheme segmentation joins them to the character after them, whose cluster counts a
    /// column for each.
    @inline(__always)
    public static func isPrependedConcatenationMark(_ v: UInt32) -> Bool {
        switch v {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD: return true
        default: return false
        }
    }

    @inline(__always)
    static func isRegionalIndicator(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x1F1E6 && s.value <= 0x1F1FF
    }

    /// Whether a code point is two columns wide (binary search in `wideRanges`).
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
