import LineLayout
import MarkdownModel
import TerminalScreen
import Viewport

/// What happens to the pager: keys, mouse, size changes, and idle time for background work.
public enum PagerEvent: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case paste(String)
    case resize(rows: Int, columns: Int)
    /// No input is waiting: a chance to do a slice of background work (match counting) or to
    /// scroll while a mouse drag is held past an edge.
    case idle
    /// Text document `document` holds more lines, or its end (`content`: the new snapshot of
    /// its lines, made by the edge, with those it had as its first): the content is replaced,
    /// the new units added with estimated counts, the view kept. Only the content: what the
    /// new lines mean to a search, a seek or `F` follows in `.inputArrived`, `.inputEnded` or
    /// `.placed`. A snapshot of other lines (the input started over) replaces the document.
    case textGrew(document: Int, content: TextContent)
    /// More of document `index`'s input has arrived (a text's lines in `.textGrew` before).
    case inputArrived(document: Int)
    /// Document `index`'s input has ended (`error`: it ended on a read error).
    case inputEnded(document: Int, error: String?)
    /// A new parse of document `index` is ready (a growing Markdown stream, the full
    /// document after a preview, a file reloaded after it changed on disk).
    case documentReady(document: Int, spec: DocumentSpec, changedUnits: Set<Unit>)
    /// Document `index`'s file changed on disk (watched, or after `v`) and was read again:
    /// the new version replaces it, its view, marks and `''` mapped by unit index (the
    /// reader's place follows in `.placed`, found by text), and `changedUnits` get the
    /// margin's change cue until the next key. Unlike `.documentReady` it is not new input:
    /// no search or seek goes on. A view at the end (following, `F`) stays at the new end.
    case reloaded(document: Int, spec: DocumentSpec, changedUnits: Set<Unit>)
    /// The local file a followed link names (`.openFile`) was read: it opens (or, open
    /// already, is switched to) at `fragment`'s heading, and Backspace comes back.
    case linkedFileLoaded(spec: DocumentSpec, fragment: String?)
    /// The command line's start command (`+N`, `+/pattern`, `-p`, `+G`, `+F`), once the
    /// first screen is laid out.
    case start(StartCommand)
    /// How many bytes the reader thread of the current document holds (status line).
    case readProgress(document: Int, bytes: Int)
    /// The terminal answered a question (its colours for `--theme=auto`), at any time.
    case terminalReply(TerminalReply)
    /// The file names that complete `prefix` (`.completePath`), sorted; a directory's ends
    /// in `/`.
    case pathCompletions(prefix: String, names: [String])
    /// The file `s` was to create exists (`.saveInput` with `.create`): the pager asks
    /// whether to overwrite it, append to it or not save.
    case saveTargetExists(document: Int, path: String, complete: Bool)
    /// The first frame waited long enough for the terminal's reply: draw with what is known
    /// (a reply arriving later still re-themes).
    case terminalQueryTimedOut
    /// Something happened outside that the reader should know — a link copied instead of
    /// opened, the editor's exit status, a file that could not be read, a restored position,
    /// a store that could not be saved: said on the status line until the next key.
    case notice(String)
    /// A reading position was found for document `document` (reopening it, or after a
    /// reload): where its view goes (nil: stays), `''`'s position and the marks. A position
    /// that lands on row 0 is the top edge. (Lines a text indexed to find it come before, in
    /// `.textGrew`; a search goes on only at the next `.inputArrived`.)
    case placed(document: Int, position: ScrollPosition?, previous: ScrollPosition?, marks: [Character: ScrollPosition])
    /// The search history read from the store, taken when the session has none yet.
    case searchHistoryLoaded([String])
    /// Syntax highlighting is ready: the first frame is drawn without it (loading a grammar
    /// and compiling its query takes longer than a frame the first time), then the view is laid out again
    /// with it. Rows never change, only their colours.
    case highlighterReady(CodeHighlighter)
    /// The syntax runs of code blocks of `content` that its layout asked for are in
    /// (`CodeHighlighter.deferred`): the units that show them are laid out again (their rows
    /// do not change). `note`: why one of them was left plain, said once per document.
    case codeHighlighted(content: MarkdownContent, blocks: [BlockID], note: String?)
    /// An image of `content` was decoded and drawn (`LayoutOptions.pictures`, deferred): the
    /// units showing it are laid out again, with its rows (their counts change).
    case pictureArrived(content: MarkdownContent, source: String)
    /// Pictures show another way (the terminal answered that it has kitty's graphics or
    /// sixel): every document is laid out again with `show`.
    case picturesReady(PictureShow)
    /// Exact row counts of some of document `index`'s text lines, counted in the background
    /// (see `DocumentState.rowCountRequest`); stale chunks (another width, other content) are
    /// dropped.
    case rowCounts(document: Int, chunk: RowCountChunk)
    /// Exact row counts of Markdown document `index`'s `content` at `options`, counted off
    /// the run loop because the document asked for them (`DocumentState.countsWanted`).
    case markdownRowCounts(document: Int, options: LayoutOptions, counts: [Int], content: any LayoutContent)
}

