/// What a parse in pieces does with the source bytes its finished pieces no longer need
/// (`ParseOptions.keeper`): each run of them is handed to the keeper and then its pages are
/// given back to the system; if the pieces cannot be used
/// after all (their link definitions disagree with the plan's, or cmark's reference budget
/// over the whole source), the keeper gives the source back to be parsed whole.
///
/// A file is read again (`RereadingKeeper`); a stream cannot be, and the pager keeps it
/// compressed (`CompressingKeeper`, in the folio target: zstd at its fastest level), so that a piped document is not held whole until its last piece is parsed
/// and folio never writes its input to disk.
public protocol SourceKeeper: AnyObject {
    /// Called with `bytes`, at `offset` in the source, just before their pages are given
    /// back (one call at a time, from the pieces' threads). False: keep them (their pages
    /// are not given back).
    func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool
    /// Makes `source` the whole source again, after some of its bytes were given back.
    func restore(_ source: inout [UInt8])
    /// The pieces are in: nothing kept will be asked for (the pager goes on to build the
    /// content, its peak, with the parse's callers still holding the keeper).
    func discard()
}

/// Keeps nothing: the source is read again when needed (a file).
public final class RereadingKeeper: SourceKeeper, Sendable {
    private let reread: @Sendable () -> [UInt8]
    public init(_ reread: @escaping @Sendable () -> [UInt8]) { self.reread = reread }
    public func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool { true }
    public func restore(_ source: inout [UInt8]) { source = reread() }
    public func discard() {}
}
