import Threads

/// How `MarkdownParser.parse` goes about a source. The defaults suit every caller; the
/// pager's parse worker adds `giveBack` and `keeper` to keep its memory peak down.
public struct ParseOptions {
    /// Parse in pieces on all cores when the source is large enough
    /// (`MarkdownParser.piecewiseBytes`) and `ChunkPlan` can cut it. False parses in one
    /// piece whatever the size (for callers that already tried the pieces, and to compare
    /// with them); the report then says `.notAsked`.
    public var inPieces: Bool
    /// Pack the inlines (`PackedInlines`). False leaves them as arrays of nodes (`Inlines`):
    /// print mode lays each block out once and would only pay for packing and unpacking.
    public var packed: Bool
    /// Called a few times while the pieces are parsed and joined: the joined document is a
    /// new array of blocks, and the pieces freed as they are copied stay in the heap until
    /// something gives their pages back (the pager passes `malloc_trim`; without it a 20 MB
    /// changelog's join held both, ~20 MB at the pager's peak).
    public var giveBack: (() -> Void)?
    /// Lets the source bytes of the pieces already parsed go while the others are, and gives
    /// them back if the pieces fail (`SourceKeeper`; `ChunkPlan.run`'s `settled`): without
    /// it a 20 MB changelog held its 20 MB of source until its last piece was parsed, at the
    /// top of the pager's peak. A file's keeper is a `RereadingKeeper`.
    public var keeper: SourceKeeper?
    /// The threads the pieces may be parsed on (passed in by the edge: the pager's parse
    /// runs below the event loop, print mode's at its own priority).
    public var executor: Executor

    public init(inPieces: Bool = true, packed: Bool = true, giveBack: (() -> Void)? = nil,
                keeper: SourceKeeper? = nil, executor: Executor = .machine) {
        self.executor = executor
        self.inPieces = inPieces
        self.packed = packed
        self.giveBack = giveBack
        self.keeper = keeper
    }
}
