import MarkdownModel
import Styling
import Synchronization

/// An image's pixels, decoded at the edge: RGBA, 8 bits a channel, straight alpha, row by row.
public struct DecodedImage: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }
}

/// One cell of a picture drawn with characters: a block element and its two colours
/// (0xRRGGBB; nil: the terminal's own).
public struct PictureCell: Sendable, Hashable {
    public var character: Unicode.Scalar
    public var foreground: UInt32?
    public var background: UInt32?
    public init(character: Unicode.Scalar, foreground: UInt32?, background: UInt32?) {
        self.character = character; self.foreground = foreground; self.background = background
    }
}

/// How images show, as layout receives it (part of `LayoutOptions`; made at the edge, which
/// decodes and draws: layout stays pure). An image alone in a paragraph (or alone in a link
/// there) takes `rows` rows at `cols` columns from its pixel size, the terminal's cell size and
/// the room there is (`geometry`), then a caption row `[image: alt]`, which Tab selects. Until
/// its pixels are in, an image is its caption row only.
///
/// `deferred` (the pager): layout never reads or decodes a file. An image laid out before it
/// is decoded is asked for (`MarkdownContent.takePictureJobs`); the edge decodes and draws it
/// off the run loop and hands the cells back (`storePicture`), and the pager lays the unit
/// out again. Otherwise (print mode) `draw` is called as the unit is laid out.
///
/// Two shows are equal only when they are the same object.
public final class PictureShow: Hashable, Sendable {
    /// Pixels of one cell of the terminal (from `TIOCGWINSZ`, or a common 8 x 16).
    public let cellWidth: Int
    public let cellHeight: Int
    /// Rows an image takes at most (a part of the screen's height).
    public let maxRows: Int
    public let deferred: Bool
    /// How pictures reach the screen (the pager: what the terminal answered to).
    public let mode: PictureMode
    /// Print mode: an image's cells at a given width, or nil (not a local image, or not one
    /// that decodes). Called with the source as written, the columns there are, and this show.
    let draw: (@Sendable (_ source: String, _ avail: Int, _ show: PictureShow) -> Picture?)?

    /// Print mode with a graphics protocol: the escape sequence that shows a picture over its
    /// blank rows (`inlineBytes(before:)`, `inlineBytes(after:)` say when), or nil.
    public let inline: (@Sendable (_ row: PictureRow, _ show: PictureShow) -> [UInt8]?)?

    public init(cellWidth: Int, cellHeight: Int, maxRows: Int, deferred: Bool, mode: PictureMode = .blocks,
                draw: (@Sendable (_ source: String, _ avail: Int, _ show: PictureShow) -> Picture?)? = nil,
                inline: (@Sendable (_ row: PictureRow, _ show: PictureShow) -> [UInt8]?)? = nil) {
        self.cellWidth = max(1, cellWidth); self.cellHeight = max(1, cellHeight)
        self.maxRows = max(1, maxRows); self.deferred = deferred; self.mode = mode; self.draw = draw
        self.inline = inline
    }

    /// The same show drawn another way (the terminal answered that it has graphics), with the
    /// cell size it said (`CSI 16 t`) when given.
    public func with(mode: PictureMode, cell: (width: Int, height: Int)? = nil) -> PictureShow {
        PictureShow(cellWidth: cell?.width ?? cellWidth, cellHeight: cell?.height ?? cellHeight, maxRows: maxRows,
                    deferred: deferred, mode: mode, draw: draw, inline: inline)
    }

    /// Rows an image may take on a screen of `screenRows`: half of it (a picture never
    /// fills the page: some text stays in view around it), at least 4.
    public static func maxRows(screenRows: Int) -> Int { max(4, screenRows / 2) }

