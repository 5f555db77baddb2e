import Testing
@testable import TerminalScreen

@Suite struct GridTests {
    @Test func putReturnsNextColumnAndClips() {
        var grid = Grid(rows: 2, columns: 6)
        #expect(grid.put("abc", row: 0, column: 0) == 3)
        #expect(grid.put("defgh", row: 0, column: 3) == 6)
        #expect(grid.put("xy", row: 1, column: -1) == 1)
        #expect(grid.put("nope", row: 5, column: 0) == 0)
        #expect(grid.dump() == """
            abcdef|
            y     |
            """)
    }

    @Test func wideCharacters() {
        var grid = Grid(rows: 3, columns: 5)
        #expect(grid.put("中文x", row: 0, column: 0) == 5)
        #expect(grid[0, 1].isContinuation && grid[0, 1].width == 0 && grid[0, 0].width == 2)
        // A wide character that does not fit in the last column becomes a space.
        #expect(grid.put("ab中文", row: 1, column: 0) == 5)
        #expect(grid.row(1) == "ab中 ")
        // Overwriting half of a wide character blanks the other half.
        grid.put("中文", row: 2, column: 0)
        grid.put("x", row: 2, column: 1)
        #expect(grid.row(2) == " x文 ")
        grid.put("y", row: 2, column: 2)
        #expect(grid.row(2) == " xy  ")
        #expect(grid.dump() == """
            中文x|
            ab中 |
             xy  |
            """)
    }

    /// A cluster terminals draw code point by code point covers as many columns as they add up
    /// to (`स्त्री`: 4, four number signs and a digit: 5), and breaks like a wide character.
    @Test func clustersWiderThanTwo() {
        var grid = Grid(rows: 4, columns: 7)
        #expect(grid.put("aस्त्रीb", row: 0, column: 0) == 6)
        #expect(grid[0, 1].width == 4 && (2...4).allSatisfy { grid[0, $0].isContinuation } && grid[0, 5].text == "b")
        #expect(grid.put("\u{600}\u{600}\u{600}\u{600}1|", row: 1, column: 0) == 6)
        #expect(grid[1, 0].width == 5 && grid[1, 5].text == "|")
        // Overwriting any column of it blanks the rest of it, on both sides.
        grid.put("x", row: 0, column: 3)
        #expect(grid.row(0) == "a  x b ")
        #expect(!grid.cells(row: 0).contains { $0.isContinuation })
        // Overwriting its start with a narrower cell blanks the continuations left over.
        grid.put("中", row: 1, column: 0)
        #expect(grid.row(1) == "中   | ")
        // One that does not fit before the edge: spaces up to it, and writing stops.
        grid.put("abcdefg", row: 2, column: 0)
        #expect(grid.put("abcस्त्री", row: 2, column: 1) == 7)
        #expect(grid.row(2) == "aabc   ")
        // Cut by the left edge: its visible columns are spaces.
        grid.put("abcdefg", row: 3, column: 0)
        #expect(grid.put("स्त्रीxy", row: 3, column: -2) == 4)
        #expect(grid.row(3) == "  xyefg")
        #expect(grid.dump() == """
            a  x b |
            中   | |
            aabc   |
              xyefg|
            """)
    }

    @Test func controlCharactersNeverReachACell() {
        var grid = Grid(rows: 1, columns: 12)
        grid.put("a\u{1B}[31m\r\n\u{7F}\u{85}b", row: 0, column: 0)
        #expect(grid.row(0) == "a^[[31m^M^J^")
        var wide = Grid(rows: 1, columns: 20)
        wide.put("a\u{1B}b\u{7F}\u{9B}\t", row: 0, column: 0)
        #expect(wide.row(0).hasPrefix("a^[b^?\u{FFFD}^I"))
        for cell in wide.cells {
            #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(Cell("\u{1B}").text == "\u{FFFD}")
    }

    @Test func zeroWidthClustersAreDropped() {
        var grid = Grid(rows: 1, columns: 4)
        #expect(grid.put("\u{301}a\u{200B}b", row: 0, column: 0) == 2)
        #expect(grid.row(0) == "ab  ")
    }

    @Test func fillAndStyledDump() {
        var grid = Grid(rows: 2, columns: 6)
        grid.fill(rows: 1..<2, style: CellStyle(reverse: true))
        grid.put("hi", style: CellStyle(foreground: .ansi(1), bold: true), row: 0, column: 2)
        grid.fill(rows: 0..<1, columns: 5..<6, with: "中")  // does not fit: a space
        #expect(grid.dump(styles: true) == """
              hi  |
              2..<4 bold fg=1
                  |
              0..<6 reverse
            """)
    }

    @Test func scrollMovesRowsAndBlanksTheRest() {
        var grid = Grid(lines: ["a", "b", "c", "d"], columns: 1)
        grid.scroll(region: 1..<4, by: 1)
        #expect(grid.dump() == "a|\nc|\nd|\n |")
        grid.scroll(region: 0..<4, by: -2)
        #expect(grid.dump() == " |\n |\na|\nc|")
    }
}

@Suite struct ColorTests {
    @Test func downgrades() {
        #expect(TerminalColor.rgb(255, 0, 0).downgraded(to: .palette256) == .palette(196))
        #expect(TerminalColor.rgb(128, 128, 128).downgraded(to: .palette256) == .palette(244))
        #expect(TerminalColor.rgb(255, 0, 0).downgraded(to: .ansi16) == .ansi(9))
        #expect(TerminalColor.rgb(0, 0, 0).downgraded(to: .ansi16) == .ansi(0))
        #expect(TerminalColor.palette(196).downgraded(to: .ansi16) == .ansi(9))
        #expect(TerminalColor.palette(3).downgraded(to: .ansi16) == .ansi(3))
        #expect(TerminalColor.rgb(1, 2, 3).downgraded(to: .trueColor) == .rgb(1, 2, 3))
        #expect(TerminalColor.ansi(4).downgraded(to: .none) == .default)
        #expect(TerminalColor.default.downgraded(to: .ansi16) == .default)
    }

    /// Every palette entry's own RGB maps back to an entry with the same RGB.
    @Test func paletteRGBIsAFixedPoint() {
        for n in 16...255 {
            let (r, g, b) = TerminalColor.paletteRGB(UInt8(n))
            let back = TerminalColor.nearestPalette(UInt8(r), UInt8(g), UInt8(b))
            #expect(TerminalColor.paletteRGB(back) == (r, g, b) || back == UInt8(n), "\(n)")
        }
    }

    @Test func sgrIsMinimal() {
        func sgr(_ a: CellStyle, _ b: CellStyle) -> String { String(decoding: ANSI.sgr(from: a, to: b), as: UTF8.self) }
        #expect(sgr(.plain, .plain) == "")
        #expect(sgr(.plain, CellStyle(bold: true)) == "\u{1B}[1m")
        #expect(sgr(CellStyle(bold: true), .plain) == "\u{1B}[m")
        #expect(sgr(CellStyle(bold: true, dim: true), CellStyle(dim: true)) == "\u{1B}[0;2m")  // shorter than 22;2
        #expect(sgr(CellStyle(foreground: .ansi(1), bold: true, dim: true), CellStyle(foreground: .ansi(1), dim: true)) == "\u{1B}[22;2m")
        #expect(sgr(CellStyle(foreground: .ansi(1)), CellStyle(foreground: .ansi(9))) == "\u{1B}[91m")
        #expect(sgr(.plain, CellStyle(foreground: .rgb(1, 2, 3), background: .palette(7))) == "\u{1B}[38;2;1;2;3;48;5;7m")
        #expect(sgr(CellStyle(hyperlink: "x"), .plain) == "")
    }

    @Test func osc52() {
        #expect(String(decoding: OSC52.copy("hello"), as: UTF8.self) == "\u{1B}]52;c;aGVsbG8=\u{1B}\\")
        #expect(String(decoding: OSC52.base64(Array("".utf8)), as: UTF8.self) == "")
        #expect(String(decoding: OSC52.base64(Array("ab".utf8)), as: UTF8.self) == "YWI=")
        #expect(String(decoding: OSC52.base64(Array("abc".utf8)), as: UTF8.self) == "YWJj")
    }
}