/// What the pager asks the outside world to do. The run loop carries these out.
public enum PagerEffect: Hashable, Sendable {
    case quit
    case suspend
    /// The terminal may have been changed behind our back: redraw everything.
    case redrawAll
    /// Open a URL in the browser (`$BROWSER`/`xdg-open`), detached.
    case openURL(String)
    /// Copy text to the clipboard (OSC 52).
    case copy(String)
    /// Open a local Markdown file (a relative link), as a new document.
    case openFile(path: String, fragment: String?)
    /// The reader left a document (`:n`, `:p`, following a link): save its position.
    case leftDocument(Int)
    /// A search went on from document `index` into another file (`/*`, `Esc n`): save its
    /// position; the file now in view keeps the view the search gives it (no saved position
    /// is restored there).
    case leftDocumentForSearch(Int)
    /// Edit a file at a source line (`v`); the run loop reloads the document afterwards.
    case edit(path: String, line: Int, document: Int)
    /// Read document `index`'s input on to its end (`G`, `F`, a search), until
    /// `.stopReading`; without it, input is read only a bounded distance past the view.
    case readToEnd(document: Int)
    /// Stop reading on demand (Ctrl-C, or the demand was met).
    case stopReading(document: Int)
    /// `R`: read document `index` again from its file.
    case reread(document: Int)
    /// `:e FILE`: open a file (as a followed link's is opened: `.linkedFileLoaded` answers;
    /// the pager puts it after the current file in the list). `~` is the edge's to expand.
    case examine(path: String)
    /// Tab at the `:e` or `s` prompt: the file names that complete `prefix` are wanted
    /// (`.pathCompletions` answers).
    case completePath(prefix: String)
    /// `s FILE`: write document `index`'s input (a pipe's bytes) to `path`. `.create` never
    /// writes over a file: the edge answers `.saveTargetExists` and the pager asks.
    /// `complete`: the input had ended (else what had arrived is saved, and said so).
    case saveInput(document: Int, path: String, mode: SaveMode, complete: Bool)
    /// `!cmd`: run a shell command with the terminal handed over (empty: an interactive
    /// shell), then wait for Return.
    case shell(command: String)
    /// `|m cmd`: the lines of document `index` given go to a shell command's standard input.
    case pipe(command: String, document: Int, lines: PipeLines)
}

/// How `s` writes its file.
public enum SaveMode: Hashable, Sendable {
    /// Only a file that does not exist yet.
    case create
    case overwrite
    case append
}

/// What `|` sends: a text document's input bytes (a range of them, whole lines), or a
/// Markdown document's source lines (first...last, 1-based).
public enum PipeLines: Hashable, Sendable {
    case bytes(Range<Int>)
    case sourceLines(ClosedRange<Int>)
}

