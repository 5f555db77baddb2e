import TerminalScreen

// The palettes folio ships. Each entry: the truecolour value (the 256-colour terminal takes
// the nearest cube or grey entry) and the basic colour for 16-colour terminals.

extension Palette {
    /// For dark backgrounds: light mid-tones (xterm-cube values, so 256 colours show them
    /// exactly); 16 colours use the bright variants, never black or blue.
    public static let dark: Palette = {
        let orange = Ink(0xffaf5f, ansi: 11), blue = Ink(0x5fafff, ansi: 12), green = Ink(0x87d787, ansi: 10)
        let violet = Ink(0xd7afff, ansi: 13), grey = Ink(0x949494, ansi: 8), dimGrey = Ink(0x767676, ansi: 8)
        let cyan = Ink(0x5fd7d7, ansi: 14), red = Ink(0xff5f5f, ansi: 9), purple = Ink(0xd787ff, ansi: 13)
        return Palette(name: "dark", appearance: .dark, paints: [
            .heading1: Paint(orange, bold: true),
            .heading2: Paint(blue, bold: true),
            .heading3: Paint(green, bold: true),
            .heading4: Paint(violet, bold: true),
            .codeBlock: Paint(Ink(0xafd7ff, ansi: 6)),
            .codeLabel: Paint(grey, italic: true),
            .continuation: Paint(grey),
            .inlineCode: Paint(Ink(0xffaf87, ansi: 9)),
            .quoteBar: Paint(dimGrey),
            .listMarker: Paint(orange),
            .taskDone: Paint(green, bold: true),
            .taskOpen: Paint(grey),
            .rule: Paint(dimGrey),
            .tableBorder: Paint(dimGrey),
            .tableHeader: Paint(bold: true),
            .html: Paint(grey, dim: true),
            .url: Paint(grey),
            .image: Paint(Ink(0xd787d7, ansi: 5), italic: true),
            .link: Paint(blue),
            .summary: Paint(bold: true),
            .frontMatter: Paint(grey, dim: true),
            // GitHub's dark alert colours.
            .alertNote: Paint(Ink(0x4493f8, ansi: 12)),
            .alertTip: Paint(Ink(0x3fb950, ansi: 10)),
            .alertImportant: Paint(Ink(0xab7df8, ansi: 13)),
            .alertWarning: Paint(Ink(0xd29922, ansi: 3)),
            .alertCaution: Paint(Ink(0xf85149, ansi: 9)),
            .match: Paint(Ink(0xffffff, ansi: 15), background: Ink(0x5f5f00, ansi: 3)),
            .currentMatch: Paint(Ink(0x000000, ansi: 0), background: Ink(0xffd700, ansi: 11), bold: true),
            .selection: Paint(reverse: true),
            .statusLine: Paint(reverse: true),
            .message: Paint(bold: true, reverse: true),
            .lineNumber: Paint(Ink(0x6c6c6c, ansi: 8)),
            .changeCue: Paint(Ink(0xd7af00, ansi: 3), bold: true),
            .scrollTrack: Paint(Ink(0x585858, ansi: 8)),
            .scrollThumb: Paint(Ink(0xc6c6c6, ansi: 7)),
        ], syntax: [
            .keyword: Paint(purple), .label: Paint(purple),
            .string: Paint(green), .inserted: Paint(green),
            .escape: Paint(orange), .number: Paint(orange), .constant: Paint(orange),
            .comment: Paint(Ink(0x8a8a8a, ansi: 8)),
            .type: Paint(cyan), .tag: Paint(cyan),
            .function: Paint(blue), .builtin: Paint(blue), .meta: Paint(blue), .heading: Paint(blue),
            .deleted: Paint(red),
        ])
    }()

