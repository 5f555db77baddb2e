import LessOptions
import Threads
import LineLayout
import TextSearch
import Viewport

/// How far a page moves. less's `-z` sets the window size; folio's default is a page minus a
/// one-row overlap, so the last row of a page is the first row of the next.
public enum PageStep: Hashable, Sendable {
    /// Content rows minus this many shared rows (`--overlap N`, default 1).
    case overlap(Int)
    /// Exactly this many rows (`-zN`, and `Nz`).
    case rows(Int)
    /// Content rows minus N (`-z-N`).
    case screenMinus(Int)

    /// Rows one page moves with `contentRows` visible: always at least 1.
    public func rows(contentRows: Int) -> Int {
        switch self {
        case .overlap(let o): return ScrollGeometry.pageStep(contentRows: contentRows, overlap: min(o, max(0, contentRows - 1)))
        case .rows(let n): return max(1, n)
        case .screenMinus(let n): return max(1, contentRows - n)
        }
    }
}

/// Options that shape the pager's behaviour; fixed for a session.
public struct PagerConfig: Sendable {
    public var pageStep: PageStep = .overlap(1)
    /// The scroll indicator on the right edge, which takes a column: for Markdown only by
    /// default (`.auto`); text lines get the whole width, as in less (a line as wide as the
    /// screen takes one row).
    public var scrollbar: Scrollbar = .auto
    public var theme = Theme(depth: .ansi16)
    /// `--theme`: with `auto` the palette follows the terminal's replies.
    public var themeChoice: ThemeChoice = .dark
    /// The terminal was asked for its colours (`--theme=auto` on a terminal that may answer):
    /// the first frame waits for the reply.
    public var queriesTerminal = false
    /// Write link URLs inline (no hyperlink support / `--plain`).
    public var inlineLinkURLs = false
    /// Where search and jumps put their target when the view must move.
    public var jumpTarget: ScrollGeometry.RevealPolicy = .minimal
    public var searchCase: CaseSensitivity = .smart
    public var literalSearch = false
    /// Full mouse reporting is on (clicks and drags reach folio).
    public var mouse = false
    /// Text documents: cut long lines at the width (`-S`); `←`/`→` scroll sideways.
    public var chopLongLines = false
    /// A gutter with source line numbers (`-N`): a text document's line, a Markdown row's
    /// source line.
    public var lineNumbers = false
    /// This machine's name: `file://HOST/path` links naming it are local files.
    public var hostName: String?
    /// Markdown prose at most this many columns (`--max-width`; nil: the whole width), and
    /// whether that column is centred (`--align center`). See `LayoutOptions.column`.
    public var maxProseWidth: Int?
    public var centerProse = false
    /// Syntax highlighting of fenced code (nil: off, as with `--color=never`).
    public var highlighter: CodeHighlighter?
    /// Markdown images as pictures (`--images`; nil: off, or no colour).
    public var pictures: PictureShow?
    /// The threads layout and row counts may use (the session passes the machine's, below
    /// the event loop's priority; a test may pass `.serial`).
    public var executor: Executor = .machine
    /// less's `-K`: Ctrl-C quits. Without it Ctrl-C only interrupts (a search, reading on, a
    /// prompt) and does nothing when there is nothing to interrupt, as in less.
    public var quitOnInterrupt = false
    /// less's `-e` / `-E`.
    public var quitAtEOF: QuitAtEOF = .never
    /// less's `-g` / `-G`: which matches of the last search are highlighted.
    public var matchHighlight: MatchHighlight = .all
    /// less's `-a`: a new search starts past the screen instead of at its top row.
    public var searchSkipsScreen = false
    /// A search that reaches the end goes on from the other end (`--search-wrap`); by
    /// default it stops there with "Pattern not found", as less's searches do.
    public var searchWraps = false
    /// less's `-#`: what `→` `←` move (default half the width).
    public var horizontalShift: HorizontalShift = .fraction(0.5)
    /// `LESSSECURE=1`, as less's secure mode: no shell (`!`, `|`), no other file (`:e`, Tab
    /// completion), no writing (`s`), no editor (`v`).
    public var secure = false
    /// The user's key bindings (lesskey, folio's keys file).
    public var keyBindings = KeyBindings()
    /// Their `#line-edit` bindings, for the prompt.
    public var lineEditBindings = KeyBindings()

    public init() {}

    /// less's `-j`: a 1-based row (negative: from the bottom; 0 as 1) or a fraction.
    public static func revealPolicy(_ target: JumpTarget) -> ScrollGeometry.RevealPolicy {
        switch target {
        case .fraction(let f): return .fraction(f)
        case .row(let n): return n > 0 ? .row(n - 1) : (n < 0 ? .row(n) : .row(0))
        }
    }
}

/// Where the scroll indicator shows (`--scrollbar`, `--no-scrollbar`).
public enum Scrollbar: String, Sendable, CaseIterable {
    /// Markdown documents (and help); not text.
    case auto
    case always
    case never
}

extension PagerConfig {
    /// Whether the scroll indicator shows, and takes its column, in a text or Markdown document.
    public func showsScrollbar(isText: Bool) -> Bool {
        switch scrollbar {
        case .auto: return !isText
        case .always: return true
        case .never: return false
        }
    }
}
