import Images
import LineLayout
import Pager
import Threads

/// Pictures drawn with a graphics protocol over the blank rows layout keeps for them
/// (`PictureMode` kitty, sixel, iterm), after each frame, in the same write.
///
/// Kitty: each image is sent once per size (scaled to its cells' pixels) and then only placed:
/// scrolling deletes the placements and places what is on screen again, clipped to its
/// visible rows with a source rectangle. Sixel and iTerm2 draw pixels into the cells: when
/// what is shown changes, the frame is repainted whole (erasing the old pixels) and each
/// visible picture drawn again, cut to its visible rows.
struct GraphicsOverlay {
    /// The placements drawn by the last frame.
    private(set) var shown: [PicturePlacement] = []
    private var kittyIDs: [String: Int] = [:]
    private var nextID = 1
    /// Sixel or PNG bytes of a visible band of a picture, by image, size and band.
    private var drawn: [String: [UInt8]] = [:]

    /// Whether the frame must be repainted whole before `placements` are drawn (pixels in
    /// cells from the last frame would otherwise stay where the text has moved).
    func needsRepaint(_ placements: [PicturePlacement], mode: PictureMode) -> Bool {
        (mode == .sixel || mode == .iterm) && placements != shown && !(placements.isEmpty && shown.isEmpty)
    }

    /// The bytes that draw `placements` (nothing when they are what the last frame drew and
    /// `repainted` is false).
    mutating func bytes(for placements: [PicturePlacement], mode: PictureMode, show: PictureShow,
                        directory: String?, repainted: Bool) -> [UInt8] {
        guard mode != .blocks, placements != shown || repainted else { return [] }
        defer { shown = placements }
        var out: [UInt8] = []
        if mode == .kittyPlaceholders {
            // The placeholders are text in the frame: the image is only sent, once (again
            // after the screen was cleared: tmux may have been detached meanwhile).
            for p in placements {
                guard let id = Pictures.kittyID(p.source, directory: directory, cols: p.cols, rows: p.rows) else { continue }
                let key = "\(directory ?? "")|\(p.source)|\(p.cols)x\(p.rows)"
                guard kittyIDs[key] != id,
                      let image = Pictures.prepared(p.source, directory: directory, cols: p.cols, rows: p.rows, show: show) else { continue }
                kittyIDs[key] = id
                out += GraphicsCommands.tmuxPassthrough(GraphicsCommands.kittyVirtual(id: id, image: image, cols: p.cols, rows: p.rows))
            }
            return out
        }
        if mode == .kitty, !shown.isEmpty { out += GraphicsCommands.kittyDeletePlacements }
        for (k, p) in placements.enumerated() {
            guard let image = Pictures.prepared(p.source, directory: directory, cols: p.cols, rows: p.rows, show: show) else { continue }
            let width = image.width, height = image.height
            let key = "\(directory ?? "")|\(p.source)|\(p.cols)x\(p.rows)"
            switch mode {
            case .kitty:
                var id = kittyIDs[key]
                if id == nil {
                    id = nextID
                    nextID += 1
                    kittyIDs[key] = id
                    out += GraphicsCommands.kittyTransmit(id: id!, image: image)
                }
                out += GraphicsCommands.moveTo(row: p.screenRow, column: p.column)
                out += GraphicsCommands.kittyPlace(id: id!, placement: k + 1, width: width, height: height,
                                                   cols: p.cols, rows: p.rows, first: p.firstRow, count: p.visibleRows)
            case .sixel, .iterm:
                let band = "\(key)|\(p.firstRow)+\(p.visibleRows)|\(mode)"
                if drawn[band] == nil {
                    if drawn.count > 64 { drawn.removeAll() }
                    drawn[band] = Self.draw(image, p, mode: mode, show: show) ?? []
                }
                guard let bytes = drawn[band], !bytes.isEmpty else { continue }
                out += GraphicsCommands.moveTo(row: p.screenRow, column: p.column) + bytes
            case .blocks, .kittyPlaceholders:
                break
            }
        }
        return out
    }

    /// The visible rows of a picture as sixel or a PNG for iTerm2.
    static func draw(_ image: DecodedImage, _ p: PicturePlacement, mode: PictureMode, show: PictureShow) -> [UInt8]? {
        guard let codec = Pictures.codec else { return nil }
        let band = ImageCodec.band(image, rows: (p.firstRow * image.height / p.rows)..<((p.firstRow + p.visibleRows) * image.height / p.rows))
        if mode == .sixel {
            return codec.sixel(band, cols: p.cols, rows: p.visibleRows, cellWidth: show.cellWidth, cellHeight: show.cellHeight,
                               background: 0)
        }
        guard let png = codec.png(band) else { return nil }
        return GraphicsCommands.itermInline(png: png, cols: p.cols, rows: p.visibleRows)
    }

    /// What frees the images sent through tmux when folio leaves (kitty's own images are
    /// deleted by the terminal session's exit sequence; tmux's passthrough is folio's to use).
    func releaseBytes(mode: PictureMode) -> [UInt8] {
        guard mode == .kittyPlaceholders else { return [] }
        return Set(kittyIDs.values).sorted().flatMap { GraphicsCommands.tmuxPassthrough(GraphicsCommands.kittyDelete(id: $0)) }
    }

    /// Forget what the terminal shows (it was cleared: a suspend, the editor).
    mutating func reset() {
        shown = []
        kittyIDs = [:]
    }
}
