import LineLayout
import MarkdownModel
import TerminalScreen
import Viewport

/// What happens to the pager: keys, mouse, size changes, and idle time for background work.
public enum PagerEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case paste(String)
    case resize(rows: Int, columns: Int)
    /// No input is waiting: a chance to do a slice of background work (match counting) or to
    /// scroll while a mouse drag is held past an edge.
    case idle
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
    /// Edit a file at a source line (`v`); the run loop reloads the document afterwards.
    case edit(path: String, line: Int, document: Int)
}

/// The whole pager: one value, changed only by `update`. Rendering reads it (`frame()`).
public struct PagerState: Sendable {
    public var config: PagerConfig
    public private(set) var screenRows: Int
    public private(set) var screenColumns: Int
    public var documents: [DocumentState]
    public var current: Int
    /// The help document while it is open; keys page through it.
    public var help: DocumentState?
    /// The document's search match and count while the help is open: closing the help gives
    /// them back, unless a new search was made inside the help.
    var searchBeforeHelp: SearchState?
    public var keys = KeyInterpreter()
    /// Replaces the status line until the next key.
    public var message: String?
    public var prompt: Prompt?
    /// Search patterns, oldest first (the reading-position store persists it).
    public var searchHistory: [String] = []
    /// Positions to return to with Backspace, across documents.
    public var backStack: [BackEntry] = []
    public var search: SearchState?
    public var selection: Selection?
    public var outline: OutlineState?
    public var mouseDrag: MouseDrag?
    /// The link under the last mouse click (press and release in place); a second click on
    /// it follows it. Any key forgets it.
    public var lastClickedLink: SelectableElement?
    /// Half-page size set by a count on `d`/`u` (less remembers it).
    public var halfPage: Int?
    /// Background work is waiting (the run loop sends `.idle` without blocking).
    public var wantsIdle: Bool { search?.counter?.isDone == false || mouseDrag?.edgeDirection != nil }

    public init(documents: [DocumentSpec], config: PagerConfig, rows: Int, columns: Int) {
        self.config = config
        self.screenRows = max(1, rows)
        self.screenColumns = max(1, columns)
        self.current = 0
        let options = PagerState.layoutOptions(config: config, columns: max(1, columns))
        self.documents = documents.map {
            var d = DocumentState(name: $0.name, path: $0.path, document: $0.document, options: options,
                                  contentRows: max(0, rows - 1))
            d.isPreview = $0.isPreview
            return d
        }
    }

    /// Layout options for a screen width: one column is kept for the scroll indicator.
    static func layoutOptions(config: PagerConfig, columns: Int) -> LayoutOptions {
        let reserve = config.showScrollbar && columns > 1 ? 1 : 0
        return LayoutOptions(width: max(1, columns - reserve), inlineLinkURLs: config.inlineLinkURLs)
    }

    public var layoutOptions: LayoutOptions { PagerState.layoutOptions(config: config, columns: screenColumns) }
    public var contentRows: Int { max(0, screenRows - 1) }

    /// The document the keys act on: help while it is open, else the current file.
    public var active: DocumentState {
        get { help ?? documents[current] }
        // In place: a get/set pair would copy the document's layout arrays on every change.
        _modify {
            if help != nil { yield &help! } else { yield &documents[current] }
        }
    }

    /// Adds a document (a followed link) and makes it current.
    public mutating func open(_ spec: DocumentSpec) -> Int {
        documents.append(DocumentState(name: spec.name, path: spec.path, document: spec.document,
                                       options: layoutOptions, contentRows: contentRows))
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
            // The document under the help too: closing the help shows it at the new size.
            let options = layoutOptions
            let rows = contentRows
            documents[current].relayout(options: options, contentRows: rows)
            help?.relayout(options: options, contentRows: rows)
            return [.redrawAll]
        case .idle:
            return idle()
        case .paste(let text):
            if prompt != nil {
                for c in text where !c.isNewline { _ = promptKey(.char(c)) }
            }
            return []
        case .mouse(let m):
            return mouse(m)
        case .key(let key):
            message = nil
            lastClickedLink = nil
            if prompt != nil { return promptKey(key) }
            if outline != nil { return outlineKey(key) }
            return readingKey(key)
        }
    }

    mutating func readingKey(_ key: Key) -> [PagerEffect] {
        // Enter follows the selected link; otherwise it is a line down, as in less.
        if key == .enter, keys.count == nil, selection != nil {
            return perform(.follow, count: nil)
        }
        guard let command = keys.interpret(key) else { return [] }
        let count = keys.count
        keys.commandDone()
        return perform(command, count: count)
    }

    /// Switches the document in view; returns the effects (the old one's position is saved).
    mutating func switchTo(_ index: Int) -> [PagerEffect] {
        guard index != current, documents.indices.contains(index) else { return [] }
        let old = current
        selection = nil
        search?.forgetPosition()
        current = index
        documents[current].relayout(options: layoutOptions, contentRows: contentRows)
        return [.leftDocument(old)]
    }
}

/// A place to go back to: a document and a position in it.
public struct BackEntry: Hashable, Sendable {
    public var document: Int
    public var position: ScrollPosition
}

/// A document handed to the pager.
public struct DocumentSpec: Sendable {
    public var name: String
    public var path: String?
    public var document: Document
    /// The document is only the beginning of the file (shown while the rest is parsed):
    /// page totals and percentages are not known yet.
    public var isPreview: Bool
    public init(name: String, path: String?, document: Document, isPreview: Bool = false) {
        self.name = name; self.path = path; self.document = document; self.isPreview = isPreview
    }
}
