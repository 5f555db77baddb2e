import CellWidth
import Styling

/// Decodes one line of terminal text — what programs write for `less -R` — into visible text,
/// style runs and hyperlinks. Pure: bytes in, a `StyledLine` out.
///
/// Each line starts in the default style, with no link open (as `less -R` does): a style or a
/// link left open at the end of a line ends there.
///
/// What is understood (and removed from the text):
/// - **SGR** `ESC [ params m` with params made only of digits, `;` and `:` (see `SGR.apply`):
///   0 reset; 1 bold, 2 dim, 3 italic, 4 underline (`4:0` off, `4:1`…`4:5` on), 7 reverse,
///   9 strikethrough; 22 (bold and dim off), 23, 24, 27, 29; 30–37, 90–97, 39 foreground;
///   40–47, 100–107, 49 background; `38;5;n`, `38;2;r;g;b` and the colon forms `38:5:n`,
///   `38:2:r:g:b`, `38:2:cs:r:g:b` (and 48 likewise); 58 (underline colour) is read and ignored.
///   Other numbers (blink, conceal, fonts…) are ignored; the sequence is still removed.
/// - **Erase to end of line** `ESC [ K` and `ESC [ 0 K`, which `grep --color` and gcc write after
///   each coloured stretch, are dropped: on a line drawn afresh they erase nothing.
/// - **OSC 8 hyperlinks** `ESC ] 8 ; params ; URL ST`, ST being `ESC \` or BEL: the text up to
///   the next OSC 8 (an empty URL closes) or the end of the line becomes a `TextLink`.
/// - **Backspace overstrike**, as `nroff`/`man` write it: `c BS c` bold, `_ BS c` and `c BS _`
///   underline, `_ BS c BS c` both; `_ BS _` takes the bold/underline of the character before it
///   (bold if none); any other `a BS b` shows `b` (so the bullet `+ BS o` is `o`). A wide
///   character may be overstruck after one or two backspaces.
/// - **TAB** expands with spaces to the next multiple of `tabWidth` columns, counting terminal
///   cells (`CellWidth`) from the start of the line.
///
/// Everything else that could move the cursor or change the terminal is shown, never passed on
/// (as `less -R` does for everything but colours and OSC 8), in `controlAttributes`:
/// - ESC that does not start one of the sequences above (other CSI such as `ESC [ 2 J`, other OSC
///   such as a window title, an unterminated or malformed sequence) becomes `^[`; the bytes after
///   it are decoded as ordinary text, so `ESC [ 2 J` shows as `^[[2J` and `ESC ] 0 ; t BEL` as
///   `^[]0;t^G`.
/// - Other C0 controls in caret notation (`^@`…`^_`, a CR inside the line `^M`, a lone
///   backspace `^H`), DEL as `^?`.
/// - C1 controls (U+0080…U+009F) as `<U+0085>`.
/// - Bytes that are not well-formed UTF-8 as `<XX>` (hex of the byte), one per byte, as less does.
///
/// So `text` never holds a control character, and searching it matches what is shown.
public enum TerminalTextDecoder {
    /// The attributes given to visible renderings of controls (`^[`, `<U+0085>`, `<FF>`), so they
    /// are told apart from literal text.
    public static let controlAttributes = TextAttributes(reverse: true)

    /// Decodes one line: its bytes without the LF (and without a CR before it; see
    /// `LineEnds.contentEnd`). `tabWidth` is clamped to at least 1.
    public static func decode(_ line: some Collection<UInt8>, tabWidth: Int = 8) -> StyledLine {
        if let raw = line as? UnsafeRawBufferPointer {
            return decode(buffer: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                      count: raw.count), tabWidth: tabWidth)
        }
        if let decoded = line.withContiguousStorageIfAvailable({ decode(buffer: $0, tabWidth: tabWidth) }) {
            return decoded
        }
        return Array(line).withUnsafeBufferPointer { decode(buffer: $0, tabWidth: tabWidth) }
    }

    static func decode(buffer: UnsafeBufferPointer<UInt8>, tabWidth: Int) -> StyledLine {
        // Fast paths: printable ASCII, or well-formed UTF-8 without any control, is its own text.
        if UTF8Scan.isPrintableASCII(buffer) || UTF8Scan.plainRun(in: buffer, from: 0) == buffer.count {
            return StyledLine(text: String(decoding: buffer, as: UTF8.self))
        }
        var decoder = LineDecoder(input: buffer, tabWidth: max(1, tabWidth))
        decoder.run()
        return decoder.finish()
    }
}

/// The slow path's state while one line is decoded.
struct LineDecoder {
    let input: UnsafeBufferPointer<UInt8>
    let tabWidth: Int

    var out: [UInt8] = []
    var runs: [StyledRun] = []
    var links: [TextLink] = []
    /// The SGR state: what literal text gets.
    var attributes = TextAttributes.plain
    var linkURL: String?
    var linkStart = 0

    /// The last literal scalar appended (where a backspace can overstrike it), nil right after
    /// anything else (a sequence, a tab, a control shown visibly).
    var last: (start: Int, scalar: Unicode.Scalar, attributes: TextAttributes)?

    /// Tab stops: the text from `segmentStart` on is measured when a TAB comes; `segmentColumn`
    /// is the column where it starts.
    var segmentStart = 0
    var segmentColumn = 0

    init(input: UnsafeBufferPointer<UInt8>, tabWidth: Int) {
        self.input = input
        self.tabWidth = tabWidth
        out.reserveCapacity(input.count + 16)
    }

