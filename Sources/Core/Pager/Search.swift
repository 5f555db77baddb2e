import CellWidth
import LessOptions
import LineLayout
import TextSearch
import TerminalScreen
import Viewport

/// The content texts of the units a document shows (all, or those its filter keeps), as
/// TextSearch wants them: text i is unit `unit(ofText: i)` of the layout (the same only
/// without a filter).
public struct SearchTexts: RandomAccessCollection, Sendable {
    let content: any LayoutContent
    /// The units shown, in order; nil = all.
    let shown: [Unit]?
    init(_ doc: DocumentState) { content = doc.content; shown = doc.filterUnits }
    init(content: any LayoutContent, shown: [Unit]?) { self.content = content; self.shown = shown }
    public var startIndex: Int { 0 }
    public var endIndex: Int { shown?.count ?? content.unitCount }
    public subscript(i: Int) -> UnitText { UnitText(content: content, unit: unit(ofText: TextIndex(i))) }
    /// The text after the last (`count`).
    public var endText: TextIndex { TextIndex(endIndex) }
    /// The unit text `i` is.
    public func unit(ofText i: TextIndex) -> Unit { shown?[i.index] ?? Unit(i.index) }
    /// The text index of a unit (the nearest following one when filtered out).
    public func textIndex(ofUnit b: Unit) -> TextIndex {
        guard let included = shown else { return TextIndex(b.index) }
        var lo = 0, hi = included.count
        while lo < hi { let m = (lo + hi) / 2; if included[m] < b { lo = m + 1 } else { hi = m } }
        return TextIndex(lo)
    }
}

/// One unit's content text, read in place by search (`LayoutContent.withText`).
public struct UnitText: UTF8Text, Sendable {
    let content: any LayoutContent
    let unit: Unit
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        content.withText(ofUnit: unit, body)
    }
}

/// A prompt at the bottom line: `/`, `?` or `&`, or the `-` command's (an option's value,
/// an option's name).
public struct Prompt: Sendable {
    public enum Kind: Hashable, Sendable {
        case search(forward: Bool), filter
        /// `-j`, `-z`, `-#`: the value, asked in less's words (`Target line: `).
        case optionValue(OptionID)
        /// `--`: an option's long name (and `=value`).
        case optionName(OptionChange)
        /// `:e`: a file to open (`Examine: `).
        case examine
        /// `s`: the file to save piped input to (`log file: `).
        case save
        /// The file `s` named for document `document`'s input exists: one key answers
        /// (overwrite, append, don't save).
        case overwrite(path: String, document: Int, complete: Bool)
        /// `!`: a shell command.
        case shell
        /// `|` and a mark: the shell command the lines go to.
        case pipe(mark: Character)
    }
    public var kind: Kind
    public var editor = LineEditor()
    public var literal: Bool
    /// Index into the search history while browsing it with ↑/↓.
    public var historyIndex: Int?
    /// Where the view was when the prompt opened: Esc returns there.
    public var origin: ScrollPosition
    /// The match incremental search is showing.
    public var preview: SearchMatch?
    /// The pattern the preview was found with (for highlighting while typing).
    public var previewPattern: SearchPattern?
    public var error: String?
    /// The count typed before `/` or `?`: the search finds the Nth match.
    public var count: Int?
    /// less's modifiers typed first (`!`, `*`, `@`, `^K`, `^W`; `Esc /` starts with `*`).
    public var modifiers: SearchModifiers = []
    /// File names Tab offered for the text typed (`:e`, `s`), and which one is shown: Tab
    /// again shows the next.
    var completions: [String] = []
    var completionIndex = 0

    /// A search or filter prompt (history, `^R`, the preview belong to those).
    var isSearch: Bool {
        switch kind {
        case .search, .filter: return true
        case .optionValue, .optionName, .examine, .save, .overwrite, .shell, .pipe: return false
        }
    }

    public var symbol: String {
        switch kind {
        case .search(let forward): return modifiers.labels + (forward ? "/" : "?")
        case .filter: return modifiers.labels + "&"
        case .optionValue(let id): return OptionTable.spec(id).prompt ?? "-"
        case .optionName(let change): return change == .query ? "__" : "--"
        case .examine: return "Examine: "
        case .save: return "log file: "
        case .overwrite(let path, _, _):
            // The file's name alone: the question must fit a narrow screen (less's words).
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return "\"\(name)\" exists; Overwrite, Append, or Don't save? "
        case .shell, .pipe: return "!"
        }
    }
}

