import LessOptions
import TerminalScreen

/// The user's key bindings: the `#command` section of their lesskey source, then folio's own
/// `keys` file (the same format, folio's action names too), over folio's keymap. A binding
/// is a sequence of keys; a later file's binding of the same keys wins, and either wins over
/// the built-in keys. `#stop` (less's) leaves only the files' bindings: any other key is
/// invalid (Ctrl-C still interrupts).
public struct KeyBindings: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var keys: [Key]
        public var actionName: String
        public var action: BoundAction
        /// Keys typed after the action (lesskey's extra string).
        public var extra: [Key]
        /// `file:line`.
        public var origin: String
    }

    /// In the order read; for the same keys the last one counts.
    public private(set) var entries: [Entry] = []
    /// Where `#stop` was, if anywhere.
    public private(set) var stop: String?

    public init() {}

    public var isEmpty: Bool { entries.isEmpty && stop == nil }

    /// Adds a file's `#command` bindings; returns what was wrong (`file:line: unknown action
    /// "foo"`), the bindings concerned left out. folio's own action names are allowed in
    /// folio's keys file (`Lesskey.folioActions`), not in a lesskey file, which less reads too.
    @discardableResult
    public mutating func add(_ file: Lesskey) -> [String] {
        let folioNames = file.folioActions
        var errors = file.errors
        for binding in file.commands {
            let origin = "\(file.name):\(binding.line)"
            let keys = Self.keys(binding.keys)
            guard !keys.isEmpty else { continue }
            let extra = Self.keys(binding.extra.map { .byte($0) })
            guard var action = KeyActions.action(named: binding.action, folioNames: folioNames) else {
                if let why = KeyActions.lessUnsupported[binding.action] {
                    errors.append("\(origin): \(binding.action) is not in folio (\(why)); the binding is left out")
                } else if KeyActions.folio[binding.action] != nil {
                    errors.append("\(origin): unknown action \"\(binding.action)\" (a folio action: it belongs in folio's keys file)")
                } else {
                    errors.append("\(origin): unknown action \"\(binding.action)\"")
                }
                continue
            }
            var extraKeys = extra
            if let bracket = KeyActions.bracketCommand(binding.action, extra: extra) {
                action = .command(bracket)
                extraKeys = []
            }
            entries.append(Entry(keys: keys, actionName: binding.action, action: action, extra: extraKeys, origin: origin))
        }
        if let line = file.commandStop { stop = "\(file.name):\(line)" }
        return errors
    }

    /// Adds a file's `#line-edit` bindings (for the prompt): each as the key that does the
    /// action in folio's prompt; returns what was wrong.
    @discardableResult
    public mutating func addLineEdits(_ file: Lesskey) -> [String] {
        var errors: [String] = []
        for binding in file.lineEdits {
            let origin = "\(file.name):\(binding.line)"
            let keys = Self.keys(binding.keys)
            guard !keys.isEmpty else { continue }
            guard let action = KeyActions.lineEdit[binding.action] else {
                if let why = KeyActions.lineEditUnsupported[binding.action] {
                    errors.append("\(origin): #line-edit \(binding.action) is not in folio (\(why)); the binding is left out")
                } else {
                    errors.append("\(origin): unknown #line-edit action \"\(binding.action)\"")
                }
                continue
            }
            entries.append(Entry(keys: keys, actionName: binding.action, action: action, extra: [], origin: origin))
        }
        if let line = file.lineEditStop { stop = "\(file.name):\(line)" }
        return errors
    }

    public enum Match: Hashable, Sendable {
        case none
        /// The keys begin a longer binding: wait for the next key.
        case prefix
        case found(Entry)
    }

    /// What `keys` mean: the binding of exactly these keys (the last one), unless a longer
    /// binding starts with them.
    public func match(_ keys: [Key]) -> Match {
        if entries.contains(where: { $0.keys.count > keys.count && Array($0.keys.prefix(keys.count)) == keys }) { return .prefix }
        if let entry = entries.last(where: { $0.keys == keys }) { return .found(entry) }
        return .none
    }

    /// The bindings in effect: for each key sequence, the last entry.
    public var effective: [Entry] {
        var seen = Set<[Key]>()
        var result: [Entry] = []
        for entry in entries.reversed() where seen.insert(entry.keys).inserted { result.append(entry) }
        return result.reversed()
    }

    /// A lesskey string's keys as folio's decoder reads them from a terminal: the bytes
    /// through `KeyDecoder` (`\e[A` is Up, `^X` Ctrl-X, `\ev` Alt-v: Esc then v), lesskey's
    /// named keys (`\kd`) as those keys, Esc before a named key making it Alt.
    public static func keys(_ pieces: [Lesskey.Piece]) -> [Key] {
        var keys: [Key] = []
        var bytes: [UInt8] = []
        func flush() {
            guard !bytes.isEmpty else { return }
            var decoder = KeyDecoder()
            let events = decoder.feed(bytes) + decoder.flushTimeout()
            for case .key(let k) in events { keys.append(k) }
            bytes = []
        }
        for piece in pieces {
            switch piece {
            case .byte(let b): bytes.append(b)
            case .special(let name):
                let alt = bytes.last == 0x1B
                if alt { bytes.removeLast() }
                flush()
                guard let key = named[name] else { continue }
                keys.append(alt ? .alt(key) : key)
            }
        }
        flush()
        return keys
    }

    /// lesskey's `\k` keys.
    static let named: [Character: Key] = [
        "u": .up, "d": .down, "l": .left, "r": .right,
        "L": .modified(.left, .ctrl), "R": .modified(.right, .ctrl),
        "U": .pageUp, "D": .pageDown, "h": .home, "e": .end, "i": .insert,
        "x": .delete, "X": .modified(.delete, .ctrl), "b": .backspace, "B": .modified(.backspace, .ctrl),
        "t": .backTab, "1": .function(1),
    ]

    /// Keys written back in lesskey's notation (`^X`, `\e`, `\kd`, `\40` for a space).
    public static func notation(_ keys: [Key]) -> String {
        keys.map(notation).joined()
    }

    static func notation(_ key: Key) -> String {
        switch key {
        case .char(" "): return "\\40"
        case .char(let c) where c == "\\" || c == "^" || c == "#": return "\\" + String(c)
        case .char(let c): return String(c)
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .alt(let k): return "\\e" + notation(k)
        case .enter: return "\\r"
        case .tab: return "\\t"
        case .escape: return "\\e"
        case .function(let n) where n != 1: return "<F\(n)>"
        default:
            if let name = named.first(where: { $0.value == key })?.key { return "\\k" + String(name) }
            return "\(key)"
        }
    }
}
