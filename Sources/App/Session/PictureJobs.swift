import GrammarLoader
import Images
import LessOptions
import LineLayout
import MarkdownModel
import Pager
import Threads

/// Decodes and draws the images the pager's layout asked for (`PictureShow.deferred`) on a
/// thread of their own, below the run loop's priority: no key waits for a file, a decoder or
/// the plugin's first load. One thread at a time, one image after the other, each posted as
/// it is done (the pictures fill in one by one; until then each is its caption).
struct PictureJobs {
    /// A thread is at work (until its last image is delivered).
    private(set) var busy = false

    mutating func start(content: any LayoutContent, show: PictureShow?, directory: String?, mailbox: Mailbox?) {
        guard !busy, let mailbox, let show, show.deferred,
              let content = content.asMarkdown, content.hasPictureJobs else { return }
        let jobs = content.takePictureJobs()
        guard !jobs.isEmpty else { return }
        busy = true
        startThread(stackSize: 1 << 20) {
            for (i, job) in jobs.enumerated() {
                let picture = Pictures.draw(job.source, avail: job.avail, directory: directory, show: show)
                content.storePicture(picture, for: job)
                mailbox.post(.pictured(content: content, source: job.source, last: i == jobs.count - 1))
            }
        }
    }

    mutating func delivered(last: Bool) {
        if last { busy = false }
    }
}

/// The image plugin, loaded on first use, and what draws with it.
enum Pictures {
    /// The codec beside the grammars (the same search path), or nil when it is not there.
    static let codec: ImageCodec? = {
        let loader = GrammarLoader.forThisProcess(environment: ProcessEnvironment.current)
        return try? ImageCodec.load(searchPath: loader.searchPath).get()
    }()

    /// The local image `source` (relative to `directory`) decoded and drawn as block cells in
    /// at most `avail` columns; nil when it is not a readable local image.
    static func draw(_ source: String, avail: Int, directory: String?, show: PictureShow) -> Picture? {
        guard let codec, let image = decoded(source, directory: directory) else { return nil }
        let (cols, rows) = show.geometry(of: image, avail: avail)
        // A graphics protocol draws over blank rows, from pixels scaled here, off the loop, to
        // the cells' size (kitty sends them as they are; sixel cuts bands from them).
        guard show.mode == .blocks else {
            _ = prepared(source, directory: directory, cols: cols, rows: rows, show: show)
            let id = show.mode == .kittyPlaceholders ? kittyID(source, directory: directory, cols: cols, rows: rows) : nil
            return Picture(cols: cols, rows: rows, cells: [], kittyID: id)
        }
        guard let cells = codec.cells(image, cols: cols, rows: rows, background: 0) else { return nil }
        return Picture(cols: cols, rows: rows, cells: cells)
    }

    /// Images decoded, and scaled for a graphics protocol, the most recent first, at most
    /// `keptBytes` of pixels in all.
    private static let kept = Locked<[(key: String, image: DecodedImage)]>([])
    static let keptBytes = 128 << 20

    /// The local image `source` (relative to `directory`) decoded, from the cache or now.
    static func decoded(_ source: String, directory: String?) -> DecodedImage? {
        guard let codec, let path = ImageFiles.path(of: source, relativeTo: directory) else { return nil }
        if let hit = lookUp(path) { return hit }
        guard let bytes = ImageFiles.read(path), let image = codec.decode(bytes) else { return nil }
        keep(image, as: path)
        return image
    }

    /// The image scaled to `cols` x `rows` cells of the show's pixels (what kitty is sent and
    /// sixel cut from), from the cache or made now.
    static func prepared(_ source: String, directory: String?, cols: Int, rows: Int, show: PictureShow) -> DecodedImage? {
        guard let codec, let path = ImageFiles.path(of: source, relativeTo: directory) else { return nil }
        let key = "\(path)\u{0}\(cols)x\(rows)@\(show.cellWidth)x\(show.cellHeight)"
        if let hit = lookUp(key) { return hit }
        guard let image = decoded(source, directory: directory),
              let scaled = codec.scaled(image, width: cols * show.cellWidth, height: rows * show.cellHeight) else { return nil }
        keep(scaled, as: key)
        return scaled
    }

    /// Kitty's id for an image at a size (1...255: a 256-colour foreground names it, which
    /// survives tmux where a 24-bit one may not); the oldest is used again after 255.
    static func kittyID(_ source: String, directory: String?, cols: Int, rows: Int) -> Int? {
        guard let path = ImageFiles.path(of: source, relativeTo: directory) else { return nil }
        let key = "\(path)\u{0}\(cols)x\(rows)"
        return ids.withLock { ids in
            if let id = ids.byKey[key] { return id }
            let id = ids.next
            ids.next = id % 255 + 1
            ids.byKey = ids.byKey.filter { $0.value != id }
            ids.byKey[key] = id
            return id
        }
    }
    private static let ids = Locked<(byKey: [String: Int], next: Int)>(([:], 1))