/// A match: the layout block index and the UTF-8 range in its content text.
public struct SearchMatch: Hashable, Sendable {
    /// The unit of the layout (not a text index of `SearchTexts`: `unit(ofText:)` converts).
    public var unit: Unit
    public var range: Range<Int>
}

/// The last committed search.
public struct SearchState: Sendable {
    public var pattern: SearchPattern
    public var forward: Bool
    /// The modifiers that stay for `n` and `N`: non-matching texts, across files, wrapping.
    public var modifiers: SearchModifiers = []
    /// The file a search across files began in, while it goes on in the others: it comes
    /// back there when nothing is found.
    var startedIn: Int?
    /// `Esc n` / `Esc N`: this repeat goes on into the other files.
    var acrossFilesOnce = false
    public var current: SearchMatch?
    public var highlight = true
    public var counter: MatchCounter<SearchTexts>?
    /// 1-based ordinal of `current` among all matches, once known.
    public var ordinal: Int?
    public var total: Int? { counter?.isDone == true ? counter?.total : nil }

    init(pattern: SearchPattern, forward: Bool, modifiers: SearchModifiers = []) {
        self.pattern = pattern
        self.forward = forward
        self.modifiers = modifiers.intersection(.lasting)
    }

    var nonMatching: Bool { modifiers.contains(.nonMatching) }
    var crossesFiles: Bool { modifiers.contains(.acrossFiles) || acrossFilesOnce }

    /// The document in view changed (another file, help opened or closed): the match and
    /// its count belonged to the old one. The pattern stays, so `n` searches the new one.
    mutating func forgetPosition() {
        current = nil
        counter = nil
        ordinal = nil
    }
}

extension PagerState {
    var searchOptions: SearchOptions {
        SearchOptions(mode: config.literalSearch ? .literal : .regex, caseSensitivity: config.searchCase)
    }

    mutating func startPrompt(_ kind: Prompt.Kind, count: Int? = nil, modifiers: SearchModifiers = []) {
        prompt = Prompt(kind: kind, literal: config.literalSearch, origin: active.viewport.position, count: count,
                        modifiers: modifiers)
    }

    mutating func promptKey(_ key: Key) -> [PagerEffect] {
        guard var p = prompt else { return [] }
        if case .overwrite(let path, let document, let complete) = p.kind {
            return answerOverwrite(path: path, document: document, complete: complete, key: key)
        }
        if key == .tab, p.kind == .examine || p.kind == .save { return completePath() }
        p.completions = []
        // less's modifiers, typed before the pattern (`!`, `^N`, `*`, `^E`, `@`, `^F`, `^K`, `^W`).
        if p.isSearch, p.editor.characters.isEmpty, p.toggleModifier(for: key) {
            prompt = p
            incremental()
            return []
        }
        switch key {
        case .escape, .ctrl("c"), .ctrl("g"):
            // Cancel: the view returns to where the search began.
            active.viewport.position = p.origin
            prompt = nil
            return []
        case .enter:
            prompt = nil
            return commitPrompt(p)
        case .ctrl("r") where p.isSearch:
            p.literal.toggle()
            prompt = p
            incremental()
            return []
        case .up, .down:
            guard !searchHistory.isEmpty, p.isSearch else { return [] }
            var i = p.historyIndex ?? searchHistory.count
            i += key == .up ? -1 : 1
            if i < 0 { i = 0 }
            if i >= searchHistory.count {
                p.historyIndex = nil; p.editor.replace(with: "")
            } else {
                p.historyIndex = i; p.editor.replace(with: searchHistory[i])
            }
            prompt = p
            incremental()
            return []
        case .backspace where p.editor.characters.isEmpty:
            active.viewport.position = p.origin
            prompt = nil
            return []
        default:
            let outcome = p.editor.handle(key)
            prompt = p
            if outcome == .edited { incremental() }
            return []
        }
    }

