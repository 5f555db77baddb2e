/// Whether a Markdown source was parsed in pieces (on all cores, `ChunkPlan`) or whole, and
/// when whole, why: a fall-back to one parse gives the same document, only slower, so
/// without a report nothing would notice that pieces stopped working on some shape of
/// source. `MarkdownParser.parse` gives it with the document; folio-bench prints it.
public struct PieceReport: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, Error, CaseIterable {
        /// Under `MarkdownParser.piecewiseBytes`: one parse is quick.
        case small = "smaller than a piece is worth"
        /// The caller asked for one parse (`ParseOptions.inPieces` false).
        case notAsked = "one parse asked for"
        /// Nothing after the front matter.
        case empty = "nothing after the front matter"
        /// A CR not followed by LF ends a line for CommonMark, not for the line scan.
        case loneCarriageReturn = "a lone CR"
        /// A `]:` line the scan cannot place (neither a whole definition at a paragraph's
        /// start nor a probe-able continuation).
        case unplaceableDefinition = "a link definition the scan cannot place"
        /// A label both proposed as a definition and probed on a continuation line.
        case probedDefinition = "a label both defined and probed"
        /// No line where a cut may go (one block, or no blank line before a heading or a
        /// paragraph once a piece is long enough): fewer than two pieces.
        case noCut = "no line where the source can be cut"
        /// A piece's link definitions were not the ones the plan proposed.
        case definitionsDisagree = "a piece's link definitions disagree with the plan's"
        /// The references could expand past what cmark allows a piece's parse, or the
        /// whole source's (`ChunkPlan.withinReferenceBudget`, `wholeWithinReferenceBudget`).
        case referenceBudget = "the references pass cmark's budget"
    }

    /// Pieces parsed and joined (0 when parsed whole).
    public var pieces: Int
    /// Pieces whose cut was refused and healed by parsing them with the next.
    public var healed: Int
    /// Why the source was parsed whole (nil: in pieces).
    public var whole: Reason?

    public init(pieces: Int, healed: Int = 0) { self.pieces = pieces; self.healed = healed; whole = nil }
    public init(whole reason: Reason) { pieces = 0; healed = 0; whole = reason }

    public var inPieces: Bool { whole == nil }

    public var description: String {
        if let whole { return "parsed whole: \(whole.rawValue)" }
        return "parsed in \(pieces) pieces" + (healed > 0 ? " (\(healed) cuts refused and healed)" : "")
    }
}