    /// The show for a screen of `screenRows` rows and cells of `cell` pixels (when known):
    /// itself when neither changes what it lays out (a resize keeps it, and every picture's
    /// layout with it), else a new show.
    public func fitting(screenRows: Int, cell: (width: Int, height: Int)? = nil) -> PictureShow {
        let rows = Self.maxRows(screenRows: screenRows)
        let cell = cell ?? (cellWidth, cellHeight)
        guard rows != maxRows || cell.width != cellWidth || cell.height != cellHeight else { return self }
        return PictureShow(cellWidth: cell.width, cellHeight: cell.height, maxRows: rows, deferred: deferred, mode: mode,
                           draw: draw, inline: inline)
    }

    /// What print mode writes before a row: kitty's picture at the start of its first row (it
    /// leaves the cursor where it was: the rows written after it scroll it with them).
    public func inlineBytes(before line: VisualLine) -> [UInt8]? {
        guard let inline, mode == .kitty, let p = line.picture, p.row == 0 else { return nil }
        return inline(p, self)
    }

    /// What print mode writes after a row: a sixel or iTerm2 picture once its last row is
    /// written. Those move the cursor by as much as the terminal draws (and scroll when they
    /// reach the bottom), which a stream cannot know; drawn over rows already on the screen,
    /// between a saved and a restored cursor, they cannot move it (`PrintRenderer`).
    public func inlineBytes(after line: VisualLine) -> (bytes: [UInt8], rows: Int, column: Int)? {
        guard let inline, mode == .sixel || mode == .iterm, let p = line.picture, p.row == p.rows - 1,
              let bytes = inline(p, self) else { return nil }
        return (bytes, p.rows, p.column)
    }

    /// Columns and rows of an image of `width` x `height` pixels in at most `avail` columns
    /// and `maxRows` rows: its own size in cells, made smaller (never larger) to fit, with its
    /// aspect ratio kept. At least one cell.
    public static func geometry(width: Int, height: Int, cellWidth: Int, cellHeight: Int,
                                avail: Int, maxRows: Int) -> (cols: Int, rows: Int) {
        guard width > 0, height > 0, avail > 0, maxRows > 0 else { return (1, 1) }
        let cols = Double(width) / Double(max(1, cellWidth))
        let rows = Double(height) / Double(max(1, cellHeight))
        let scale = min(1, Double(avail) / cols, Double(maxRows) / rows)
        return (min(avail, max(1, Int((cols * scale).rounded()))), min(maxRows, max(1, Int((rows * scale).rounded()))))
    }

    public func geometry(of image: DecodedImage, avail: Int) -> (cols: Int, rows: Int) {
        Self.geometry(width: image.width, height: image.height, cellWidth: cellWidth, cellHeight: cellHeight,
                      avail: avail, maxRows: maxRows)
    }