/// The whole pager: one value, changed only by `update`. Rendering reads it (`frame()`).
public struct PagerState: Sendable {
    public internal(set) var config: PagerConfig
    public private(set) var screenRows: Int
    public private(set) var screenColumns: Int
    public internal(set) var documents: [DocumentState]
    public internal(set) var current: Int
    /// The file list in order (`:n`, `:p`, `:x`, `file 2/3`): documents by index. `:e`
    /// puts a file after the current one, `:d` takes the current one out (it stays loaded:
    /// Backspace may come back to it).
    public internal(set) var fileList: [Int]
    /// The document shown before the current one (`#` in `:e` and `!`).
    public internal(set) var previousDocument: Int?
    /// `:e` asked for a file: the `.linkedFileLoaded` that answers puts it after the current
    /// file in the list (a followed link's goes at the end). Any key clears it.
    var examining = false
    /// `!!` repeats this (after `%` and `#` were replaced).
    public internal(set) var lastShellCommand: String?
    public internal(set) var keys = KeyInterpreter()
    /// Replaces the status line until the next key.
    public internal(set) var message: String?
    public internal(set) var prompt: Prompt?
    /// Search patterns, oldest first (the reading-position store persists it).
    public internal(set) var searchHistory: [String] = []
    /// Positions to return to with Backspace, across documents (the help's opening too).
    public internal(set) var backStack: [BackEntry] = []
    public internal(set) var search: SearchState?
    public internal(set) var selection: Selection?
    public internal(set) var outline: OutlineState?
    public internal(set) var mouseDrag: MouseDrag?
    /// The link under the last mouse click (press and release in place); a second click on
    /// it follows it. Any key forgets it.
    public internal(set) var lastClickedLink: SelectableElement?
    /// Half-page size set by a count on `d`/`u` (less remembers it).
    public internal(set) var halfPage: Int?
    /// Columns the text is scrolled to the right (chopped text documents, `→`/`←`).
    public internal(set) var horizontalShift = 0
    /// `F`: the view stays on the last line as input arrives; any key stops it.
    public internal(set) var following = false
    /// `Esc F`: following stops at the first line that arrives matching this pattern.
    public internal(set) var followUntil: FollowUntil?
    /// What the reader asked for on input still being read that has not arrived yet (`G`,
    /// `Ng`, `N%`, a forward search): reading goes on and the view goes there once it has
    /// arrived. Any key stops it (`Ctrl-C` without doing anything else).
    public internal(set) var seeking: Seeking?
    /// Ctrl-C quit the pager (less's `-K`): folio exits with status 2, as less does.
    public internal(set) var quitByInterrupt = false
    /// The last key was a lone Esc (see `keyPressed`).
    public internal(set) var escapeTyped = false
    /// A binding's extra keys are being typed: an extra string of the keys they reach is not
    /// typed again (`x noaction x` would never end).
    var typingExtraKeys = false
    /// `Esc U` forgot the search pattern: `n` has none to repeat until the next search.
    public internal(set) var searchForgotten = false
    /// What the terminal said about its colours (`--theme=auto`).
    public internal(set) var terminalColors = TerminalColors()
    /// The first frame should wait for the terminal's reply to the colour query.
    public var awaitingTerminal: Bool { terminalColors.awaiting }
    /// Background work is waiting (the run loop sends `.idle` without blocking).
    public var wantsIdle: Bool {
        search?.counter?.isDone == false || mouseDrag?.edgeDirection != nil || active.wantsPrefetch
            || searchCanStep || active.refilter != nil
    }

    public init(documents: [DocumentSpec], config: PagerConfig, rows: Int, columns: Int) {
        self.config = config
        keys.bindings = config.keyBindings
        keys.lineEdits = config.lineEditBindings
        self.screenRows = max(1, rows)
        self.screenColumns = max(1, columns)
        self.current = 0
        self.fileList = Array(documents.indices)
        self.documents = documents.map {
            DocumentState(spec: $0, options: PagerState.layoutOptions(config: config, columns: max(1, columns), isText: $0.isText),
                          contentRows: max(0, rows - 1))
        }
        terminalColors.awaiting = config.themeChoice == .auto && config.queriesTerminal
    }

