/// Terminal display width of text, by grapheme cluster. (STUB)
public enum CellWidth {
    /// Columns a grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ c: Character) -> Int { fatalError("stub") }
    /// Columns a string occupies (sum over its grapheme clusters).
    public static func of(_ s: Substring) -> Int { fatalError("stub") }
    public static func of(_ s: String) -> Int { of(Substring(s)) }
}
