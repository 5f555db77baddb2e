import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a large Markdown source can be cut into pieces that parse alone exactly as they parse
/// together, so that the pieces can be parsed (and laid out) on several cores.
///
/// CommonMark has almost no long-range state. Cuts go only **before a line at column 0 that
/// follows a blank line and starts with `#` or a letter** (an ATX heading or a paragraph):
/// there, every container, paragraph and indented code block is closed, unless a fenced code
/// block or an HTML block of kind 1–5 (`<pre`, `<!--`, …) is still open. (A list marker or `>`
/// would continue a list or start a block the scan cannot place, so those lines are not cuts.)
/// A fast line scan tracks fences and those HTML blocks and proposes cuts, but it only
/// *proposes*: `parse(_:of:)` (`PieceParse.swift`) parses each piece together with the line
/// that follows it and accepts the cut only if that line came out as the start of a top-level
/// heading or paragraph, which proves the parser's state was fully closed there. A refused
/// cut is healed by parsing the two pieces as one (`Chunk.joined(with:)`), so a wrong
/// proposal costs time, never output.
///
/// The one global state is the table of link reference definitions. Every line that looks like
/// a whole one-line definition at paragraph start (`[label]: destination "title"`) is copied
/// into `definitions`, whose entries a piece may use are parsed in front of it (first definition wins, as in
/// one parse). Each piece then checks that exactly those lines of it were consumed as
/// definitions (they belong to no block) and that no other line was. A `]:` line right after
/// a non-blank line is most likely text that continues a paragraph (`  [^x]: url` inside a
/// list item, where no check by lines can see it): its label is *probed*, looked up as
/// `[label]` in a paragraph of its own after the piece, and the piece is refused (the source
/// parsed whole) if it resolves, which it does exactly when the line was consumed as a
/// definition (a label also proposed as a definition, or one with bytes that could start
/// other inline syntax, is not probed). A `]:` anywhere else (at the start of a block quote
/// or list item, a label over several lines) makes the source unsplittable, as does a
/// definition line that does not end the definition (`[a]:` with the destination on the next
/// line, a title left open). A lone CR line ending (which the scan does not treat as
/// a line end) does too, and so does front matter (cut off before cmark runs): such sources
/// are parsed whole.
///
/// Footnotes are numbered and gathered over the whole document, but by a pass over the built
/// document (`Footnotes`), not by cmark: a source with footnote definitions is cut like any
/// other, and `hasFootnotes` tells the caller to run that pass on the joined pieces (print
/// mode renders such a source as one document). To cmark, a definition line `[^x]: text`
/// is a link reference definition when it is a whole one (`[^1]: https://x.org`: proposed and
/// checked as above), and paragraph text when words follow its "destination"
/// (`[^1]: The note.`), which no definition can have; any other `[^x]:` line makes the
/// source unsplittable, as other definitions do.
///
/// cmark also stops resolving references once their expanded size (destination and title of
/// each reference it resolved) passes max(input size, 100,000) bytes, a limit each piece
/// would count on its own. So each piece proves, from the links it parsed, that its parse
/// cannot have reached it (`withinReferenceBudget`), or is refused, and the pieces together
/// prove it for the whole source's parse (`wholeWithinReferenceBudget`), or the source is
/// parsed whole.
///
/// A piece is parsed with only the definitions of the labels it brackets
/// (`definitions(for:in:)`), so that pieces stay small however many definitions a source has.
public struct ChunkPlan: Sendable {
    public struct Chunk: Sendable {
        /// The piece's bytes in the source.
        public let bytes: Range<Int>
        /// 1-based source line of the piece's first byte.
        public let firstLine: Int
        /// Number of lines in the piece.
        public let lineCount: Int
        /// The first line of the next piece (a heading or paragraph line, parsed with this piece
        /// to prove the cut).
        public let nextLine: Range<Int>?
        /// Source lines of this piece that hold a proposed link reference definition.
        let definitionLines: [Int]
        /// Source lines of this piece with `]:` that the scan saw inside fenced code or HTML.
        let literalLines: [Int]
        /// `]` bytes in the piece: at most one reference lookup each.
        let closingBrackets: Int
        /// `]` bytes in `nextLine`.
        let nextLineBrackets: Int
        /// Labels of this piece's `]:` lines that continue a paragraph line (see `ChunkPlan`):
        /// the piece's parse proves that none was consumed as a definition.
        let probes: [[UInt8]]

        /// The same piece of a source with `bytes` more bytes and `lines` more lines in front
        /// (front matter, which the scan does not see).
        func shifted(bytes offset: Int, lines: Int) -> Chunk {
            Chunk(bytes: (bytes.lowerBound + offset)..<(bytes.upperBound + offset), firstLine: firstLine + lines,
                  lineCount: lineCount, nextLine: nextLine.map { ($0.lowerBound + offset)..<($0.upperBound + offset) },
                  definitionLines: definitionLines.map { $0 + lines }, literalLines: literalLines.map { $0 + lines },
                  closingBrackets: closingBrackets, nextLineBrackets: nextLineBrackets, probes: probes)
        }