    func compile(_ text: String, literal: Bool) -> Result<SearchPattern, SearchError> {
        var options = searchOptions
        options.mode = literal ? .literal : .regex
        do { return .success(try SearchPattern(text, options: options)) } catch { return .failure(error) }
    }

    /// Where a new search starts: the first character of the top row (forward) or the end of
    /// the bottom row (backward), so a match already on screen is found first and the view
    /// does not move. With less's `-a` the other way round: past the screen.
    func searchStart(forward: Bool, from position: ScrollPosition) -> SearchPosition {
        let doc = active
        let texts = SearchTexts(doc)
        guard doc.layout.rowCount > 0 else { return SearchPosition(textIndex: 0, utf8Offset: 0) }
        let top = Viewport(position: position, contentRows: contentRows).top(in: doc.layout)
        if forward != config.searchSkipsScreen {
            let (b, _) = doc.layout.locate(top)
            let line = doc.layout.line(at: top)
            return SearchPosition(textIndex: texts.textIndex(ofUnit: b), utf8Offset: line.range.lowerBound)
        } else {
            let bottom = min(doc.layout.endRow, top + contentRows) - 1
            let (b, _) = doc.layout.locate(bottom)
            let line = doc.layout.line(at: bottom)
            return SearchPosition(textIndex: texts.textIndex(ofUnit: b), utf8Offset: line.range.upperBound)
        }
    }

    /// Incremental search: reveal the first match from where the prompt opened.
    mutating func incremental() {
        guard var p = prompt, case .search(let forward) = p.kind else { return }
        let text = p.editor.text
        p.error = nil
        p.preview = nil
        p.previewPattern = nil
        active.viewport.position = p.origin
        // `@` searches another file first: nothing to preview here.
        if !text.isEmpty, !p.modifiers.contains(.firstFile), case .success(let pattern) = compile(text, literal: p.literal) {
            p.previewPattern = pattern
            let texts = SearchTexts(active)
            let searcher = DocumentSearcher(pattern: pattern, texts: texts, nonMatching: p.modifiers.contains(.nonMatching))
            // A key's work must not grow with the document: the preview looks at a bounded
            // number of texts (lines, blocks) and shows nothing if the match is further;
            // Enter searches the whole document.
            if case .found(let hit) = searcher.find(forward ? .forward : .backward,
                                                   from: searchStart(forward: forward, from: p.origin),
                                                   wrapAround: !active.isGrowing && config.searchWraps,
                                                   textLimit: Self.previewTextLimit) {
                let match = SearchMatch(unit: texts.unit(ofText: hit.textIndex), range: hit.range)
                p.preview = match
                // `^K`: the matches on screen light up; the view stays.
                if !p.modifiers.contains(.keepPosition) { reveal(match, asJump: false) }
            }
        }
        prompt = p
    }

    /// Texts (text lines, Markdown blocks) the preview of a search being typed may look at:
    /// a bound on the matching a typed character costs, whatever the document's size.
    static let previewTextLimit = 5_000

    mutating func commitPrompt(_ p: Prompt) -> [PagerEffect] {
        let text = p.editor.text
        switch p.kind {
        case .filter:
            active.viewport.position = p.origin
            applyFilter(text, literal: p.literal, matching: !p.modifiers.contains(.nonMatching))
            return []
        case .optionValue(let id):
            setOptionValue(id, text)
            return []
        case .optionName(let change):
            return namedOption(text, change)
        case .examine:
            return examine(text)
        case .save:
            return save(to: text)
        case .overwrite:
            return []  // answered by one key (`promptKey`)
        case .shell:
            return shell(text)
        case .pipe(let mark):
            return pipe(mark: mark, command: text)
        case .search(let forward):
            active.viewport.position = p.origin
            let patternText = text.isEmpty ? (searchHistory.last ?? "") : text
            guard !patternText.isEmpty else { message = "No previous pattern"; return [] }
            remember(patternText)
            switch compile(patternText, literal: p.literal) {
            case .failure(let e):
                message = e.description
                return []
            case .success(let pattern):
                return startSearch(pattern, forward: forward, modifiers: p.modifiers,
                                   from: searchStart(forward: forward, from: p.origin), count: max(1, p.count ?? 1))
            }
        }
    }