    /// For light backgrounds: dark, saturated tones (contrast ≥ 4.5 on white for text);
    /// 16 colours use the normal variants, never yellow, white or the bright green and cyan.
    public static let light: Palette = {
        let brown = Ink(0xaf5f00, ansi: 1), blue = Ink(0x005fd7, ansi: 4), green = Ink(0x008700, ansi: 2)
        let violet = Ink(0x8700af, ansi: 5), grey = Ink(0x6c6c6c, ansi: 8), lightGrey = Ink(0x9e9e9e, ansi: 8)
        let teal = Ink(0x005f5f, ansi: 6), red = Ink(0xaf0000, ansi: 1), purple = Ink(0x8700af, ansi: 5)
        let navy = Ink(0x00005f, ansi: 4)
        return Palette(name: "light", appearance: .light, paints: [
            .heading1: Paint(brown, bold: true),
            .heading2: Paint(blue, bold: true),
            .heading3: Paint(green, bold: true),
            .heading4: Paint(violet, bold: true),
            .codeBlock: Paint(Ink(0x005f87, ansi: 6)),
            .codeLabel: Paint(grey, italic: true),
            .continuation: Paint(grey),
            .inlineCode: Paint(Ink(0xaf005f, ansi: 5)),
            .quoteBar: Paint(lightGrey),
            .listMarker: Paint(brown),
            .taskDone: Paint(green, bold: true),
            .taskOpen: Paint(grey),
            .rule: Paint(lightGrey),
            .tableBorder: Paint(lightGrey),
            .tableHeader: Paint(bold: true),
            .html: Paint(grey, dim: true),
            .url: Paint(grey),
            .image: Paint(Ink(0x870087, ansi: 5), italic: true),
            .link: Paint(blue),
            .summary: Paint(bold: true),
            .frontMatter: Paint(grey, dim: true),
            // GitHub's light alert colours.
            .alertNote: Paint(Ink(0x0969da, ansi: 4)),
            .alertTip: Paint(Ink(0x1a7f37, ansi: 2)),
            .alertImportant: Paint(Ink(0x8250df, ansi: 5)),
            .alertWarning: Paint(Ink(0x9a6700, ansi: 1)),
            .alertCaution: Paint(Ink(0xd1242f, ansi: 9)),
            .match: Paint(Ink(0x000000, ansi: 0), background: Ink(0xffff87, ansi: 11)),
            .currentMatch: Paint(Ink(0x000000, ansi: 15), background: Ink(0xffaf00, ansi: 1), bold: true),
            .selection: Paint(reverse: true),
            .statusLine: Paint(reverse: true),
            .message: Paint(bold: true, reverse: true),
            .lineNumber: Paint(Ink(0x8a8a8a, ansi: 8)),
            .changeCue: Paint(Ink(0xaf5f00, ansi: 5), bold: true),
            .scrollTrack: Paint(Ink(0xa8a8a8, ansi: 8)),
            .scrollThumb: Paint(Ink(0x4e4e4e, ansi: 0)),
        ], syntax: [
            .keyword: Paint(red), .label: Paint(purple),
            .string: Paint(navy), .inserted: Paint(green),
            .escape: Paint(brown), .number: Paint(blue), .constant: Paint(blue),
            .comment: Paint(Ink(0x6c6c6c, ansi: 8)),
            .type: Paint(teal), .tag: Paint(green),
            .function: Paint(violet), .builtin: Paint(blue), .meta: Paint(blue), .heading: Paint(blue),
            .deleted: Paint(red),
        ])
    }()

    /// No colour (`--color=never`, `NO_COLOR`, `TERM=dumb`): structure through attributes only —
    /// headings bold (level 1 also underlined), quotes and borders dim, matches and the status
    /// line reversed.
    public static let monochrome = Palette(name: "monochrome", appearance: .dark, paints: [
        .heading1: Paint(bold: true, underline: true),
        .heading2: Paint(bold: true), .heading3: Paint(bold: true), .heading4: Paint(bold: true),
        .codeLabel: Paint(italic: true),
        .continuation: Paint(dim: true),
        .quoteBar: Paint(dim: true),
        .listMarker: Paint(bold: true),
        .taskDone: Paint(bold: true),
        .rule: Paint(dim: true), .tableBorder: Paint(dim: true),
        .tableHeader: Paint(bold: true),
        .html: Paint(dim: true), .url: Paint(dim: true),
        .image: Paint(italic: true),
        .summary: Paint(bold: true),
        .frontMatter: Paint(dim: true),
        .alertNote: Paint(bold: true), .alertTip: Paint(bold: true), .alertImportant: Paint(bold: true),
        .alertWarning: Paint(bold: true), .alertCaution: Paint(bold: true),
        .match: Paint(reverse: true),
        .currentMatch: Paint(bold: true, underline: true, reverse: true),
        .selection: Paint(reverse: true),
        .statusLine: Paint(reverse: true),
        .message: Paint(bold: true, reverse: true),
        .lineNumber: Paint(dim: true),
        .changeCue: Paint(bold: true),
        .scrollTrack: Paint(dim: true),
        .scrollThumb: Paint(reverse: true),
    ], syntax: [:])
}
