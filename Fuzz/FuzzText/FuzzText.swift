import ByteInput
import FuzzSupport
import LineLayout
import TextModel

/// libFuzzer target: the text decoder (SGR, OSC 8, overstrike, TAB, controls, invalid UTF-8)
/// and the layout of text documents.
///
/// The first byte picks the tab width (1...8, its low three bits) and the width (1...32, the
/// rest); the rest is the input, decoded as one line and read as a text document. Checked on
/// every input:
/// - the decoded line keeps `StyledLine`'s invariants: its text holds no control character
///   (C0, TAB included, DEL, C1); runs and links are non-empty, sorted, non-overlapping, on
///   scalar boundaries within the text; runs are never plain and adjacent ones differ; link
///   URLs are non-empty and hold no control;
/// - the text is at most a bounded factor of the input (`<FF>` for a byte, a TAB's spaces);
/// - decoding is idempotent on what it shows: the text decodes to itself, unstyled;
/// - as a text document, wrapped and chopped: no row is wider than the width (its spans'
///   widths summed), and the row counts of the background pass equal the rows laid out.
enum FuzzText {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else { return }
        let tabWidth = 1 + Int(first & 7)
        let width = 1 + Int(first >> 3)
        let input = UnsafeBufferPointer(rebasing: bytes.dropFirst())
        let line = TerminalTextDecoder.decode(UnsafeRawBufferPointer(input), tabWidth: tabWidth)
        check(line, inputBytes: input.count, tabWidth: tabWidth)
        let again = TerminalTextDecoder.decode(Array(line.text.utf8), tabWidth: tabWidth)
        if again != StyledLine(text: line.text) { fatalError("the decoded text does not decode to itself: \(again)") }
        layOut(input, tabWidth: tabWidth, width: width, shift: Int(first) % 5)
    }

    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || (v >= 0x7F && v < 0xA0) }

    static func check(_ line: StyledLine, inputBytes: Int, tabWidth: Int) {
        let utf8 = Array(line.text.utf8)
        if line.text.unicodeScalars.contains(where: { isControl($0.value) }) {
            fatalError("a control character in the decoded text: \(line.text.debugDescription)")
        }
        if utf8.count > inputBytes * max(8, tabWidth) { fatalError("\(utf8.count) bytes of text from \(inputBytes)") }
        func onBoundary(_ i: Int) -> Bool { i == utf8.count || (i < utf8.count && utf8[i] & 0xC0 != 0x80) }
        func checkRanges(_ ranges: [Range<Int>], _ what: String) {
            var end = 0
            for r in ranges {
                guard r.lowerBound >= end, !r.isEmpty, r.upperBound <= utf8.count,
                      onBoundary(r.lowerBound), onBoundary(r.upperBound) else {
                    fatalError("\(what) \(r) after \(end) in \(utf8.count) bytes: \(line)")
                }
                end = r.upperBound
            }
        }
        checkRanges(line.runs.map(\.range), "run")
        checkRanges(line.links.map(\.range), "link")
        for (a, b) in zip(line.runs, line.runs.dropFirst()) where a.range.upperBound == b.range.lowerBound && a.attributes == b.attributes {
            fatalError("adjacent runs with the same attributes: \(line)")
        }
        if line.runs.contains(where: { $0.attributes.isPlain }) { fatalError("a plain run: \(line)") }
        if line.links.contains(where: { $0.url.isEmpty || $0.url.unicodeScalars.contains { isControl($0.value) } }) {
            fatalError("a link URL empty or with a control: \(line.links)")
        }
    }

    /// The input as a text document at `width`, wrapped and chopped (shifted by `shift`).
    static func layOut(_ input: UnsafeBufferPointer<UInt8>, tabWidth: Int, width: Int, shift: Int) {
        let store = ByteStore()
        store.append(UnsafeRawBufferPointer(input))
        let content = TextContent.whole(store, tabWidth: tabWidth)
        let units = content.unitRange
        for options in [LayoutOptions(width: width), LayoutOptions(width: width, chopLongLines: true, horizontalShift: shift)] {
            let counts = content.rowCounts(of: units, options: options)
            for u in units {
                let rows = content.layout(unit: u, options: options).lines
                if rows.count != counts[u.index] { fatalError("line \(u): \(rows.count) rows laid out, \(counts[u.index]) counted") }
                for row in rows where row.width > width || row.spans.reduce(0, { $0 + $1.width }) > width {
                    fatalError("line \(u): a row of \(row.spans.reduce(0) { $0 + $1.width }) columns at width \(width)"
                               + " (chopped: \(options.chopLongLines), shift \(options.horizontalShift)): \(row.spans.map(\.text))")
                }
            }
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzText.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzTextMain {
    /// Without libFuzzer: runs the files given (a corpus) through the target once each.
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzText.run($0) }
    }
}
#endif