        /// This piece and the one after it as one piece (to heal a refused cut).
        public func joined(with next: Chunk) -> Chunk {
            precondition(bytes.upperBound == next.bytes.lowerBound, "only neighbouring pieces join")
            return Chunk(bytes: bytes.lowerBound..<next.bytes.upperBound, firstLine: firstLine,
                         lineCount: lineCount + next.lineCount, nextLine: next.nextLine,
                         definitionLines: definitionLines + next.definitionLines,
                         literalLines: literalLines + next.literalLines,
                         closingBrackets: closingBrackets + next.closingBrackets,
                         nextLineBrackets: next.nextLineBrackets, probes: probes + next.probes)
        }
    }

    public let chunks: [Chunk]
    /// The source's front matter: not in any piece (the pieces start after it).
    let frontMatter: FrontMatter?
    /// The source has front matter (its block goes in front of the joined pieces).
    public var hasFrontMatter: Bool { frontMatter != nil }
    /// The proposed link reference definitions, each followed by a blank line.
    let definitions: [UInt8]
    /// Lines of `definitions`.
    let definitionLineCount: Int
    /// Where each definition is in `definitions` (with its blank line), in order.
    let definitionRanges: [Range<Int>]
    /// The definitions of each label key (`labelKey`), by index.
    let definitionsOfLabel: [[UInt8]: [Int32]]
    /// The source has a footnote definition line (`[^x]:`): the joined pieces need the
    /// footnote pass that one parse makes (`document(handingOver:options:)` does it).
    public let hasFootnotes: Bool
    /// Bytes of the longest proposed definition (or probed) line: a bound on what one reference
    /// lookup adds to cmark's expansion budget (see `withinReferenceBudget`).
    let longestDefinition: Int
    let sourceByteCount: Int
    /// Lines of the whole source (as `SourceText` counts them).
    public var sourceLineCount: Int { chunks.last.map { $0.firstLine - 1 + $0.lineCount } ?? 0 }

    /// Whether a piece's parse (`parsedBytes` fed to cmark, `expanded` = the bytes of the
    /// destinations and titles of all its links and images) stayed clear of cmark's reference
    /// budget (see the type's comment).
    ///
    /// Every lookup that found a definition made a link or image with that definition's
    /// destination and title and added their length to the budget's count, so `expanded`
    /// bounds the count, and a lookup can fail for the budget only where count + one
    /// definition (at most `longestDefinition`) passes max(bytes parsed, 100,000). The whole
    /// source's budget is checked over all pieces together (`run`, `wholeWithinReferenceBudget`).
    func withinReferenceBudget(_ chunk: Chunk, parsedBytes: Int, expanded: Int) -> Bool {
        guard longestDefinition > 0 else { return true }
        return expanded + longestDefinition <= max(parsedBytes, 100_000)
    }

    /// Whether the whole source's parse stays clear of cmark's reference budget when its
    /// pieces' links expand to `expanded` bytes together: each piece resolved every reference
    /// it looked up (`withinReferenceBudget`), the whole parse looks up the same ones, and
    /// their sizes add up to at most `expanded`, so none can pass max(bytes it parses,
    /// 100,000). (It was a share of the whole's budget for each piece, by its size: pieces
    /// denser in references than the source then refused it for nothing.)
    func wholeWithinReferenceBudget(expanded: Int) -> Bool {
        guard longestDefinition > 0 else { return true }
        return expanded <= max(sourceByteCount - (frontMatter?.byteCount ?? 0), 100_000)
    }

    /// `work` done on every piece, on all cores, refused cuts healed: the values in piece
    /// order, or nil when a piece's definitions disagree (then do the source whole).
    ///
    /// A piece's outcome is right when it starts at the source's start or at a cut the piece
    /// before it accepted. A piece whose cut is refused is joined with the pieces after it (1,
    /// then 2, 4, … more, so a scan that is wrong everywhere still costs O(n)) and done again,
    /// on this thread; the outcomes of the pieces swallowed that way came from an unproven
    /// start and are dropped.
    ///
    /// `settled` is told, as the pieces are done (from their threads, one call at a time),
    /// the source bytes that nothing will read again: the pieces of the longest run from the
    /// start that all came out done (their cuts are proven, so no refused cut is healed over
    /// them). If `run` then gives nil, the caller parses the source whole, from bytes of its
    /// own (`ParseOptions.keeper`).
    public func run<Value>(on executor: Executor, _ work: (Chunk) -> PieceOutcome<Value>,
                           settled: ((Range<Int>) -> Void)? = nil) -> [Value]? {
        try? runReporting(on: executor, work, settled: settled).get().values
    }

