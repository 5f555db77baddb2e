import LessOptions
import TerminalScreen
#if canImport(Glibc)
import Glibc
#endif

/// `--theme`: a palette by name, or `auto` — ask the terminal for its background colour,
/// else `COLORFGBG`, else dark. (Defined with the options that name it.)
public typealias ThemeChoice = LessOptions.ThemeChoice

/// The pure decisions behind `--theme=auto`: which palette a reply, `COLORFGBG` or nothing
/// at all asks for, and whether to ask the terminal in the first place. The edge reads the
/// environment and the tty; everything here is tested without either.
public enum AppearanceDetection {
    /// WCAG relative luminance of a reply colour, 0 (black) … 1 (white).
    public static func luminance(_ c: ReplyColor) -> Double {
        func linear(_ v: UInt16) -> Double {
            let x = Double(v) / 65535
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// Below this background luminance black text reads worse than white (their WCAG contrast
    /// ratios are equal at √(1.05 × 0.05) − 0.05 ≈ 0.179: about #767676).
    public static let threshold = 0.179

    /// The palette for a terminal background colour.
    public static func appearance(background: ReplyColor) -> Appearance {
        luminance(background) < threshold ? .dark : .light
    }

    /// The palette for a terminal foreground colour (when the background is not known): light
    /// text means a dark background.
    public static func appearance(foreground: ReplyColor) -> Appearance {
        luminance(foreground) < threshold ? .light : .dark
    }

    /// rxvt's `COLORFGBG` (`"15;0"`, `"0;default;15"`): its last field is the background's
    /// basic colour. 0–6 and 8 are dark backgrounds, 7 and 9–15 light (as vim decides);
    /// nil when the field is not a number (`default`) or the variable is empty.
    public static func appearance(colorFgBg: String?) -> Appearance? {
        guard let value = colorFgBg, let last = value.split(separator: ";").last,
              let n = Int(last), (0...15).contains(n) else { return nil }
        return (0...6).contains(n) || n == 8 ? .dark : .light
    }

    /// Whether to send the colour query at all. Not to `TERM=dumb` (it cannot answer), nor
    /// to GNU screen (`screen*`: it neither answers OSC 11 nor passes it on) unless tmux is
    /// the one running (`TMUX` set: tmux answers from its pane's colours, whatever `TERM` it
    /// is configured with), nor when no colour is drawn.
    public static func shouldQuery(term: String?, insideTmux: Bool, depth: ColorDepth) -> Bool {
        guard depth != .none else { return false }
        let term = (term ?? "").lowercased()
        if term == "dumb" { return false }
        if term.hasPrefix("screen") && !insideTmux { return false }
        return true
    }

    /// The palette the terminal's replies ask for (the background's, else the foreground's
    /// opposite, else the last colour-scheme report); nil when they say nothing.
    public static func appearance(replies: [TerminalReply]) -> Appearance? {
        var fromForeground: Appearance?, fromScheme: Appearance?
        for reply in replies {
            switch reply {
            case .background(let c): return appearance(background: c)
            case .foreground(let c): fromForeground = appearance(foreground: c)
            case .colorScheme(let dark): fromScheme = dark ? .dark : .light
            case .deviceAttributes, .kittyGraphics, .sixelGraphics, .cellSize, .terminalName: break
            }
        }
        return fromForeground ?? fromScheme
    }

    /// The palette before (or without) a reply: `COLORFGBG`'s, else dark.
    public static func fallback(colorFgBg: String?) -> Appearance {
        appearance(colorFgBg: colorFgBg) ?? .dark
    }
}

/// What `--theme=auto` knows so far (part of `PagerState`).
public struct TerminalColors: Hashable, Sendable {
    /// The first frame waits for the reply (until DA1 answers, or the run loop's deadline).
    public internal(set) var awaiting = false
    public internal(set) var foreground: ReplyColor?
    public internal(set) var background: ReplyColor?
    public init() {}
}

extension PagerState {
    /// A reply from the terminal, at any time (a late one re-themes the screen).
    mutating func terminalReplied(_ reply: TerminalReply) -> [PagerEffect] {
        switch reply {
        case .foreground(let c):
            terminalColors.foreground = c
            if terminalColors.background == nil { choose(AppearanceDetection.appearance(foreground: c)) }
        case .background(let c):
            terminalColors.background = c
            choose(AppearanceDetection.appearance(background: c))
        case .colorScheme(let dark):
            choose(dark ? .dark : .light)
        case .deviceAttributes:
            terminalColors.awaiting = false
        case .kittyGraphics, .sixelGraphics, .cellSize, .terminalName:
            break  // the event loop's (how pictures are drawn)
        }
        return []
    }

    /// The palette for an appearance, when the theme is `auto` (a named theme never changes).
    mutating func choose(_ appearance: Appearance) {
        let palette = config.theme.palette(for: appearance)
        guard config.themeChoice == .auto, config.theme.palette.appearance != appearance
              || config.theme.palette.name != palette.name else { return }
        config.theme = config.theme.with(palette: palette)
    }
}
