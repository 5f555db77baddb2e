import TerminalScreen
import TextSearch

/// less's search modifiers: typed first at the `/` or `?` prompt (`&` takes `!` only), each
/// toggling, shown before the prompt in less's words (`Non-match /`, `EOF-ignore Keep-pos /`).
/// `^R` (literal text) is `Prompt.literal`, shown as `[literal]`.
public struct SearchModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `!` or `^N`: lines (Markdown: blocks) with no match.
    public static let nonMatching = SearchModifiers(rawValue: 1)
    /// `@` or `^F`: from the first file's top (backward: the last file's end).
    public static let firstFile = SearchModifiers(rawValue: 2)
    /// `*` or `^E`: past the end of the file into the next ones (backward: the previous).
    public static let acrossFiles = SearchModifiers(rawValue: 4)
    /// `^K`: highlight the matches, do not move.
    public static let keepPosition = SearchModifiers(rawValue: 8)
    /// `^W`: wrap round the file, whatever `--search-wrap` says.
    public static let wrap = SearchModifiers(rawValue: 16)

    /// What a search keeps for `n` and `N` (less's `^F` and `^K` act once).
    static let lasting: SearchModifiers = [.nonMatching, .acrossFiles, .wrap]

    /// The words less puts before the prompt, in its order.
    var labels: String {
        var text = ""
        if contains(.nonMatching) { text += "Non-match " }
        if contains(.firstFile) { text += "First-file " }
        if contains(.acrossFiles) { text += "EOF-ignore " }
        if contains(.keepPosition) { text += "Keep-pos " }
        if contains(.wrap) { text += "Wrap-around " }
        return text
    }
}

extension Prompt {
    /// A modifier key typed before the pattern toggles its modifier (across files and wrap
    /// exclude each other, as in less); false for any other key. The filter takes `!` only.
    mutating func toggleModifier(for key: Key) -> Bool {
        let modifier: SearchModifiers
        switch key {
        case .char("!"), .ctrl("n"): modifier = .nonMatching
        case .char("*"), .ctrl("e"): modifier = .acrossFiles
        case .char("@"), .ctrl("f"): modifier = .firstFile
        case .ctrl("k"): modifier = .keepPosition
        case .ctrl("w"): modifier = .wrap
        default: return false
        }
        if kind == .filter && modifier != .nonMatching { return false }
        if modifiers.contains(modifier) {
            modifiers.remove(modifier)
        } else {
            modifiers.insert(modifier)
            if modifier == .acrossFiles { modifiers.remove(.wrap) }
            if modifier == .wrap { modifiers.remove(.acrossFiles) }
        }
        return true
    }
}

/// Searches that cross files (`/*`, `/@`, `Esc n`): the committed search goes on in the next
/// file (backward: the previous) from its start (end) when the one in view has no more
/// matches, and comes back to the file it began in when no file has one. The files are
/// searched one after the other, each as a search in it is (in steps where a search there
/// goes in steps), and shown as they are searched.
extension PagerState {
    /// The search found nothing (more) in the document in view.
    mutating func notFound(forward: Bool, count: Int) -> [PagerEffect] {
        guard var s = search else { return [] }
        guard s.crossesFiles, let next = neighbourFile(of: current, forward: forward) else {
            var effects: [PagerEffect] = []
            if let origin = s.startedIn, origin != current, documents.indices.contains(origin) {
                effects = switchForSearch(to: origin)
            }
            search?.startedIn = nil
            search?.acrossFilesOnce = false
            message = "Pattern not found"
            return effects
        }
        s.startedIn = s.startedIn ?? current
        search = s
        let effects = switchForSearch(to: next)
        return effects + searchFrom(startOfDocument(forward: forward), forward: forward, count: count)
    }

    /// `/@pattern`: from the first file's top (`?@`: the last file's end); not found there
    /// (and the search not across files), back to the file in view.
    mutating func searchFromFirstFile(forward: Bool, count: Int) -> [PagerEffect] {
        let order = fileOrder
        guard let target = forward ? order.first : order.last else { return [] }
        var effects: [PagerEffect] = []
        if target != current {
            search?.startedIn = current
            effects = switchForSearch(to: target)
        }
        return effects + searchFrom(startOfDocument(forward: forward), forward: forward, count: count)
    }

    /// Where a search of a whole document starts: its first text, or past its last.
    func startOfDocument(forward: Bool) -> SearchPosition {
        forward ? SearchPosition(textIndex: 0, utf8Offset: 0)
                : SearchPosition(textIndex: SearchTexts(active).endText, utf8Offset: 0)
    }

    /// The files in list order (`:n`, `:p`).
    var fileOrder: [Int] { documents.indices.filter { !documents[$0].isHelp } }

    /// The file after (before) `index` in the list, if any.
    func neighbourFile(of index: Int, forward: Bool) -> Int? {
        let order = fileOrder
        guard let i = order.firstIndex(of: index) else { return nil }
        let j = forward ? i + 1 : i - 1
        return order.indices.contains(j) ? order[j] : nil
    }

    /// Shows document `index` for a search going on in it: as `switchTo`, but the document
    /// keeps the view the search gives it (the run loop restores no saved position there).
    mutating func switchForSearch(to index: Int) -> [PagerEffect] {
        switchTo(index).map { effect in
            if case .leftDocument(let old) = effect { return .leftDocumentForSearch(old) }
            return effect
        }
    }
}