    /// `run`, saying why the pieces cannot be used when they cannot, and how many cuts were
    /// refused and healed when they can.
    public func runReporting<Value>(on executor: Executor, _ work: (Chunk) -> PieceOutcome<Value>,
                                    settled: ((Range<Int>) -> Void)? = nil)
        -> Result<(values: [Value], healed: Int), PieceReport.Reason> {
        let outcomes: [PieceOutcome<Value>]
        let chunks = self.chunks
        if let settled {
            let frontier = Frontier(count: chunks.count)
            outcomes = executor.map(count: chunks.count) { k in
                let outcome = work(chunks[k])
                var done = false
                if case .done = outcome { done = true }
                frontier.done(k, done) { range in
                    settled(chunks[range.lowerBound].bytes.lowerBound..<chunks[range.upperBound - 1].bytes.upperBound)
                }
                return outcome
            }
        } else {
            outcomes = executor.map(count: chunks.count) { k in work(chunks[k]) }
        }
        var values: [Value] = []
        values.reserveCapacity(chunks.count)
        var expanded = 0  // the accepted pieces' link bytes
        var healed = 0
        var k = 0
        while k < chunks.count {
            var outcome = outcomes[k]
            var last = k, more = 1
            while case .openAtEnd = outcome, last + 1 < chunks.count {
                last = min(chunks.count - 1, last + more)
                more *= 2
                var chunk = chunks[k]
                for j in (k + 1)...last { chunk = chunk.joined(with: chunks[j]) }
                outcome = work(chunk)
            }
            switch outcome {
            case .done(let value, let bytes):
                values.append(value)
                expanded += bytes
            case .overReferenceBudget: return .failure(.referenceBudget)
            case .definitionsDisagree, .openAtEnd: return .failure(.definitionsDisagree)
            }
            healed += last - k
            k = last + 1
        }
        return wholeWithinReferenceBudget(expanded: expanded) ? .success((values, healed)) : .failure(.referenceBudget)
    }

    /// Which pieces are done, and how far from the start all of them are (`run`'s `settled`).
    private final class Frontier: Sendable {
        private struct State { var outcomes: [Bool?]; var next = 0 }
        private let state: Mutex<State>
        init(count: Int) { state = Mutex(State(outcomes: Array(repeating: nil, count: count))) }
        /// Records piece k (`isDone`: came out done) and hands the pieces newly settled, if
        /// any, to `settled` under the lock (settled runs are dealt with in order, one at a
        /// time).
        func done(_ k: Int, _ isDone: Bool, settled: (Range<Int>) -> Void) {
            state.withLock { state in
                state.outcomes[k] = isDone
                let from = state.next
                while state.next < state.outcomes.count, state.outcomes[state.next] == true { state.next += 1 }
                if state.next > from { settled(from..<state.next) }
            }
        }
    }

    /// A plan with pieces of about `targetBytes` (at least 2 pieces), or nil when the source
    /// has no usable cut or cannot be cut safely.
    public init?(_ source: [UInt8], targetBytes: Int) {
        guard case .success(let plan) = Self.make(source, targetBytes: targetBytes) else { return nil }
        self = plan
    }

    /// A plan, or why the source cannot be cut.
    public static func make(_ source: [UInt8], targetBytes: Int) -> Result<ChunkPlan, PieceReport.Reason> {
        var refusal = PieceReport.Reason.empty
        let plan = ChunkPlan(source, targetBytes: targetBytes, refusal: &refusal)
        return plan.map { .success($0) } ?? .failure(refusal)
    }

    private init?(_ source: [UInt8], targetBytes: Int, refusal: inout PieceReport.Reason) {
        // Front matter is cut off before parsing (`MarkdownParser`): cmark parses what follows
        // it as a document of its own, so the scan and the pieces start after it (and the
        // joined pieces get its block in front, `join`).
        let frontMatter = FrontMatter.detect(source)
        let skipped = frontMatter?.byteCount ?? 0
        guard skipped < source.count,
              var scan = source.withUnsafeBufferPointer({ buffer in
                  LineScan.run(UnsafeBufferPointer(rebasing: buffer[skipped...]), targetBytes: max(1, targetBytes),
                               refusal: &refusal)
              })
        else { return nil }
        if let frontMatter {
            scan.chunks = scan.chunks.map { $0.shifted(bytes: frontMatter.byteCount, lines: frontMatter.lineCount) }
        }
        self.frontMatter = frontMatter
        // Only the definitions a piece may use are parsed in front of it
        // (`definitions(for:in:)`), so pieces stay small however many definitions there are:
        // with all of them in front of every piece, pieces had to grow to keep them an eighth
        // of the work, and a 20 MB changelog's 225 KB of definitions made 1.8 MB pieces, two
        // cmark trees of which in flight were ~25 MB of the pager's peak.
        let chunks = scan.chunks
        guard chunks.count >= 2 else { refusal = .noCut; return nil }
        self.chunks = chunks
        longestDefinition = scan.longestDefinition
        sourceByteCount = source.count
        definitions = scan.definitions
        definitionLineCount = scan.definitionLineCount
        definitionRanges = scan.definitionRanges
        var ofLabel: [[UInt8]: [Int32]] = [:]
        for (k, label) in scan.definitionLabels.enumerated() { ofLabel[label, default: []].append(Int32(k)) }
        definitionsOfLabel = ofLabel
        hasFootnotes = scan.hasFootnotes
    }