    private static func lookUp(_ key: String) -> DecodedImage? {
        kept.withLock { list in list.first { $0.key == key }?.image }
    }

    private static func keep(_ image: DecodedImage, as key: String) {
        kept.withLock { list in
            list.insert((key, image), at: 0)
            var total = 0, count = 0
            for (i, entry) in list.enumerated() {
                total += entry.image.pixels.count
                if i > 0 && total > keptBytes { break }
                count = i + 1
            }
            list.removeSubrange(count...)
        }
    }

    /// Inside tmux, in a terminal that has kitty's images (kitty, Ghostty: their variables
    /// reach the shell tmux starts), with `--images=auto` or `kitty`: whether tmux passes them
    /// on (`allow-passthrough`, asked of tmux itself), and if not, what to tell the reader.
    static func tmuxKitty(mode: ImageMode, environment: [String: String]) -> (use: Bool, notice: String?) {
        guard mode == .auto || mode == .kitty, !(environment["TMUX"] ?? "").isEmpty else { return (false, nil) }
        let hint = !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || !(environment["GHOSTTY_RESOURCES_DIR"] ?? "").isEmpty
        guard hint || mode == .kitty else { return (false, nil) }
        let setting = TmuxQuery.format("#{allow-passthrough}", environment: environment)
        if setting == "on" || setting == "all" { return (true, nil) }
        return (false, "Pictures as blocks: kitty's images need `set -g allow-passthrough on` in tmux")
    }

    /// The folder of a file's path.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// How images show for `mode` in a terminal of `depth` colours: nil (captions only) when
    /// off or without colour. The cell size comes from the terminal when it says it.
    /// `tmuxKitty`: kitty's images through tmux (`tmuxKitty(mode:environment:)`).
    /// `cell`: the cell's pixels as the terminal answered `CSI 16 t`, used when `TIOCGWINSZ`
    /// does not say.
    static func show(mode: ImageMode, addsColour: Bool, deferred: Bool, screenRows: Int,
                     directory: String? = nil, tmuxKitty: Bool = false, cell answered: (width: Int, height: Int)? = nil) -> PictureShow? {
        guard mode != .off, addsColour else { return nil }
        var drawing: PictureMode
        switch mode {
        case .kitty: drawing = .kitty
        case .sixel: drawing = .sixel
        case .iterm: drawing = .iterm
        case .blocks, .off: drawing = .blocks
        // iTerm2 answers neither query (it has sixel too, but its own images are better).
        case .auto: drawing = ProcessEnvironment.current["TERM_PROGRAM"] == "iTerm.app" && deferred ? .iterm : .blocks
        }
        if deferred, tmuxKitty { drawing = .kittyPlaceholders }
        let cell = TerminalSize.cellPixels() ?? answered ?? (8, 16)
        let maxRows = PictureShow.maxRows(screenRows: screenRows)
        guard !deferred else { return PictureShow(cellWidth: cell.0, cellHeight: cell.1, maxRows: maxRows, deferred: true, mode: drawing) }
        // Print mode: blocks, or the picture drawn with the protocol over its blank rows
        // (`PictureShow.inlineBytes`: kitty's before them, sixel and iTerm2's after them).
        let drawHere: @Sendable (String, Int, PictureShow) -> Picture? = { source, avail, show in
            Pictures.draw(source, avail: avail, directory: directory, show: show)
        }
        let shown: @Sendable (PictureRow, PictureShow) -> [UInt8]? = { row, show in
            guard let image = Pictures.prepared(row.source, directory: directory, cols: row.cols, rows: row.rows, show: show)
            else { return nil }
            switch show.mode {
            case .kitty: return GraphicsCommands.kittyShow(image: image, cols: row.cols, rows: row.rows)
            case .sixel, .iterm:
                let whole = PicturePlacement(source: row.source, cols: row.cols, rows: row.rows, firstRow: 0,
                                             visibleRows: row.rows, screenRow: 0, column: row.column)
                return GraphicsOverlay.draw(image, whole, mode: show.mode, show: show)
            case .blocks, .kittyPlaceholders: return nil
            }
        }
        return PictureShow(cellWidth: cell.0, cellHeight: cell.1, maxRows: maxRows, deferred: false,
                           mode: drawing == .kittyPlaceholders ? .blocks : drawing, draw: drawHere, inline: shown)
    }
}

extension EventLoop {
    /// The folder of document `doc`'s file (its images' sources are relative to it); nil for
    /// a pipe (then they are relative to the working directory).
    func documentDirectory(_ doc: Int) -> String? {
        guard inputs.indices.contains(doc), let path = inputs[doc].source.path else { return nil }
        return Pictures.directory(of: path)
    }
}