    /// `+/pattern`: the first match from the top.
    mutating func startSearch(_ patternText: String, pattern: SearchPattern) -> [PagerEffect] {
        remember(patternText)
        return startSearch(pattern, forward: true, from: SearchPosition(textIndex: 0, utf8Offset: 0))
    }

    /// A new search. Forward on input still being read, it reads on until a match arrives
    /// (as less does) instead of wrapping round to the top. `modifiers`: less's, typed at the
    /// prompt (`^K` keeps the view, `@` starts at the first file, `*` goes on into the next).
    mutating func startSearch(_ pattern: SearchPattern, forward: Bool, modifiers: SearchModifiers = [],
                              from start: SearchPosition, count: Int = 1) -> [PagerEffect] {
        searchForgotten = false
        search = SearchState(pattern: pattern, forward: forward, modifiers: modifiers)
        if modifiers.contains(.keepPosition) {
            // The matches on screen are highlighted; `n` goes to the first.
            return []
        }
        // (From the help, which is no file of the list, `/@` searches the help.)
        if modifiers.contains(.firstFile), fileOrder.contains(current) {
            return searchFromFirstFile(forward: forward, count: count)
        }
        return searchFrom(start, forward: forward, count: count)
    }

    /// The committed search (`search`), in the document in view from `start`, the
    /// `count`-th match: at once, or in steps (forward, on input still being read or a long
    /// document: `searching…` on the status line, stopped by any key). Found nowhere, it
    /// goes on in the other files when it crosses them (`notFound`).
    mutating func searchFrom(_ start: SearchPosition, forward: Bool, count: Int) -> [PagerEffect] {
        guard let s = search else { return [] }
        if forward && searchesInSteps {
            return seek(.match(from: start, remaining: count, origin: start, wrapped: false))
        }
        let texts = SearchTexts(active)
        let searcher = DocumentSearcher(pattern: s.pattern, texts: texts, nonMatching: s.nonMatching)
        let (hit, wrapped) = Self.find(searcher, forward: forward, from: start, count: count, wrapAround: wraps(s))
        guard let hit else { return notFound(forward: forward, count: count) }
        showMatch(hit, texts: texts, pattern: s.pattern, forward: s.forward)
        if wrapped { message = forward ? "Search hit BOTTOM, continuing at TOP" : "Search hit TOP, continuing at BOTTOM" }
        return []
    }

    /// Whether search `s` goes on from the other end of the document: `--search-wrap` or
    /// `^W`, unless it goes on into other files instead (less: they exclude each other).
    func wraps(_ s: SearchState) -> Bool {
        !s.crossesFiles && (config.searchWraps || s.modifiers.contains(.wrap))
    }

    mutating func remember(_ pattern: String) {
        searchHistory.removeAll { $0 == pattern }
        searchHistory.append(pattern)
        if searchHistory.count > 100 { searchHistory.removeFirst(searchHistory.count - 100) }
    }

    /// Makes `hit` the current match of the search (its modifiers kept; one across files is
    /// over) and brings it into view; counts the matches in the background (not the texts
    /// without one).
    mutating func showMatch(_ hit: SearchHit, texts: SearchTexts, pattern: SearchPattern, forward: Bool) {
        var state = SearchState(pattern: pattern, forward: forward, modifiers: search?.modifiers ?? [])
        let match = SearchMatch(unit: texts.unit(ofText: hit.textIndex), range: hit.range)
        state.current = match
        if !state.nonMatching { state.counter = MatchCounter(pattern: pattern, texts: texts, target: hit.positionBefore) }
        search = state
        reveal(match, asJump: true)
    }