    /// The definitions to parse in front of `chunk` of `source`, and their line count: those
    /// whose label key (`labelKey`) is that of a label bracketed somewhere in the piece, its
    /// next line or its probes (a reference can only look up the text between a `[` and the
    /// next unescaped `]` with no `[` between), in the plan's order. Definitions left out
    /// change nothing: no lookup of the piece could find them. `labels`: how many bracketed
    /// labels it found (each is at most one lookup), nil when it gave all the definitions.
    func definitions(for chunk: Chunk, in source: [UInt8]) -> (text: [UInt8], lines: Int, labels: Int?) {
        guard definitionRanges.count > 64 else { return (definitions, definitionLineCount, nil) }
        var wanted = [Bool](repeating: false, count: definitionRanges.count)
        var labels = 0
        func want(_ label: UnsafeBufferPointer<UInt8>) -> Bool {
            labels += 1
            for k in definitionsOfLabel[ChunkPlan.labelKey(label)] ?? [] { wanted[Int(k)] = true }
            // A label over lines inside a block quote: its lines' `>` markers are not part of it.
            if label.contains(0x0A) {
                var stripped: [UInt8] = [], lineStart = false
                for b in label {
                    if b == 0x0A { lineStart = true; stripped.append(b); continue }
                    if lineStart, b == 0x20 || b == 0x09 || b == UInt8(ascii: ">") { continue }
                    lineStart = false
                    stripped.append(b)
                }
                for k in definitionsOfLabel[ChunkPlan.labelKey(stripped)] ?? [] { wanted[Int(k)] = true }
            }
            return true
        }
        source.withUnsafeBufferPointer { buffer in
            ChunkPlan.forEachLabel(in: UnsafeBufferPointer(rebasing: buffer[chunk.bytes]), want)
            if let next = chunk.nextLine { ChunkPlan.forEachLabel(in: UnsafeBufferPointer(rebasing: buffer[next]), want) }
        }
        for label in chunk.probes { label.withUnsafeBufferPointer { _ = want($0) } }
        var text: [UInt8] = []
        var lines = 0
        for k in wanted.indices where wanted[k] {
            text += definitions[definitionRanges[k]]
            lines += 2
        }
        return (text, lines, labels)
    }

    /// A key of a link label such that labels cmark takes for the same one (Unicode case
    /// folding, whitespace runs as one space, trimmed) have the same key: ASCII lowercased,
    /// whitespace runs one space, trimmed; every other character dropped, except the 19 whose
    /// full case folding holds ASCII letters, which give those letters (ß ẞ → ss, K (Kelvin)
    /// → k, ſ → s, ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ, İ → i, ŉ → n, ǰ → j, ẖ ẗ ẘ ẙ ẚ → h t w y a: every code
    /// point of Unicode 14 whose `casefold()` has an ASCII character, listed with Python).
    /// A NUL is dropped too (cmark reads it as U+FFFD). Different labels may share a key:
    /// their definitions are then parsed in front of a piece that did not need them, which
    /// is harmless.
    static func labelKey(_ label: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var space = false
        func append(_ b: UInt8) {
            if space, !out.isEmpty { out.append(0x20) }
            space = false
            out.append(b)
        }
        var scalar: UInt32 = 0, pending = 0, smallest: UInt32 = 0x80
        for b in label {
            if b < 0x80 {
                pending = 0
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) { space = true; continue }
                if b == 0 { continue }
                append(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b)
                continue
            }
            if b >= 0xF5 { pending = 0; continue }  // never in UTF-8
            if b >= 0xC0 {  // a lead byte
                pending = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : 1
                smallest = pending == 3 ? 0x10000 : pending == 2 ? 0x800 : 0x80
                scalar = UInt32(b) & (b >= 0xF0 ? 0x07 : b >= 0xE0 ? 0x0F : 0x1F)
                continue
            }
            guard pending > 0 else { continue }  // a stray continuation byte
            scalar = scalar << 6 | UInt32(b & 0x3F)
            pending -= 1
            // Only a well-formed character counts (what the parse reads as U+FFFD is dropped):
            // no overlong form, surrogate or value past U+10FFFF decodes to one of the 19.
            guard pending == 0, scalar >= smallest, !(0xD800...0xDFFF).contains(scalar), scalar <= 0x10FFFF else { continue }
            let ascii: String
            switch scalar {
            case 0xDF, 0x1E9E: ascii = "ss"
            case 0x130: ascii = "i"
            case 0x149: ascii = "n"
            case 0x17F: ascii = "s"
            case 0x1F0: ascii = "j"
            case 0x1E96: ascii = "h"
            case 0x1E97: ascii = "t"
            case 0x1E98: ascii = "w"
            case 0x1E99: ascii = "y"
            case 0x1E9A: ascii = "a"
            case 0x212A: ascii = "k"
            case 0xFB00: ascii = "ff"
            case 0xFB01: ascii = "fi"
            case 0xFB02: ascii = "fl"
            case 0xFB03: ascii = "ffi"
            case 0xFB04: ascii = "ffl"
            case 0xFB05, 0xFB06: ascii = "st"
            default: ascii = ""
            }
            for a in ascii.utf8 { append(a) }
        }
        return out
    }

    /// `body` told the text between each `[` of `bytes` and the next unescaped `]`, where no
    /// `[` comes between and it is at most 999 bytes (what a link label can be), until it
    /// says stop.
    static func forEachLabel(in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var i = 0
        let count = bytes.count
        while let open = bytes.firstIndex(of: 0x5B, from: i) {
            var j = open + 1
            var found = false
            while j < count, j - open <= 1000 {
                let b = bytes[j]
                if b == 0x5C { j += 2; continue }
                if b == 0x5B { break }
                if b == 0x5D { found = true; break }
                j += 1
            }
            if found, j < count {
                if !body(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<j])) { return }
                i = j + 1
            } else {
                i = j < count && bytes[j] == 0x5B ? j : open + 1
            }
        }
    }
}

