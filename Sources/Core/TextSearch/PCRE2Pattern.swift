// The one file that talks to libpcre2-8. No PCRE2 pointer leaves it.
import CPCRE2
import Threads

/// A pattern compiled (and, where available, JIT-compiled) by PCRE2.
///
/// Shared between threads although it wraps a C pointer (`SharedCObject`): the `pcre2_code` is
/// written only in `init` (compile, then JIT compile) and is read-only
/// afterwards; PCRE2 documents that a compiled pattern, JIT code included, may be used by
/// several threads at once. All per-match mutable state lives in `MatchScratch`, which is not
/// Sendable and is made per call.
final class PCRE2Pattern: Sendable {
    private let codeObject: SharedCObject
    private var code: OpaquePointer { codeObject.pointer }
    /// Whether the JIT compiler accepted the pattern (false where PCRE2 has no JIT support).
    let isJITCompiled: Bool

    /// Compiles `pattern`, always with UTF and `\C` forbidden, so a match can never split a
    /// UTF-8 sequence; `^`/`$` match at every line start/end inside one text (`MULTILINE`),
    /// like less, which searches line by line.
    init(pattern: String, literal: Bool, caseless: Bool) throws(SearchError) {
        var options = PCRE2_UTF | PCRE2_NO_UTF_CHECK
        if literal {
            // PCRE2 refuses UCP, MULTILINE and NEVER_BACKSLASH_C together with LITERAL; none
            // matters for a literal. In UTF mode caseless matching still folds non-ASCII.
            options |= PCRE2_LITERAL
        } else {
            options |= PCRE2_UCP | PCRE2_MULTILINE | PCRE2_NEVER_BACKSLASH_C
        }
        if caseless { options |= PCRE2_CASELESS }

        var errorCode: Int32 = 0
        var errorOffset = 0
        var utf8 = pattern  // a Swift String is valid UTF-8, hence NO_UTF_CHECK
        let compiled = utf8.withUTF8 { bytes in
            withNonNilBase(bytes) { base, count in
                pcre2_compile_8(base, count, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw .invalidPattern(reason: Self.message(for: errorCode), offset: errorOffset)
        }
        codeObject = SharedCObject(compiled)
        // Falls back silently to the interpreter if JIT is unsupported or runs out of memory.
        isJITCompiled = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
    }

    deinit { pcre2_code_free_8(code) }

    /// The first non-empty match that starts at or after `start` in `subject`, as a UTF-8 byte
    /// range. `start` must be on a Unicode scalar boundary (callers round it). Lookbehind sees
    /// the bytes before `start`.
    ///
    /// Empty matches are never reported (`PCRE2_NOTEMPTY`): a pattern like `x*` finds only
    /// runs of at least one x. A match error (backtracking or JIT stack limit) reads as "no
    /// match in this text": a pager should not fail a whole search on one pathological block.
    func firstMatch(
        in subject: UnsafeBufferPointer<UInt8>, from start: Int, scratch: MatchScratch
    ) -> Range<Int>? {
        precondition(start >= 0 && start <= subject.count, "start offset out of bounds")
        var start = start
        while start <= subject.count {
            let rc = withNonNilBase(subject) { base, count in
                pcre2_match_8(
                    code, base, count, start, PCRE2_NOTEMPTY | PCRE2_NO_UTF_CHECK,
                    scratch.matchData, nil)
            }
            // rc == 0 means "matched, but the ovector is too small for the groups": we asked
            // for room for the whole match only, which is all we read.
            guard rc >= 0 else { return nil }
            let ovector = pcre2_get_ovector_pointer_8(scratch.matchData)!
            let lower = ovector[0], upper = ovector[1]
            if upper > lower { return lower..<upper }
            // `\K` can still produce an empty or inverted range: step one scalar and go on.
            start = nextScalarBoundary(after: max(start, min(lower, upper)), in: subject)
        }
        return nil
    }

    private static func message(for errorCode: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer {
            pcre2_get_error_message_8(errorCode, $0.baseAddress, $0.count)
        }
        guard length > 0 else { return "error \(errorCode)" }
        return String(decoding: buffer[..<Int(length)], as: UTF8.self)
    }
}

/// Per-call match state (PCRE2 match data with room for one range). Not Sendable: each search
/// call, or each task, makes its own. Reused across all matches of one call.
final class MatchScratch {
    fileprivate let matchData: OpaquePointer

    init() {
        guard let data = pcre2_match_data_create_8(1, nil) else {
            fatalError("PCRE2 could not allocate match data")
        }
        matchData = data
    }

    deinit { pcre2_match_data_free_8(matchData) }
}

/// Calls `body` with a non-nil base address: an empty Swift buffer may have none, and PCRE2
/// 10.42 rejects a NULL subject even with length 0.
private func withNonNilBase<R>(
    _ buffer: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<UInt8>, Int) -> R
) -> R {
    if let base = buffer.baseAddress { return body(base, buffer.count) }
    var zero: UInt8 = 0
    return withUnsafePointer(to: &zero) { body($0, 0) }
}