    /// Layout options for a screen width and a kind of document: one column is kept for the
    /// scroll indicator where it shows, and the line-number gutter when it is on.
    static func layoutOptions(config: PagerConfig, columns: Int, isText: Bool, shift: Int = 0) -> LayoutOptions {
        let reserve = config.showsScrollbar(isText: isText) && columns > 1 ? 1 : 0
        let gutter = config.lineNumbers && columns - reserve > gutterWidth + 1 ? gutterWidth : 0
        return LayoutOptions(width: max(1, columns - reserve - gutter), inlineLinkURLs: config.inlineLinkURLs,
                             chopLongLines: config.chopLongLines, horizontalShift: config.chopLongLines ? shift : 0,
                             maxProseWidth: config.maxProseWidth, centerProse: config.centerProse,
                             highlighter: config.highlighter,
                             markInlineCode: config.inlineLinkURLs || !config.theme.addsColour,
                             pictures: isText ? nil : config.pictures, executor: config.executor)
    }

    /// Columns of the line-number gutter (`-N`): seven digits and a space, as less.
    static let gutterWidth = 8
    /// The gutter is shown (on, and the screen is wide enough).
    var gutterColumns: Int {
        let reserve = config.showsScrollbar(isText: active.isText) && screenColumns > 1 ? 1 : 0
        return config.lineNumbers && screenColumns - reserve > PagerState.gutterWidth + 1 ? PagerState.gutterWidth : 0
    }

    /// The layout options of the document shown.
    public var layoutOptions: LayoutOptions { layoutOptions(isText: active.isText) }

    /// The layout options of a text or Markdown document at the current size (a Markdown
    /// parse made off the loop is built for these).
    public func layoutOptions(isText: Bool) -> LayoutOptions {
        PagerState.layoutOptions(config: config, columns: screenColumns, isText: isText, shift: horizontalShift)
    }
    public var contentRows: Int { max(0, screenRows - 1) }

    /// The document in view, which the keys act on (the help too, while it is open).
    public var active: DocumentState {
        get { documents[current] }
        // In place: a get/set pair would copy the document's layout arrays on every change.
        _modify { yield &documents[current] }
    }

    /// Adds a document (a followed link) at the end of the file list.
    mutating func open(_ spec: DocumentSpec) -> Int {
        documents.append(DocumentState(spec: spec, options: layoutOptions(isText: spec.isText), contentRows: contentRows))
        fileList.append(documents.count - 1)
        return documents.count - 1
    }

    public mutating func update(_ event: PagerEvent) -> [PagerEffect] {
        let effects = handle(event)
        // Whatever moved the view, the rows around it are laid out exactly before anything
        // reads them (drawing, the next key).
        active.prepareView()
        return effects
    }

