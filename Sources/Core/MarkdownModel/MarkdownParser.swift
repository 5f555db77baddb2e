/// Parses Markdown (CommonMark via libcmark, plus GitHub's pipe tables, task list items,
/// strikethrough and bare autolinks) into a `Document`.
///
/// Total: every byte sequence parses. Invalid UTF-8 and NUL become U+FFFD. Parsing and every
/// pass over the result are iterative, so nesting depth is bounded by memory, not the stack.
///
/// One entry point, `parse(handingOver:options:)`, and two conveniences over it. A large
/// source is parsed in pieces on all cores (`Pieces/`: `ChunkPlan`), else whole; either way
/// the document is the same, and the report says which and why.
public enum MarkdownParser {
    /// Sources of at least this size are parsed in pieces on all cores when `ChunkPlan` can
    /// cut them; the result is the same `Document` (tested), ids and lines included.
    public static let piecewiseBytes = 1 << 20
    /// Target size of one piece: small enough to spread over the cores, large enough that the
    /// per-piece cost (parser set-up, the link definitions parsed in front) stays negligible.
    public static let pieceBytes = 256 << 10

    /// What a parse gives: the document, and whether it was parsed in pieces and, if not, why.
    public typealias Parsed = (document: Document, report: PieceReport)

    /// The parse behind every other: in pieces when `options.inPieces`, the source is large
    /// enough and `ChunkPlan` can cut it, else whole, with the report of which and why.
    ///
    /// The caller hands its bytes over (`bytes` is left empty): a large source's bytes are
    /// let go as soon as its pieces are parsed, before they are joined (the footnote pass
    /// keeps only the lines it reads), so the source, the pieces and the joined document are
    /// never held at once (20 MB of a 20 MB changelog's peak). The caller lets go of every
    /// other reference to them first, or nothing is saved. `options.giveBack` and
    /// `options.keeper` let go of more (`ParseOptions`).
    public static func parse(handingOver bytes: inout [UInt8], options: ParseOptions = ParseOptions()) -> Parsed {
        defer { bytes = [] }
        let reason: PieceReport.Reason
        if !options.inPieces {
            reason = .notAsked
        } else if bytes.count < piecewiseBytes {
            reason = .small
        } else {
            switch ChunkPlan.make(bytes, targetBytes: pieceBytes) {
            case .failure(let refusal):
                reason = refusal
            case .success(let plan):
                switch plan.document(handingOver: &bytes, options: options) {
                case .success(let parsed):
                    return (parsed.document, PieceReport(pieces: parsed.pieces, healed: parsed.healed))
                case .failure(let refusal):
                    reason = refusal
                }
            }
        }
        return (parseWhole(bytes, packed: options.packed), PieceReport(whole: reason))
    }

    /// `parse(handingOver:options:)` for a caller that keeps its bytes. They are shared, not
    /// copied, unless `options.keeper` is given: then the parse makes a copy of its own
    /// (whose pages it gives back as the pieces are done) while the caller's stay held, so
    /// a caller that wants the memory saved hands its bytes over instead.
    public static func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> Parsed {
        var bytes = bytes
        return parse(handingOver: &bytes, options: options)
    }

    /// The document of a Markdown text, the same as `parse(_:options:)` gives with the
    /// default options: for texts a caller holds as strings (the help page, a footnote's
    /// continuation, tests), which have no use for the report.
    public static func parse(_ text: String) -> Document { parse(Array(text.utf8)).document }

    /// One parse of the whole source.
    private static func parseWhole(_ bytes: [UInt8], packed: Bool) -> Document {
        var builder: DocumentBuilder
        if let frontMatter = FrontMatter.detect(bytes) {
            let source = SourceText(Array(bytes[frontMatter.byteCount...]))
            let lineCount = frontMatter.lineCount + source.lineCount
            builder = DocumentBuilder(source: source, raw: CmarkBridge.parseBlocks(source.bytes), lineOffset: frontMatter.lineCount,
                                      sourceLineCount: lineCount, frontMatter: frontMatter, packed: packed)
        } else {
            let source = SourceText(bytes)
            builder = DocumentBuilder(source: source, raw: CmarkBridge.parseBlocks(source.bytes), packed: packed)
        }
        return Footnotes.apply(builder.build(), source: builder.source, lineOffset: builder.lineOffset)
    }
}
