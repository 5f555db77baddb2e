/// One thing the user did, decoded from the bytes the terminal sent.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text pasted with bracketed paste (`ESC[200~` … `ESC[201~`), as sent (it may contain
    /// newlines, tabs and other controls; the consumer decides what to keep).
    case paste(String)
    /// The terminal answering a question (colours, device attributes): never a key.
    case reply(TerminalReply)
}

/// A key press.
///
/// Canonical forms (what `KeyDecoder` produces and the tests' `KeyNotation` parses):
/// - Printable text is `.char` (`"G"`, `" "`, `"é"`: one Unicode scalar per event).
/// - Ctrl with a letter or one of `@ [ \ ] ^ _` is `.ctrl` with the lowercase letter, except
///   the bytes that terminals cannot tell apart from named keys: Ctrl-I is `.tab`, Ctrl-M and
///   Ctrl-J are `.enter`, Ctrl-H is `.backspace`, Ctrl-[ is `.escape`.
/// - Shift or Ctrl on a named key (arrows, Home…, F-keys) is `.modified(key, [...])`;
///   Shift-Tab is `.backTab`.
/// - Alt is always outermost: `.alt(.char("v"))`, `.alt(.modified(.left, .ctrl))`.
public enum Key: Hashable, Sendable {
    case char(Character)
    case ctrl(Character)
    indirect case alt(Key)
    indirect case modified(Key, KeyModifiers)
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    case backspace, enter, tab, backTab, escape
    /// F1…F12 (and beyond, if a terminal sends them).
    case function(Int)
}

/// Shift, Alt and Ctrl as reported with special keys and mouse events.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)
}

/// A mouse report (SGR 1006 or legacy X10), in 0-based cell coordinates.
public struct MouseEvent: Hashable, Sendable {
    public enum Button: Hashable, Sendable {
        case left, middle, right
        /// Buttons 8…11 (back/forward on many mice) as 8…11.
        case other(Int)
    }

    public enum Kind: Hashable, Sendable {
        case press(Button)
        /// The button is nil when the protocol does not say which one (X10).
        case release(Button?)
        case drag(Button)
        /// Motion with no button held (mode 1003 only).
        case move
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }

    public var kind: Kind
    public var row: Int
    public var column: Int
    public var modifiers: KeyModifiers

    public init(kind: Kind, row: Int, column: Int, modifiers: KeyModifiers = []) {
        self.kind = kind; self.row = row; self.column = column; self.modifiers = modifiers
    }
}

extension MouseEvent {
    /// Decodes the button field shared by SGR and X10 reports; `released` is SGR's final `m`.
    init(button code: Int, column: Int, row: Int, released: Bool, sgr: Bool) {
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.ctrl) }
        let low = code & 3
        let motion = code & 32 != 0
        let kind: Kind
        if code & 128 != 0 {
            let button = Button.other(8 + low)
            kind = released ? .release(button) : motion ? .drag(button) : .press(button)
        } else if code & 64 != 0 {
            kind = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight][low]
        } else {
            let button: Button? = low == 3 ? nil : [Button.left, .middle, .right][low]
            if let button, !(released && !sgr) {
                kind = released ? .release(button) : motion ? .drag(button) : .press(button)
            } else {
                kind = motion ? .move : .release(sgr ? button : nil)
            }
        }
        self.init(kind: kind, row: max(0, row - 1), column: max(0, column - 1), modifiers: modifiers)
    }
}
