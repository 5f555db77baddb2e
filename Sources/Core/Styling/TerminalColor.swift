/// A colour as a terminal understands it, from most to least portable.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own foreground or background (SGR 39 / 49).
    case `default`
    /// One of the 16 basic colours, 0…15 (8…15 are the bright variants; SGR 30–37, 90–97).
    case ansi(UInt8)
    /// An entry of the xterm 256-colour palette, 0…255 (SGR 38;5;n).
    case palette(UInt8)
    /// A 24-bit colour (SGR 38;2;r;g;b).
    case rgb(UInt8, UInt8, UInt8)
}

/// How many colours the terminal can show. Ordered from richest to poorest.
public enum ColorDepth: Int, Hashable, Sendable, Comparable, CaseIterable {
    case trueColor = 3
    case palette256 = 2
    case ansi16 = 1
    /// No colour at all (`NO_COLOR`, `TERM=dumb`): every colour becomes `.default`;
    /// structure must show through bold/underline/reverse.
    case none = 0

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TerminalColor {
    /// This colour as the nearest one the given depth can show.
    /// rgb → nearest of the 6×6×6 cube or the grey ramp → nearest of the 16 basic colours.
    public func downgraded(to depth: ColorDepth) -> TerminalColor {
        switch (self, depth) {
        case (.default, _), (_, .trueColor): return self
        case (_, .none): return .default
        case (.ansi(let n), _): return .ansi(n & 15)
        case (.palette(let n), .palette256): return .palette(n)
        case (.palette(let n), _):
            if n < 16 { return .ansi(n) }
            let (r, g, b) = Self.paletteRGB(n)
            return .ansi(Self.nearestANSI(r, g, b))
        case (.rgb(let r, let g, let b), .palette256): return .palette(Self.nearestPalette(r, g, b))
        case (.rgb(let r, let g, let b), _): return .ansi(Self.nearestANSI(r, g, b))
        }
    }

    /// The six channel levels of the xterm colour cube (indices 16…231).
    public static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default RGB for the 16 basic colours.
    public static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value xterm shows for a palette index.
    public static func paletteRGB(_ n: UInt8) -> (Int, Int, Int) {
        let n = Int(n)
        if n < 16 { return ansiRGB[n] }
        if n < 232 {
            let i = n - 16
            return (cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        }
        let grey = 8 + 10 * (n - 232)
        return (grey, grey, grey)
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        // Weighted Euclidean ("redmean"-like fixed weights): cheap and good enough for themes.
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    /// Nearest palette index among the cube (16…231) and the grey ramp (232…255).
    /// The 16 basic colours are skipped: terminals let users redefine them.
    public static func nearestPalette(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let target = (Int(r), Int(g), Int(b))
        func nearestLevel(_ v: Int) -> Int {
            var best = 0
            for (i, level) in cubeLevels.enumerated() where abs(level - v) < abs(cubeLevels[best] - v) { best = i }
            return best
        }
        let (ri, gi, bi) = (nearestLevel(target.0), nearestLevel(target.1), nearestLevel(target.2))
        let cube = 16 + 36 * ri + 6 * gi + bi
        let average = (target.0 + target.1 + target.2) / 3
        let greyIndex = max(0, min(23, (average - 8 + 5) / 10))
        let grey = 232 + greyIndex
        let cubeDistance = distance(paletteRGB(UInt8(cube)), target)
        let greyDistance = distance(paletteRGB(UInt8(grey)), target)
        return UInt8(greyDistance < cubeDistance ? grey : cube)
    }

    /// Nearest of the 16 basic colours by xterm's default RGB values.
    public static func nearestANSI(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (i, rgb) in ansiRGB.enumerated() {
            let d = distance(rgb, (r, g, b))
            if d < bestDistance { best = i; bestDistance = d }
        }
        return UInt8(best)
    }

    static func nearestANSI(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        nearestANSI(Int(r), Int(g), Int(b))
    }
}
