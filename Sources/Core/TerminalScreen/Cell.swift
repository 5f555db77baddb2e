import CellWidth

/// One column of the screen.
///
/// A cell holds one grapheme cluster and its width in columns (`CellWidth`: 1, 2 for wide
/// characters and emoji, more for a cluster terminals draw code point by code point, such as
/// `स्त्री`). Each column after a wider-than-1 cluster is a *continuation* cell: empty text,
/// width 0, the same style; it is never printed, the cluster covers it.
///
/// Invariant: `text` never contains a control character (C0, DEL, C1) — the initialiser
/// replaces them — so no cell can inject an escape sequence into a frame.
public struct Cell: Hashable, Sendable {
    public private(set) var text: String
    /// Columns covered: 1 or more, or 0 for a continuation cell.
    public private(set) var width: Int
    public var style: CellStyle

    /// A cell showing one grapheme cluster. Control characters become U+FFFD (use
    /// `Grid.put`, which spells C0 controls in caret notation, for text); a zero-width cluster
    /// alone is shown as a space.
    public init(_ character: Character, style: CellStyle = .plain) {
        if Cell.isControl(character) {
            self.init(verified: "\u{FFFD}", width: 1, style: style)
        } else {
            let w = CellWidth.of(character)
            if w <= 0 {
                self.init(verified: " ", width: 1, style: style)
            } else {
                self.init(verified: String(character), width: w, style: style)
            }
        }
    }

    init(verified text: String, width: Int, style: CellStyle) {
        self.text = text; self.width = width; self.style = style
    }

    /// A space in the given style.
    public static func blank(_ style: CellStyle = .plain) -> Cell {
        Cell(verified: " ", width: 1, style: style)
    }

    /// A cell under a column of a wide cluster after its first.
    public static func continuation(_ style: CellStyle) -> Cell {
        Cell(verified: "", width: 0, style: style)
    }

    public var isContinuation: Bool { width == 0 }

    /// The printable ASCII characters (U+0020 to U+007E) as strings, by code minus 0x20.
    static let asciiTexts: [String] = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }

    /// True when any scalar of the cluster is C0 (U+0000–U+001F), DEL or C1 (U+0080–U+009F).
    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { isControl($0) }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }
}
