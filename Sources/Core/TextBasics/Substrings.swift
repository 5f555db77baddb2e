/// Finding and replacing text in strings, which the standard library leaves to
/// `_StringProcessing` (`firstRange(of:)`, `contains(_: String)`): folio links neither it nor
/// Foundation, each a cost paid by every start-up (their relocations, their set-up, their
/// protocol conformances searched on first generic use; docs/benchmarks.md, "Start-up").
///
/// Matching is by UTF-8 bytes, so a match starts and ends on Unicode scalar boundaries, not
/// necessarily on `Character` ones: `"e"` is found in a decomposed `"é"` (e + U+0301).
extension StringProtocol {
    /// The first occurrence of `needle` (an empty needle is found at the start). Inlinable, so
    /// that it is specialised where it is called: unspecialised, each call looked up its
    /// generic types at run time, which was a tenth of a preview's parse.
    @inlinable
    public func firstOccurrence(of needle: some StringProtocol) -> Range<String.Index>? {
        let wanted = Array(needle.utf8)
        guard let first = wanted.first else { return startIndex..<startIndex }
        let rest = wanted.dropFirst()
        let bytes = utf8
        var from = bytes.startIndex
        while let at = bytes[from...].firstIndex(of: first) {
            var end = bytes.index(after: at)
            var matched = 0
            while matched < rest.count, end < bytes.endIndex, bytes[end] == rest[rest.startIndex + matched] {
                bytes.formIndex(after: &end)
                matched += 1
            }
            if matched == rest.count { return at..<end }
            from = bytes.index(after: at)
        }
        return nil
    }

    /// Whether `needle` occurs in this string.
    @inlinable
    public func containsText(_ needle: some StringProtocol) -> Bool { firstOccurrence(of: needle) != nil }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement`, left to right (an empty
    /// `target` changes nothing).
    @inlinable
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.firstOccurrence(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}
