import ByteInput
import LessOptions
import LineLayout
import MarkdownModel
import Pager
import Print
import TerminalIO
import TerminalScreen
import TextModel
#if canImport(Glibc)
import Glibc
#endif

/// Print mode for text: into a pipe or a file the bytes go out as they are (as less and cat
/// do); with `--plain` there, each line as the pager shows its text, unwrapped (styles and
/// links dropped, every other control made visible: `--plain` writes no escape sequence, and
/// one passed through from the input is one too); to a terminal, or with `--width` or colour,
/// as the pager shows the lines (wrapped, controls made visible). Either way the input streams
/// through in batches of whole lines (what each read brought, or a file's 1 MB windows), so an
/// endless or huge input is never held and a slow pipe's lines come out as they arrive. A line
/// longer than `batchBytes` is cut at a character boundary there: its wrapping restarts at the
/// cut, and a sequence cut in two there shows as text.
struct TextPrinter {
    enum Form: Equatable {
        /// The input's bytes.
        case raw
        /// Each line's decoded text (`TerminalTextDecoder`), then LF.
        case decoded
        /// Rows as the pager lays them out at `options.width`.
        case laidOut
    }

    let form: Form
    let options: LayoutOptions
    let theme: Theme?
    let tabWidth: Int
    static let batchBytes = 1 << 20

    /// Into a pipe or file without `--width` or colour the bytes go through, or with `--plain`
    /// their decoded lines; anything else is laid out.
    static func form(stdoutIsTerminal: Bool, width: Int?, colour: Bool, plain: Bool) -> Form {
        guard !stdoutIsTerminal, width == nil, !colour else { return .laidOut }
        return plain ? .decoded : .raw
    }

    /// Returns false when the reader of the output went away (stop quietly).
    func print(store: ByteStore, reader: StreamReader?, name: String) -> Bool {
        var pending: [UInt8] = []
        var ok = true
        var at = 0
        while ok && at < store.count {
            let end = min(store.count, at + TextPrinter.batchBytes)
            store.forEachPiece(in: at..<end) { piece, _ in ok = take(piece, into: &pending); return ok }
            at = end
        }
        guard ok else { return false }
        if let reader {
            let error = reader.forward { chunk in ok = take(chunk, into: &pending); return ok }
            guard ok else { return false }
            if let error { reportError("\(name): \(error)") }
        }
        return pending.isEmpty || emit(pending[...])
    }

    /// Adds bytes; writes out what is ready (everything when raw, whole lines otherwise).
    private func take(_ bytes: UnsafeRawBufferPointer, into pending: inout [UInt8]) -> Bool {
        if form == .raw { return writeAll(fd: 1, bytes) }
        pending.append(contentsOf: bytes)
        var cut = (pending.lastIndex(of: 0x0A) ?? -1) + 1
        if cut == 0 {
            guard pending.count >= TextPrinter.batchBytes else { return true }
            // One line longer than a batch: cut before a UTF-8 continuation byte run.
            cut = pending.count
            while cut > pending.count - 4, cut > 1, pending[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
            if cut > 1, pending[cut - 1] >= 0xC0 { cut -= 1 }
        }
        let ok = emit(pending[0..<cut], lineGoesOn: pending[cut - 1] != 0x0A)
        pending.removeFirst(cut)
        return ok
    }

    /// Writes whole lines (the last one without its LF at the end of input, or cut at
    /// `batchBytes` when `lineGoesOn`).
    private func emit(_ lines: ArraySlice<UInt8>, lineGoesOn: Bool = false) -> Bool {
        if form == .decoded { return writeAll(fd: 1, Self.decodedLines(lines, tabWidth: tabWidth, lineGoesOn: lineGoesOn)) }
        let store = ByteStore()
        lines.withUnsafeBytes { store.append($0) }
        let content = TextContent.whole(store, tabWidth: tabWidth)
        return writeAll(fd: 1, PrintRenderer.render(DocumentLayout(content: content, options: options), theme: theme))
    }

    /// Each line of `lines` as its decoded text and LF (the line end's CR dropped, as the pager
    /// does); the last line gets no LF when it goes on in the next batch.
    static func decodedLines(_ lines: ArraySlice<UInt8>, tabWidth: Int, lineGoesOn: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lines.count + 64)
        var start = lines.startIndex
        while start < lines.endIndex {
            let newline = lines[start...].firstIndex(of: 0x0A)
            let end = newline ?? lines.endIndex
            let line = lines[start..<end]
            var text = TerminalTextDecoder.decode(newline == nil && lineGoesOn ? line : line[..<LineEnds.contentEnd(of: line)],
                                                  tabWidth: tabWidth).text
            text.withUTF8 { out.append(contentsOf: $0) }
            if newline != nil || !lineGoesOn { out.append(0x0A) }
            start = newline.map { $0 + 1 } ?? lines.endIndex
        }
        return out
    }
}