    /// `n` / `N`: the next match in the search's direction (or the other one).
    /// The `count`-th match from `start` (wrapping around the document), and whether the
    /// search wrapped. Once the matches come round to the first one found, the rest of the
    /// count is taken modulo their number: `99999999n` costs one lap, not 10^8 searches.
    static func find(_ searcher: DocumentSearcher<SearchTexts>, forward: Bool, from start: SearchPosition,
                     count: Int, wrapAround: Bool = true) -> (hit: SearchHit?, wrapped: Bool) {
        var position = start
        var hit: SearchHit?
        var first: SearchHit?
        var wrapped = false
        var total = max(1, count)
        var i = 0
        while i < total {
            guard let h = searcher.find(forward ? .forward : .backward, from: position, wrapAround: wrapAround) else { break }
            if let f = first, f.textIndex == h.textIndex, f.range == h.range {
                // `i` matches make a lap: skip the whole laps left.
                total = i + 1 + (total - i - 1) % i
            }
            if first == nil { first = h }
            hit = h
            wrapped = wrapped || h.wrapped
            position = forward ? h.positionAfter : h.positionBefore
            i += 1
        }
        return (hit, wrapped)
    }

    /// `n`, `N`; `Esc n`, `Esc N` (`acrossFiles`): this once, on into the other files.
    mutating func repeatSearch(reverse: Bool, count: Int, acrossFiles: Bool = false) -> [PagerEffect] {
        guard var s = search else {
            if !searchForgotten, let last = searchHistory.last, case .success(let p) = compile(last, literal: config.literalSearch) {
                return startSearch(p, forward: !reverse, modifiers: acrossFiles ? .acrossFiles : [],
                                   from: searchStart(forward: !reverse, from: active.viewport.position), count: count)
            }
            message = "No previous search"
            return []
        }
        if acrossFiles && fileOrder.contains(current) {
            s.acrossFilesOnce = true
            search = s
        }
        let forward = s.forward != reverse
        let texts = SearchTexts(active)
        let searcher = DocumentSearcher(pattern: s.pattern, texts: texts, nonMatching: s.nonMatching)
        var position: SearchPosition
        if let c = s.current {
            let ti = texts.textIndex(ofUnit: c.unit)
            position = SearchPosition(textIndex: ti, utf8Offset: forward ? c.range.upperBound : c.range.lowerBound)
            if forward && c.range.isEmpty { position.utf8Offset += 1 }
        } else {
            position = searchStart(forward: forward, from: active.viewport.position)
        }
        if forward && searchesInSteps {
            // On input still being read, `n` reads on to the next match rather than wrapping;
            // on a long document it searches in steps that keys can stop.
            return seek(.match(from: position, remaining: count, origin: position, wrapped: false))
        }
        let (found, wrapped) = Self.find(searcher, forward: forward, from: position, count: count,
                                         wrapAround: wraps(s))
        guard let hit = found else { return notFound(forward: forward, count: count) }
        let match = SearchMatch(unit: texts.unit(ofText: hit.textIndex), range: hit.range)
        if let o = s.ordinal, let total = s.total, total > 0 {
            let step = forward ? count : -count
            s.ordinal = ((o - 1 + step) % total + total) % total + 1
        } else {
            s.ordinal = nil
            s.counter = s.nonMatching ? nil : MatchCounter(pattern: s.pattern, texts: texts, target: hit.positionBefore)
        }
        s.current = match
        s.startedIn = nil
        s.acrossFilesOnce = false
        s.highlight = true
        search = s
        reveal(match, asJump: true)
        if wrapped { message = forward ? "Search hit BOTTOM, continuing at TOP" : "Search hit TOP, continuing at BOTTOM" }
        return []
    }

    /// Moves the view as little as possible to show a match (or to the jump target row).
    mutating func reveal(_ match: SearchMatch, asJump: Bool) {
        revealHorizontally(match)
        active.prepare(aroundUnit: match.unit)
        let rows = active.layout.rows(showing: match.range, inUnit: match.unit)
        guard !rows.isEmpty,
              let moved = active.viewport.revealing(rows, in: active.layout, policy: config.jumpTarget)
        else { return }
        if asJump { active.jump(to: moved.position) } else { active.viewport = moved }
    }

    /// Chopped text (`-S`): scrolls sideways as little as possible so that the match's
    /// columns are on screen, as less does.
    mutating func revealHorizontally(_ match: SearchMatch) {
        guard config.chopLongLines, active.isText else { return }
        let text = active.layout.text(ofUnit: match.unit).utf8
        let lower = min(match.range.lowerBound, text.count), upper = min(match.range.upperBound, text.count)
        let start = CellWidth.of(String(decoding: text.prefix(lower), as: UTF8.self))
        let end = start + CellWidth.of(String(decoding: text.dropFirst(lower).prefix(upper - lower), as: UTF8.self))
        let width = layoutOptions.width
        guard start < horizontalShift || end > horizontalShift + width else { return }  // on screen
        // Unshifted when the match fits so (the line's start in view), else just far enough.
        let shift = end <= width ? 0 : min(start, start < horizontalShift ? start : end - width)
        horizontalShift = shift
        relayoutAll()
    }