    mutating func handle(_ event: PagerEvent) -> [PagerEffect] {
        switch event {
        case .resize(let rows, let columns):
            screenRows = max(1, rows)
            screenColumns = max(1, columns)
            // Pictures take at most a part of the new height (the cell size: `.cellPixels`).
            config.pictures = config.pictures?.fitting(screenRows: screenRows)
            // The others are laid out at the new size when they are shown (`switchTo`).
            documents[current].relayout(options: layoutOptions, contentRows: contentRows)
            return [.redrawAll]
        case .idle:
            return idle()
        case .textGrew(let index, let content):
            textGrew(document: index, content: content)
            return []
        case .inputArrived(let index):
            return inputArrived(document: index)
        case .inputEnded(let index, let error):
            return inputEnded(document: index, error: error)
        case .documentReady(let index, let spec, let changed):
            replaceDocument(at: index, with: spec, changedUnits: changed)
            var effects = inputArrived(document: index)
            // A whole document now (a Markdown stream's last parse): what waited for the end.
            if index == current, seeking != nil, !active.isGrowing { effects += continueSeeking(ended: true) }
            return effects
        case .start(let command):
            return start(command)
        case .linkedFileLoaded(let spec, let fragment):
            return openLinked(spec, fragment: fragment)
        case .reloaded(let index, let spec, let changed):
            replaceDocument(at: index, with: spec, changedUnits: changed)
            return []
        case .terminalReply(let reply):
            return terminalReplied(reply)
        case .pathCompletions(let prefix, let names):
            completionsArrived(prefix: prefix, names: names)
            return []
        case .saveTargetExists(let index, let path, let complete):
            askOverwrite(document: index, path: path, complete: complete)
            return []
        case .terminalQueryTimedOut:
            terminalColors.awaiting = false
            return []
        case .notice(let text):
            message = text
            return []
        case .placed(let index, let position, let previous, let marks):
            guard documents.indices.contains(index) else { return [] }
            var doc = documents[index]
            if let position {
                doc.viewport.position = position
                doc.viewport = doc.viewport.withTop(doc.viewport.top(in: doc.layout), in: doc.layout)
            }
            if let previous { doc.previousPosition = previous }
            for (letter, p) in marks { doc.marks[letter] = p }
            documents[index] = doc
            return []
        case .searchHistoryLoaded(let history):
            if searchHistory.isEmpty { searchHistory = history }
            return []
        case .highlighterReady(let highlighter):
            config.highlighter = highlighter
            relayoutAll()
            return []
        case .codeHighlighted(let content, let blocks, let note):
            codeHighlighted(content: content, blocks: blocks, note: note)
            return []
        case .picturesReady(let show):
            config.pictures = show
            relayoutAll()
            return []
        case .pictureArrived(let content, let source):
            for i in documents.indices where documents[i].layout.content as AnyObject === content {
                documents[i].pictureArrived(source: source)
            }
            return []
        case .readProgress(let index, let bytes):
            if documents.indices.contains(index) { documents[index].bytesRead = bytes }
            return []
        case .rowCounts(let index, let chunk):
            if documents.indices.contains(index) { documents[index].apply(chunk) }
            return []
        case .markdownRowCounts(let index, let options, let counts, let content):
            if documents.indices.contains(index) { documents[index].takeRowCounts(counts, options: options, content: content) }
            return []
        case .paste(let text):
            if prompt != nil {
                for c in text where !c.isNewline { _ = promptKey(.char(c)) }
            }
            return []
        case .mouse(let m):
            return mouse(m)
        case .key(let key):
            let afterEscape = escapeTyped
            escapeTyped = key == .escape
            return keyPressed(key, afterEscape: afterEscape)
        }
    }

    /// A key, `afterEscape` when the key before it was a lone Esc. The decoder gives a key
    /// typed soon after a lone Esc as `.alt(key)` (`Esc u` typed as two keys); where Esc-key
    /// means nothing (a prompt, the outline, `Esc j` in the reading view) it is the key
    /// itself, as it was typed, and Ctrl-C after Esc is always Ctrl-C.
    mutating func keyPressed(_ typed: Key, afterEscape: Bool) -> [PagerEffect] {
        var key = typed
        if afterEscape, case .alt(let inner) = typed, inner == .ctrl("c") || prompt != nil || outline != nil {
            key = inner
        }
        message = nil
        lastClickedLink = nil
        examining = false
        documents[current].changedUnits = []
        if key == .ctrl("c") && config.quitOnInterrupt {
            // less's -K: Ctrl-C quits whatever is going on (a search, reading, a prompt).
            quitByInterrupt = true
            return [.quit]
        }
        if following || seeking != nil {
            // Any key stops following (less: any key; Ctrl-C also stops the reading).
            following = false
            followUntil = nil
            let stopped = seeking
            seeking = nil
            search?.startedIn = nil  // a search across files stopped here stays here
            search?.acrossFilesOnce = false
            active.holdView()
            var stop: [PagerEffect] = [.stopReading(document: current)]
            if case .save(let path)? = stopped {
                // `s` stopped before the end: what has arrived is saved, and said so.
                stop.append(.saveInput(document: current, path: path, mode: .create, complete: false))
            }
            if key == .ctrl("c") || key == .char("q") && keys.count == nil && prompt == nil { return stop }
            return stop + keyPressed(typed, afterEscape: afterEscape)
        }
        if prompt != nil {
            // The user's #line-edit keys first (a sequence may take several keys, or none).
            var effects: [PagerEffect] = []
            for edited in keys.lineEditKeys(key) where prompt != nil { effects += promptKey(edited) }
            return effects
        }
        if outline != nil { return outlineKey(key) }
        return readingKey(key, afterEscape: afterEscape)
    }