    public static func == (a: PictureShow, b: PictureShow) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// How pictures reach the screen. `blocks`: as cells of layout rows (every terminal with
/// colour; print mode). The others draw over blank rows after each frame (`PictureRow` says
/// where): kitty's graphics protocol, sixel, iTerm2's inline images.
public enum PictureMode: String, Sendable, Hashable, CaseIterable {
    case blocks, kitty, sixel, iterm
    /// Kitty's images inside tmux: the picture's cells are Unicode placeholders (text, which
    /// tmux keeps), the image sent once through tmux's passthrough (`KittyPlaceholder`).
    case kittyPlaceholders
}

extension PictureMode {
    /// What the terminal's answers choose for `--images=auto`: kitty's images when it has them;
    /// iTerm2's own in iTerm2 and WezTerm (they say who they are to XTVERSION; both list sixel
    /// too, but their own images keep colours and scale better); sixel when DA1 lists it; nil:
    /// blocks stay.
    public static func answered(kitty: Bool, sixel: Bool, terminalName: String?) -> PictureMode? {
        if kitty { return .kitty }
        if let name = terminalName, name.hasPrefix("iTerm2") || name.hasPrefix("WezTerm") { return .iterm }
        return sixel ? .sixel : nil
    }
}

/// One row of a picture on a layout row: the image's source as written, this row's index of
/// the picture's `rows`, its size in cells, and the column it starts at.
public struct PictureRow: Hashable, Sendable {
    public var source: String
    public var row: Int
    public var rows: Int
    public var cols: Int
    public var column: Int
    public init(source: String, row: Int, rows: Int, cols: Int, column: Int) {
        self.source = source; self.row = row; self.rows = rows; self.cols = cols; self.column = column
    }
}

/// An image as drawn at one width: `cols` x `rows` cells, row by row (empty: the rows are
/// reserved and drawn by a graphics protocol, or not drawn yet).
public struct Picture: Sendable {
    public var cols: Int
    public var rows: Int
    public var cells: [PictureCell]
    /// Drawn as kitty's Unicode placeholders of the image with this id (1...255, the 256-colour
    /// foreground that names it), not as cells.
    public var kittyID: Int?
    public init(cols: Int, rows: Int, cells: [PictureCell], kittyID: Int? = nil) {
        self.cols = cols; self.rows = rows; self.cells = cells; self.kittyID = kittyID
    }
}

/// A local image the pager's layout asked for: decode `source` (relative to the document)
/// and draw it in `avail` columns.
public struct PictureJob: Sendable, Hashable {
    public let source: String
    public let avail: Int
    public init(source: String, avail: Int) { self.source = source; self.avail = avail }
}

/// Where a picture comes from while a unit is laid out (nil from it: show the caption only).
typealias PictureSource = @Sendable (_ source: String, _ avail: Int) -> Picture?

/// The pictures of one document at each width they were drawn at, and those asked for.
/// Shared by the threads that lay out units and the one that draws images.
final class PictureCache: Sendable {
    private struct State {
        var pictures: [PictureJob: Picture?] = [:]
        var order: [PictureJob] = []
        var wanted: [PictureJob] = []
        var asked: Set<PictureJob> = []
    }
    private let state = Mutex(State())
    /// Drawn pictures kept (of any width): a document's images at a few widths.
    static let kept = 256

    /// The picture if drawn, else nil; asked for once when `ask`.
    func picture(_ job: PictureJob, ask: Bool) -> Picture? {
        state.withLock { s in
            if let known = s.pictures[job] { return known }
            if ask, s.asked.insert(job).inserted { s.wanted.append(job) }
            return nil
        }
    }

    /// The picture, made on this thread on a miss.
    func picture(_ job: PictureJob, make: () -> Picture?) -> Picture? {
        if let known = state.withLock({ $0.pictures[job] }) { return known }
        let made = make()
        store(made, for: job)
        return made
    }

    func takeJobs() -> [PictureJob] { state.withLock { s in defer { s.wanted = [] }; return s.wanted } }
    var hasJobs: Bool { state.withLock { !$0.wanted.isEmpty } }

    func store(_ picture: Picture?, for job: PictureJob) {
        state.withLock { s in
            if s.pictures.updateValue(picture, forKey: job) == nil { s.order.append(job) }
            s.asked.remove(job)
            if s.order.count > Self.kept {
                let old = s.order.removeFirst()
                s.pictures[old] = nil
            }
        }
    }
}

extension PictureShow {
    /// The pager's source: the cache, asking for what it lacks (`ask`: display; the counting
    /// pass only looks).
    /// Not deferred (print mode, tests): drawn on a miss, and kept.
    func cached(in cache: PictureCache, ask: Bool) -> PictureSource {
        if let draw {
            return { [self] source, avail in cache.picture(PictureJob(source: source, avail: avail)) { draw(source, avail, self) } }
        }
        return { source, avail in cache.picture(PictureJob(source: source, avail: avail), ask: ask) }
    }