    mutating func toggleHighlight() {
        guard search != nil else { message = "No search to highlight"; return }
        search!.highlight.toggle()
    }

    /// `&pattern`: show only the blocks that match (`&!pattern`, `matching` false: those that
    /// do not); `&` alone shows everything again.
    mutating func applyFilter(_ text: String, literal: Bool, matching: Bool = true) {
        if text.isEmpty {
            active.setFilter(nil, pattern: nil)
            recountSearch()
            message = active.isText ? "Showing all lines" : "Showing all blocks"
            return
        }
        switch compile(text, literal: literal) {
        case .failure(let e): message = e.description
        case .success(let pattern):
            let all = SearchTexts(content: active.content, shown: nil)
            let indices = DocumentSearcher(pattern: pattern, texts: all).textIndices(matching: matching)
            if indices.isEmpty { message = matching ? "Pattern not found" : "Every line matches"; return }
            showFilter(indices.map { all.unit(ofText: $0) }, text: text, pattern: pattern, matching: matching)
            selection = nil
            search?.forgetPosition()
        }
    }

    /// Shows only `units` (what filter `text` found) and says how many.
    mutating func showFilter(_ units: [Unit], text: String, pattern: SearchPattern, matching: Bool = true) {
        active.setFilter(units, pattern: text, compiled: pattern, matching: matching)
        let kind = active.isText ? "lines" : "blocks"
        message = "Showing \(units.count) \(matching ? "matching" : "non-matching") \(kind) (& alone shows all)"
    }

    /// The rows shown changed (a filter was lifted): the current match stays, but its count
    /// was over the old rows, so counting starts again over the new ones.
    mutating func recountSearch() {
        guard var s = search, let c = s.current, !s.nonMatching else { return }
        let texts = SearchTexts(active)
        let target = SearchPosition(textIndex: texts.textIndex(ofUnit: c.unit), utf8Offset: c.range.lowerBound)
        s.ordinal = nil
        s.counter = MatchCounter(pattern: s.pattern, texts: texts, target: target)
        search = s
    }

    /// A slice of background work: counting matches.
    mutating func idle() -> [PagerEffect] {
        // So that the next key finds its rows laid out.
        if active.wantsPrefetch { active.prefetch() }
        if searchCanStep {
            let effects = continueSeeking(ended: !active.isGrowing)
            return effects + dragIdle()
        }
        if active.refilter != nil {
            return (stepRefilter() ? [.redrawAll] : []) + dragIdle()
        }
        if var s = search, var counter = s.counter, !counter.isDone {
            counter.advance(budget: 2000)
            if s.ordinal == nil, let o = counter.ordinal { s.ordinal = o }
            s.counter = counter
            search = s
        }
        return dragIdle()
    }

    /// Matches of the committed search (or the incremental preview's pattern) in one block,
    /// for highlighting: all of them, only the current one (less's `-g`) or none (`-G`). Only
    /// visible blocks are asked.
    func highlights(inUnit b: Unit) -> (all: [Range<Int>], current: Range<Int>?) {
        guard config.matchHighlight != .none else { return ([], nil) }
        let all = config.matchHighlight == .all
        if let p = prompt, case .search = p.kind {
            // Texts without a match have nothing to highlight.
            guard let preview = p.preview, let pattern = p.previewPattern,
                  !p.modifiers.contains(.nonMatching) else { return ([], nil) }
            return (all ? pattern.matches(in: active.layout.text(ofUnit: b)) : [], preview.unit == b ? preview.range : nil)
        }
        guard let s = search, s.highlight, !s.nonMatching else { return ([], nil) }
        return (all ? s.pattern.matches(in: active.layout.text(ofUnit: b)) : [], s.current?.unit == b ? s.current?.range : nil)
    }
}
