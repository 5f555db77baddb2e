import LineLayout
import TerminalScreen

/// What the terminal answered to the questions about pictures (`ANSI.queryGraphics`), up to
/// DA1, which ends them: the pager's session and print mode read the same replies.
struct GraphicsAnswers: Equatable {
    var kitty = false
    var sixel = false
    /// A cell's pixels, when the terminal answered `CSI 16 t`.
    var cell: (width: Int, height: Int)? { cellWidth > 0 ? (cellWidth, cellHeight) : nil }
    var terminalName: String?
    /// DA1 has come (the answers are all in).
    var done = false
    private var cellWidth = 0, cellHeight = 0

    init() {}

    init(_ replies: [TerminalReply]) {
        for reply in replies { take(reply) }
    }

    mutating func take(_ reply: TerminalReply) {
        switch reply {
        case .kittyGraphics(let ok): kitty = kitty || ok
        case .sixelGraphics: sixel = true
        case .cellSize(let width, let height): cellWidth = width; cellHeight = height
        case .terminalName(let name): terminalName = name
        case .foreground, .background, .colorScheme, .deviceAttributes: break
        }
    }

    /// The protocol the answers choose for `--images=auto` (nil: blocks).
    var mode: PictureMode? { PictureMode.answered(kitty: kitty, sixel: sixel, terminalName: terminalName) }
}