    mutating func run() {
        var i = 0
        let n = input.count
        while i < n {
            let b = input[i]
            switch b {
            case 0x20..<0x7F, 0x80...0xFF:
                let plain = UTF8Scan.plainRun(in: input, from: i)
                if plain == 0 {
                    i += appendUndecodable(at: i)
                } else {
                    appendLiteral(i..<(i + plain))
                    i += plain
                }
            case 0x1B:
                i = escape(at: i)
            case 0x08:
                i = backspaces(at: i)
            case 0x09:
                tab()
                i += 1
            default:
                appendCaret(b)
                i += 1
            }
        }
    }

    mutating func finish() -> StyledLine {
        closeLink()
        return StyledLine(text: String(decoding: out, as: UTF8.self), runs: runs, links: links)
    }

    // MARK: Appending

    mutating func addRun(_ range: Range<Int>, _ attributes: TextAttributes) {
        guard !attributes.isPlain, !range.isEmpty else { return }
        if let previous = runs.last, previous.range.upperBound == range.lowerBound, previous.attributes == attributes {
            runs[runs.count - 1].range = previous.range.lowerBound..<range.upperBound
        } else {
            runs.append(StyledRun(range: range, attributes: attributes))
        }
    }

    /// Appends well-formed, control-free input bytes as literal text in the current style.
    mutating func appendLiteral(_ range: Range<Int>) {
        let start = out.count
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[range]))
        addRun(start..<out.count, attributes)
        // The last scalar of the stretch is what a following backspace overstrikes.
        var k = range.upperBound - 1
        while k > range.lowerBound && input[k] & 0xC0 == 0x80 { k -= 1 }
        let (scalar, _) = UTF8Scan.scalar(in: input, at: k)!
        last = (start + (k - range.lowerBound), scalar, attributes)
    }

    mutating func appendScalar(_ scalar: Unicode.Scalar, _ attributes: TextAttributes) {
        let start = out.count
        out.append(contentsOf: UTF8.encode(scalar)!)
        addRun(start..<out.count, attributes)
        last = (start, scalar, attributes)
    }

    /// Appends a C0 control or DEL in caret notation (`^A`, `^?`).
    mutating func appendCaret(_ b: UInt8) {
        let start = out.count
        out.append(UInt8(ascii: "^"))
        out.append(b == 0x7F ? UInt8(ascii: "?") : b + 0x40)
        addRun(start..<out.count, TerminalTextDecoder.controlAttributes)
        last = nil
    }

    /// Appends the visible form of a control (ASCII) in `controlAttributes`.
    mutating func appendControl(_ visible: String) {
        let start = out.count
        out.append(contentsOf: visible.utf8)
        addRun(start..<out.count, TerminalTextDecoder.controlAttributes)
        last = nil
    }

    /// A byte that starts no well-formed, printable scalar: a C1 control or invalid UTF-8.
    /// Returns the bytes consumed.
    mutating func appendUndecodable(at i: Int) -> Int {
        if let (scalar, length) = UTF8Scan.scalar(in: input, at: i) {
            // Well-formed but a control: C1 (C0 and DEL never get here).
            appendControl("<U+" + hex(scalar.value, digits: 4) + ">")
            return length
        }
        appendControl("<" + hex(UInt32(input[i]), digits: 2) + ">")
        return 1
    }

    func hex(_ value: UInt32, digits: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    /// Removes output from byte `count` on (runs clipped), to rewrite an overstruck character.
    mutating func truncate(to count: Int) {
        out.removeSubrange(count...)
        while let previous = runs.last, previous.range.lowerBound >= count { runs.removeLast() }
        if let previous = runs.last, previous.range.upperBound > count {
            runs[runs.count - 1].range = previous.range.lowerBound..<count
        }
    }

    // MARK: Tabs

    mutating func tab() {
        let column = segmentColumn + CellWidth.of(String(decoding: out[segmentStart...], as: UTF8.self))
        let spaces = tabWidth - column % tabWidth
        let start = out.count
        out.append(contentsOf: repeatElement(0x20, count: spaces))
        addRun(start..<out.count, attributes)
        segmentStart = out.count
        segmentColumn = column + spaces
        last = nil
    }

    // MARK: Overstrike

    /// A run of backspaces at `i`. With a literal character before it and a printable one after
    /// it, and as many backspaces as the first one is wide (or one), it overstrikes; otherwise
    /// each backspace shows as `^H`. Returns the next input index.
    mutating func backspaces(at i: Int) -> Int {
        var j = i
        while j < input.count && input[j] == 0x08 { j += 1 }
        let count = j - i
        if let previous = last, j < input.count,
           let (next, length) = UTF8Scan.scalar(in: input, at: j), !UTF8Scan.isControl(next.value),
           count == 1 || count == CellWidth.of(previous.scalar) {
            overstrike(previous, with: next)
            return j + length
        }
        for _ in 0..<count { appendCaret(0x08) }
        return j
    }

    mutating func overstrike(_ previous: (start: Int, scalar: Unicode.Scalar, attributes: TextAttributes),
                             with next: Unicode.Scalar) {
        let underscore: Unicode.Scalar = "_"
        var shown = next
        var style = previous.attributes
        if previous.scalar == next {
            if next == underscore {
                // Ambiguous: a bold underscore, or an underlined one. Follow the character before.
                let before = previous.start > 0 ? attributes(at: previous.start - 1) : .plain
                if before.underline || before.bold {
                    style.underline = style.underline || before.underline
                    style.bold = style.bold || before.bold
                } else {
                    style.bold = true
                }
            } else {
                style.bold = true
            }
        } else if previous.scalar == underscore {
            style.underline = true
        } else if next == underscore {
            shown = previous.scalar
            style.underline = true
        }
        truncate(to: previous.start)
        appendScalar(shown, style)
    }

    func attributes(at offset: Int) -> TextAttributes {
        for run in runs.reversed() {
            if run.range.contains(offset) { return run.attributes }
            if run.range.upperBound <= offset { break }
        }
        return .plain
    }
}