/// What one piece of a `ChunkPlan` gave (`ChunkPlan.parse(_:of:)`, or work built
/// on it such as print mode's rendering).
public enum PieceOutcome<Value> {
    /// The piece's value, and the bytes of the destinations and titles of its links and
    /// images (what its references may have added to cmark's budget; `ChunkPlan.run` checks
    /// the whole source's budget with them).
    case done(Value, expanded: Int = 0)
    /// The line after the piece did not start a top-level heading or paragraph: the cut is
    /// not between top-level blocks. Do the piece again joined with the next one.
    case openAtEnd
    /// The piece's link reference definitions are not the ones the plan proposed: do the
    /// whole source in one piece.
    case definitionsDisagree
    /// The piece's references could have passed cmark's budget for its parse
    /// (`withinReferenceBudget`), so some may have been left unresolved: do the whole source
    /// in one piece.
    case overReferenceBudget

    public func map<T>(_ transform: (Value) -> T) -> PieceOutcome<T> {
        switch self {
        case .done(let value, let expanded): return .done(transform(value), expanded: expanded)
        case .openAtEnd: return .openAtEnd
        case .definitionsDisagree: return .definitionsDisagree
        case .overReferenceBudget: return .overReferenceBudget
        }
    }
}

/// The single pass behind `ChunkPlan`.
struct LineScan {
    enum State: Equatable {
        case normal
        case fence(marker: UInt8, length: Int)
        /// HTML block kinds 1–5 of CommonMark, which only their end marker closes.
        case html(kind: Int)
    }