    mutating func readingKey(_ key: Key, afterEscape: Bool = false) -> [PagerEffect] {
        // Enter follows the selected link; otherwise it is a line down, as in less.
        if key == .enter, keys.count == nil, selection != nil {
            return perform(.follow, count: nil)
        }
        keys.headingKeys = !active.isText
        guard let command = keys.interpret(key, afterEscape: afterEscape) else { return typeExtraKeys() }
        let count = keys.count
        keys.commandDone()
        return perform(command, count: count) + typeExtraKeys()
    }

    /// The keys a user's binding types after its action (lesskey's extra string: the
    /// option letter of `toggle-option`, `*` after `forw-search`), each as if typed.
    mutating func typeExtraKeys() -> [PagerEffect] {
        let extra = keys.takeExtraKeys()
        guard !extra.isEmpty, !typingExtraKeys else { return [] }
        typingExtraKeys = true
        defer { typingExtraKeys = false }
        var effects: [PagerEffect] = []
        for key in extra { effects += keyPressed(key, afterEscape: false) }
        return effects
    }

    /// Switches the document in view; returns the effects (the old one's position is saved).
    mutating func switchTo(_ index: Int) -> [PagerEffect] {
        guard index != current, documents.indices.contains(index) else { return [] }
        let old = current
        selection = nil
        search?.forgetPosition()
        // `#` (`:e #`, `!`) names a file: going into the help and out of it leaves it as it was.
        if !documents[old].isHelp, !documents[index].isHelp { previousDocument = old }
        current = index
        documents[current].relayout(options: layoutOptions, contentRows: contentRows)
        return [.leftDocument(old)]
    }
}

/// A place to go back to: a document and a position in it.
public struct BackEntry: Sendable {
    public var document: Int
    public var position: ScrollPosition
    /// The search as it was there (its match and count): coming back to the document from
    /// another one (a linked file, the help) gives them back while the search is the same.
    var search: SearchState?
}

/// A document handed to the pager.
/// A Markdown document's content laid out once for `options` (see `DocumentSpec.prebuilt`).
public struct PrebuiltContent: Sendable {
    public let content: MarkdownContent
    public let rowCounts: [Int]
    public let options: LayoutOptions
    /// Its headings and links, found where it was built (not on the run loop).
    let navigation: DocumentState.Navigation
}

public struct DocumentSpec: Sendable {
    public enum Source: Sendable {
        case markdown(Document)
        case text(TextContent)
    }
    public var name: String
    public var path: String?
    public var source: Source
    /// The document is only the beginning of the file (shown while the rest is parsed):
    /// page totals and percentages are not known yet.
    public var isPreview: Bool
    /// A preview's share of the whole file (its bytes over the file's; 1 when the whole is
    /// not known, as on a pipe): the scroll bar shows the whole document's rows as the
    /// preview's in that proportion, not a thumb for the preview alone that shrinks when the
    /// full parse comes in.
    public var previewShare = 1.0
    /// Its content and row counts, built off the run loop (by the parse worker) for the
    /// options the pager had then; used when they are still the pager's options. Building
    /// them for a large Markdown document takes far longer than a key may wait.
    public var prebuilt: PrebuiltContent?
    public init(name: String, path: String?, document: Document, isPreview: Bool = false) {
        self.name = name; self.path = path; self.source = .markdown(document); self.isPreview = isPreview
    }
    public init(name: String, path: String?, text: TextContent) {
        self.name = name; self.path = path; self.source = .text(text); self.isPreview = false
    }
    /// `MarkdownContent.build` of the document for `options` (options as
    /// `PagerState.markdownOptions` makes them).
    public mutating func prebuild(for options: LayoutOptions) {
        guard let document else { return }
        let (content, counts) = MarkdownContent.build(document, options: options)
        prebuilt = PrebuiltContent(content: content, rowCounts: counts, options: options,
                                   navigation: DocumentState.Navigation(content))
    }

    /// Whether it is a text document (lines as written), not Markdown.
    public var isText: Bool {
        if case .text = source { return true }
        return false
    }

    /// The Markdown document (nil for text).
    public var document: Document? {
        if case .markdown(let d) = source { return d }
        return nil
    }
}