    /// Print mode's source: drawn as laid out.
    var direct: PictureSource? {
        guard let draw else { return nil }
        return { [self] source, avail in draw(source, avail, self) }
    }
}

enum PictureLayouter {
    /// A paragraph of images shown as pictures: each local image's rows (when drawn) and its
    /// caption, `[image: alt]`, whose alt text is the block's content (searched, selected
    /// with Tab: its link is the image's, or the link the image sits in).
    static func layout(_ refs: [ImageReference], avail: Int, firstLine: Int, pictures: PictureSource?,
                       into sink: inout RowSink) -> (text: String, links: [LinkTarget]) {
        var flow = Flow()
        var starts: [Int] = []
        for (k, ref) in refs.enumerated() {
            if k > 0 { flow.appendHardBreak(SpanStyle()) }
            starts.append(flow.text.utf8.count)
            var style = SpanStyle(role: .image)
            style.link = ref.link ?? ref.source
            flow.appendDecoration("[image: ", style)
            let s = flow.text.utf8.count
            flow.appendContent(ref.alt, style)
            flow.links.append(LinkTarget(destination: ref.link ?? ref.source, range: s..<flow.text.utf8.count))
            flow.appendDecoration("]", style)
        }
        var next = 0
        flow.forEachLine(width: avail, leadFirst: sink.lead, leadOther: sink.prefix.other) { line in
            while next < refs.count, line.range.lowerBound >= starts[next] {
                if !refs[next].isRemote, let picture = pictures?(refs[next].source, avail) {
                    rows(of: picture, source: refs[next].source, line: firstLine, range: starts[next]..<starts[next], into: &sink)
                }
                next += 1
            }
            sink.add(prefixed: line.spans, width: line.width, range: line.range, sourceLine: firstLine + line.sourceLineOffset)
        }
        return (flow.text, flow.links)
    }

    /// A picture's rows: runs of cells of the same colours as one span each; blank rows when
    /// it has no cells (drawn by a graphics protocol, or not yet).
    static func rows(of picture: Picture, source: String, line: Int, range: Range<Int>, into sink: inout RowSink) {
        for r in 0..<picture.rows {
            var spans = sink.lead
            let tag = PictureRow(source: source, row: r, rows: picture.rows, cols: picture.cols, column: sink.prefix.width)
            if let id = picture.kittyID {
                var style = SpanStyle()
                style.literal = TextAttributes(foreground: .palette(UInt8(clamping: id)))
                spans.append(Span(text: KittyPlaceholder.row(r, cols: picture.cols), style: style, width: picture.cols))
                sink.add(prefixed: spans, width: picture.cols, range: range, sourceLine: line, picture: tag)
                continue
            }
            guard picture.cells.count >= (r + 1) * picture.cols else {
                spans.append(Span(text: String(repeating: " ", count: picture.cols), style: SpanStyle(), width: picture.cols))
                sink.add(prefixed: spans, width: picture.cols, range: range, sourceLine: line, picture: tag)
                continue
            }
            var text = ""
            var count = 0
            var colours: (UInt32?, UInt32?) = (nil, nil)
            func flush() {
                guard count > 0 else { return }
                var style = SpanStyle()
                style.literal = TextAttributes(foreground: colours.0.map(Self.colour) ?? .default,
                                               background: colours.1.map(Self.colour) ?? .default)
                spans.append(Span(text: text, style: style, width: count))
                text = ""; count = 0
            }
            for cell in picture.cells[(r * picture.cols)..<((r + 1) * picture.cols)] {
                // A space shows only its background: its foreground need not match.
                let fg = cell.character == " " && count > 0 ? colours.0 : cell.foreground
                if count > 0, fg != colours.0 || cell.background != colours.1 { flush() }
                if count == 0 { colours = (fg, cell.background) }
                text.unicodeScalars.append(cell.character)
                count += 1
            }
            flush()
            sink.add(prefixed: spans, width: picture.cols, range: range, sourceLine: line, picture: tag)
        }
    }

    static func colour(_ rgb: UInt32) -> TerminalColor {
        .rgb(UInt8((rgb >> 16) & 0xFF), UInt8((rgb >> 8) & 0xFF), UInt8(rgb & 0xFF))
    }
}