    var chunks: [ChunkPlan.Chunk] = []
    var definitions: [UInt8] = []
    var definitionLineCount = 0
    /// Each definition's place in `definitions`, and its label (`normalizedLabel`).
    var definitionRanges: [Range<Int>] = []
    var definitionLabels: [[UInt8]] = []
    /// Bytes of the longest proposed definition line.
    var longestDefinition = 0
    /// A line starts with `[^x]:` (after up to 3 spaces).
    var hasFootnotes = false
    /// Labels of proposed definitions and of probed lines, as `normalizedLabel` gives them.
    var proposedLabels: [[UInt8]] = []
    var probedLabels = Set<[UInt8]>()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>, targetBytes: Int, refusal: inout PieceReport.Reason) -> LineScan? {
        guard bytes.count > 0 else { refusal = .empty; return nil }
        let count = bytes.count
        // A lone CR ends a line for CommonMark but not for this scan.
        var cr = 0
        while let at = bytes.firstIndex(of: 0x0D, from: cr) {
            if at + 1 >= count || bytes[at + 1] != 0x0A { refusal = .loneCarriageReturn; return nil }
            cr = at + 1
        }

        var scan = LineScan()
        var seenDefinitions = Set<ArraySlice<UInt8>>()
        var state = State.normal
        var previousBlank = true, previousHeading = false, previousDefinition = false
        var chunkStart = 0, chunkFirstLine = 1
        var chunkDefinitions: [Int] = [], chunkLiterals: [Int] = []
        var chunkBrackets = 0
        var chunkProbes: [[UInt8]] = []
        var line = 1
        var start = 0
        while start < count {
            let newline = bytes.firstIndex(of: 0x0A, from: start)
            let next = newline.map { $0 + 1 } ?? count
            var end = newline ?? count
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }

            // Indentation: spaces count one column; a tab makes it 4 or more.
            var p = start, indent = 0
            while p < end {
                if bytes[p] == 0x20 { indent += 1 } else if bytes[p] == 0x09 { indent += 4 } else { break }
                p += 1
            }
            let blank = p == end
            let (brackets, hasDefinitionMark) = blank ? (0, false) : closingBrackets(bytes, p, end)

            switch state {
            case .fence(let marker, let length):
                if hasDefinitionMark { chunkLiterals.append(line) }
                if indent <= 3, closesFence(bytes, p, end, marker: marker, length: length) { state = .normal }
                previousBlank = false; previousHeading = false; previousDefinition = false
            case .html(let kind):
                if hasDefinitionMark { chunkLiterals.append(line) }
                if htmlEnds(bytes, p, end, kind: kind) { state = .normal }
                previousBlank = false; previousHeading = false; previousDefinition = false
            case .normal:
                if blank {
                    previousBlank = true; previousHeading = false; previousDefinition = false
                    break
                }
                let heading = indent <= 3 && isATXHeading(bytes, p, end)
                if indent == 0, previousBlank, start - chunkStart >= targetBytes,
                   heading || isASCIILetter(bytes[p]) {
                    scan.chunks.append(ChunkPlan.Chunk(bytes: chunkStart..<start, firstLine: chunkFirstLine,
                                                       lineCount: line - chunkFirstLine, nextLine: start..<next,
                                                       definitionLines: chunkDefinitions, literalLines: chunkLiterals,
                                                       closingBrackets: chunkBrackets, nextLineBrackets: brackets,
                                                       probes: chunkProbes))
                    chunkStart = start; chunkFirstLine = line
                    chunkDefinitions = []; chunkLiterals = []; chunkBrackets = 0; chunkProbes = []
                }
                var isDefinition = false
                let footnote = indent <= 3 && p + 1 < end && bytes[p] == UInt8(ascii: "[") && bytes[p + 1] == UInt8(ascii: "^")
                if footnote && hasDefinitionMark { scan.hasFootnotes = true }
                if hasDefinitionMark && footnote && !isWholeDefinition(bytes, p, end) && wordsFollowDestination(bytes, p, end) {
                    // `[^1]: The note.`: text to cmark, whatever comes before or after it.
                } else if hasDefinitionMark, !(previousBlank || previousHeading || previousDefinition),
                          let label = probeLabel(bytes, start, end) {
                    // Most likely text continuing a paragraph (`  [^x]: url` in a list item):
                    // the piece's parse proves it (`MarkdownParser` looks the label up).
                    chunkProbes.append(label)
                    scan.probedLabels.insert(normalizedLabel(label[...]))
                    scan.longestDefinition = max(scan.longestDefinition, end - start)
                } else if hasDefinitionMark {
                    // Only a whole definition line at paragraph start is copied; anything else
                    // with `]:` may be a definition this scan cannot place.
                    guard indent <= 3, bytes[p] == UInt8(ascii: "["),
                          previousBlank || previousHeading || previousDefinition,
                          isWholeDefinition(bytes, p, end)
                    else { refusal = .unplaceableDefinition; return nil }
                    isDefinition = true
                    chunkDefinitions.append(line)
                    scan.longestDefinition = max(scan.longestDefinition, end - p)
                    let text = UnsafeBufferPointer(rebasing: bytes[p..<end])
                    if let close = text.firstIndex(of: 0x5D) {
                        scan.proposedLabels.append(normalizedLabel(text[(text.startIndex + 1)..<close]))
                    }
                    if seenDefinitions.insert(ArraySlice(text)).inserted {
                        let at = scan.definitions.count
                        scan.definitions.append(contentsOf: text)
                        scan.definitions.append(contentsOf: [0x0A, 0x0A])
                        scan.definitionLineCount += 2
                        scan.definitionRanges.append(at..<scan.definitions.count)
                        // The label up to its unescaped `]` (`isWholeDefinition` found one).
                        var close = text.startIndex + 1
                        while close < text.endIndex, text[close] != 0x5D { close += text[close] == 0x5C ? 2 : 1 }
                        scan.definitionLabels.append(ChunkPlan.labelKey(text[(text.startIndex + 1)..<min(close, text.endIndex)]))
                    }
                } else if indent <= 3 {
                    if let fence = fenceOpening(bytes, p, end) {
                        state = fence
                    } else if let kind = htmlStart(bytes, p, end), !htmlEnds(bytes, p, end, kind: kind) {
                        state = .html(kind: kind)
                    }
                }
                previousBlank = false; previousHeading = heading; previousDefinition = isDefinition
            }
            chunkBrackets += brackets
            start = next
            line += 1
        }
        scan.chunks.append(ChunkPlan.Chunk(bytes: chunkStart..<count, firstLine: chunkFirstLine,
                                           lineCount: line - chunkFirstLine, nextLine: nil,
                                           definitionLines: chunkDefinitions, literalLines: chunkLiterals,
                                           closingBrackets: chunkBrackets, nextLineBrackets: 0, probes: chunkProbes))
        // A probed label that is also proposed would resolve whatever the line was.
        if !scan.probedLabels.isEmpty {
            for definition in scan.proposedLabels where scan.probedLabels.contains(definition) {
                refusal = .probedDefinition
                return nil
            }
        }
        return scan
    }

    /// The `]` bytes of a line, and whether one of them followed by `:` could end the label of
    /// a link reference definition (see `couldEndDefinitionLabel`).
    private static func closingBrackets(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> (Int, Bool) {
        var i = from, count = 0, mark = false
        while let at = bytes.firstIndex(of: 0x5D, from: i, end: end) {
            count += 1
            if !mark, at + 1 < end, bytes[at + 1] == UInt8(ascii: ":"), couldEndDefinitionLabel(bytes, from, at) {
                mark = true
            }
            i = at + 1
        }
        return (count, mark)
    }

    /// Whether the `]` at `at` (followed by `:`) could end a definition's label. A label holds
    /// no unescaped bracket, and a definition starts its paragraph, so the label's `[` must be
    /// the nearest unescaped bracket before `]` and have only indentation, `>` and list markers
    /// before it on the line. `]:` in running text (`{ \[key]: true }`, `` `[T; N]: From` ``,
    /// `// Error [E1]: message`) is no definition and must not make a source unsplittable.
    /// No bracket before it on the line: the label may have begun on an earlier line, so the
    /// lines before are looked at too, as far as a label can reach (cmark takes at most 1,000
    /// bytes between the brackets; a label spans lines but holds no unescaped bracket, so the
    /// first unescaped bracket before `]` is its `[` if it is one). No `[` within reach (prose
    /// in a list item that says `]:`), or a `]` first: no label ends here.
    static func couldEndDefinitionLabel(_ bytes: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ at: Int) -> Bool {
        // A backslash run never crosses a line end (a backslash ending a line is a hard break).
        func escaped(_ i: Int) -> Bool {
            var backslashes = 0, j = i - 1
            while j >= 0, bytes[j] == 0x5C { backslashes += 1; j -= 1 }
            return backslashes % 2 == 1
        }
        if escaped(at) { return false }
        var i = at - 1
        let reach = max(0, at - 1_010)
        while i >= reach {
            let b = bytes[i]
            if b == 0x5D, !escaped(i) { return false }
            if b == 0x5B, !escaped(i) {
                var lineStart = i
                while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
                for j in lineStart..<i {
                    switch bytes[j] {
                    case 0x20, 0x09, UInt8(ascii: ">"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                         UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        continue
                    default:
                        return false
                    }
                }
                return true
            }
            i -= 1
        }
        return false
    }

    /// The label of a line's first `]:` that could end a definition label, when its `[` is on
    /// the line and it holds only bytes that cannot start other inline syntax (letters, digits,
    /// spaces and `^ - _ . : / +`), so that `[label]` alone is a link exactly when the label is
    /// defined. nil otherwise (the scan then refuses the source).
    static func probeLabel(_ bytes: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ end: Int) -> [UInt8]? {
        var i = lineStart
        while let at = bytes.firstIndex(of: 0x5D, from: i, end: end) {
            if at + 1 < end, bytes[at + 1] == UInt8(ascii: ":"), couldEndDefinitionLabel(bytes, lineStart, at) {
                guard let open = bytes[lineStart..<at].lastIndex(of: 0x5B), at - open > 1, at - open <= 200 else { return nil }
                let label = Array(bytes[(open + 1)..<at])
                for b in label {
                    switch b {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                         UInt8(ascii: "0")...UInt8(ascii: "9"), 0x20, UInt8(ascii: "^"), UInt8(ascii: "-"),
                         UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"):
                        continue
                    default:
                        return nil
                    }
                }
                return label.contains { $0 != 0x20 } ? label : nil
            }
            i = at + 1
        }
        return nil
    }

    /// A label as cmark matches it, near enough: ASCII lowercased, runs of spaces and tabs as
    /// one space, trimmed. (Used only to refuse a source whose probed label may also be
    /// proposed; a label that folds alike only beyond ASCII makes its probe resolve, and the
    /// piece is then refused, never wrongly accepted.)
    static func normalizedLabel(_ label: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var space = false
        for b in label {
            if b == 0x20 || b == 0x09 || b == 0x0A { space = !out.isEmpty; continue }
            if space { out.append(0x20); space = false }
            out.append(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b)
        }
        return out
    }

    /// `[label]: destination` with an optional title, all on this line: a definition cmark
    /// cannot continue onto the next line (a title there would need one of `"'(` to start it,
    /// and the scan then finds that line uncovered and refuses). Anything else is not proposed.
    static func isWholeDefinition(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> Bool {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        var i = p + 1
        while i < end, b[i] != 0x5D {  // the label: no unescaped `[`
            if b[i] == 0x5B { return false }
            i += b[i] == 0x5C ? 2 : 1
        }
        guard i + 1 < end, b[i] == 0x5D, b[i + 1] == UInt8(ascii: ":") else { return false }
        i += 2
        while i < end, isSpace(b[i]) { i += 1 }
        guard i < end else { return false }  // the destination is on the next line
        if b[i] == UInt8(ascii: "<") {
            i += 1
            while i < end, b[i] != UInt8(ascii: ">") {
                if b[i] == UInt8(ascii: "<") { return false }
                i += b[i] == 0x5C ? 2 : 1
            }
            guard i < end else { return false }
            i += 1
        } else {
            var depth = 0
            let destinationStart = i
            while i < end, b[i] > 0x20, b[i] != 0x7F {
                if b[i] == 0x5C { i += 2; continue }
                if b[i] == UInt8(ascii: "(") { depth += 1 }
                if b[i] == UInt8(ascii: ")") { if depth == 0 { return false }; depth -= 1 }
                i += 1
            }
            guard depth == 0, i <= end, i > destinationStart else { return false }
        }
        let destinationEnd = i
        while i < end, isSpace(b[i]) { i += 1 }
        if i >= end { return true }
        guard i > destinationEnd else { return false }  // a title is set apart by a space
        let open = b[i]
        let close = open == UInt8(ascii: "(") ? UInt8(ascii: ")") : open
        guard open == UInt8(ascii: "\"") || open == UInt8(ascii: "'") || open == UInt8(ascii: "(") else { return false }
        i += 1
        while i < end, b[i] != close {
            if open == UInt8(ascii: "("), b[i] == UInt8(ascii: "(") { return false }
            i += b[i] == 0x5C ? 2 : 1
        }
        guard i < end else { return false }  // the title goes on past this line
        i += 1
        while i < end, isSpace(b[i]) { i += 1 }
        return i >= end
    }

    /// `[label]: destination words…`: after the destination, on the same line, comes text that
    /// cannot start a title (not `"`, `'` or `(`). cmark then gives up the definition at this
    /// line, whatever the lines around it hold: the line is paragraph text (`[^1]: The note.`).
    static func wordsFollowDestination(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> Bool {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        var i = p + 1
        while i < end, b[i] != 0x5D {
            if b[i] == 0x5B { return false }
            i += b[i] == 0x5C ? 2 : 1
        }
        guard i + 1 < end, b[i] == 0x5D, b[i + 1] == UInt8(ascii: ":") else { return false }
        i += 2
        while i < end, isSpace(b[i]) { i += 1 }
        guard i < end, b[i] != UInt8(ascii: "<") else { return false }
        let destinationStart = i
        while i < end, b[i] > 0x20, b[i] != 0x7F { i += b[i] == 0x5C ? 2 : 1 }
        guard i < end, i > destinationStart, isSpace(b[i]) else { return false }
        while i < end, isSpace(b[i]) { i += 1 }
        guard i < end else { return false }
        let next = b[i]
        return next > 0x20 && next != 0x7F && next != UInt8(ascii: "\"") && next != UInt8(ascii: "'") && next != UInt8(ascii: "(")
    }

    /// `#` to `######` followed by a space, a tab or the end of the line.
    private static func isATXHeading(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> Bool {
        var i = p
        while i < end, bytes[i] == UInt8(ascii: "#") { i += 1 }
        let level = i - p
        return level >= 1 && level <= 6 && (i == end || bytes[i] == 0x20 || bytes[i] == 0x09)
    }

    private static func fenceOpening(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> LineScan.State? {
        let marker = bytes[p]
        guard marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") else { return nil }
        var i = p
        while i < end, bytes[i] == marker { i += 1 }
        guard i - p >= 3 else { return nil }
        if marker == UInt8(ascii: "`") {
            for j in i..<end where bytes[j] == marker { return nil }  // a backtick info string is inline code
        }
        return .fence(marker: marker, length: i - p)
    }

    private static func closesFence(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int, marker: UInt8, length: Int) -> Bool {
        var i = p
        while i < end, bytes[i] == marker { i += 1 }
        guard i - p >= length else { return false }
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        return i == end
    }

    /// CommonMark HTML block kinds 1 (`<script`, `<pre`, `<style`, `<textarea`), 2 (`<!--`),
    /// 3 (`<?`), 4 (`<!` + letter) and 5 (`<![CDATA[`): the kinds a blank line does not end.
    private static func htmlStart(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> Int? {
        guard bytes[p] == UInt8(ascii: "<"), p + 1 < end else { return nil }
        let rest = UnsafeBufferPointer(rebasing: bytes[(p + 1)..<end])
        if startsWith(rest, "!--") { return 2 }
        if startsWith(rest, "?") { return 3 }
        if startsWith(rest, "![CDATA[") { return 5 }
        if rest.count >= 2, rest[0] == UInt8(ascii: "!"), isASCIILetter(rest[1]) { return 4 }
        for tag in ["script", "pre", "style", "textarea"] where startsWith(rest, tag, caseInsensitive: true) {
            let after = tag.utf8.count
            if after == rest.count || rest[after] == 0x20 || rest[after] == 0x09 || rest[after] == UInt8(ascii: ">") {
                return 1
            }
        }
        return nil
    }

    private static func htmlEnds(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int, kind: Int) -> Bool {
        let line = UnsafeBufferPointer(rebasing: bytes[p..<end])
        switch kind {
        case 1: return ["</script>", "</pre>", "</style>", "</textarea>"].contains { contains(line, $0, caseInsensitive: true) }
        case 2: return contains(line, "-->")
        case 3: return contains(line, "?>")
        case 4: return contains(line, ">")
        default: return contains(line, "]]>")
        }
    }

    private static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    private static func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: String, caseInsensitive: Bool = false) -> Bool {
        var i = 0
        for b in prefix.utf8 {
            guard i < bytes.count else { return false }
            let c = caseInsensitive && isASCIILetter(bytes[i]) ? bytes[i] | 0x20 : bytes[i]
            if c != b { return false }
            i += 1
        }
        return true
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: String, caseInsensitive: Bool = false) -> Bool {
        let n = needle.utf8.count
        guard bytes.count >= n else { return false }
        for i in 0...(bytes.count - n) where startsWith(UnsafeBufferPointer(rebasing: bytes[i...]), needle, caseInsensitive: caseInsensitive) {
            return true
        }
        return false
    }
}
