import TerminalScreen

/// A one-line text editor for prompts: ←/→, Home/End (Ctrl-A/Ctrl-E), Backspace, Delete,
/// Ctrl-U (erase to start), Ctrl-W (erase word), Ctrl-K (erase to end). Pure.
public struct LineEditor: Hashable, Sendable {
    public private(set) var characters: [Character] = []
    /// Insertion point, 0...characters.count.
    public private(set) var cursor = 0

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    public enum Outcome: Hashable, Sendable { case edited, moved, unhandled }

    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .char(let c):
            characters.insert(c, at: cursor); cursor += 1; return .edited
        case .left, .ctrl("b"): cursor = max(0, cursor - 1); return .moved
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1); return .moved
        case .home, .ctrl("a"): cursor = 0; return .moved
        case .end, .ctrl("e"): cursor = characters.count; return .moved
        case .backspace:
            guard cursor > 0 else { return .moved }
            characters.remove(at: cursor - 1); cursor -= 1; return .edited
        case .delete, .ctrl("d"):
            guard cursor < characters.count else { return .moved }
            characters.remove(at: cursor); return .edited
        case .ctrl("u"):
            characters.removeSubrange(0..<cursor); cursor = 0; return .edited
        case .ctrl("k"):
            characters.removeSubrange(cursor...); return .edited
        case .ctrl("w"), .alt(.backspace):
            var i = cursor
            while i > 0 && characters[i - 1] == " " { i -= 1 }
            while i > 0 && characters[i - 1] != " " { i -= 1 }
            characters.removeSubrange(i..<cursor); cursor = i; return .edited
        default:
            return .unhandled
        }
    }

    public mutating func replace(with text: String) {
        characters = Array(text); cursor = characters.count
    }
}
