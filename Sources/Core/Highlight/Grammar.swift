// The one file that talks to tree-sitter's C runtime. No tree-sitter pointer leaves it.
import CTreeSitter
import Styling
import TextSearch
import Threads

/// A tree-sitter grammar with its compiled `highlights.scm`: what turns code into syntax runs.
///
/// Shared between threads although it holds C pointers (`SharedCObject`): the `TSLanguage` is
/// static data of the grammar's shared object, and the `TSQuery` is written only in `init` and
/// read-only afterwards (tree-sitter keeps all matching state in the per-call
/// `TSQueryCursor`), so one grammar highlights on several threads at once. Each call takes a parser of its own from a
/// pool (made once, reset between uses: print mode highlights thousands of blocks) and makes
/// its own cursor.
public final class Grammar: Sendable {
    public let name: String
    private let languageObject: SharedCObject
    private let queryObject: SharedCObject
    private var language: OpaquePointer { languageObject.pointer }
    private var query: OpaquePointer { queryObject.pointer }
    /// Role of each capture id (nil: colours nothing).
    private let roles: [SyntaxRole?]
    /// Text predicates of each pattern (`#eq?`, `#match?`, `#any-of?` and their negations).
    private let predicates: [[Predicate]]
    /// How specific each pattern is: first how deeply its nodes nest (a key inside a mapping
    /// pair is more specific than any string), then the length of its source text without
    /// comments and white space.
    private let specificity: [Int]

    public enum LoadError: Error, Equatable, Sendable {
        /// The grammar was generated for an ABI this runtime cannot read.
        case incompatibleABI(Int)
        /// tree-sitter's runtime is not loaded (`loadRuntime`).
        case noRuntime
        /// `highlights.scm` does not compile against the grammar (the byte offset and kind).
        case query(offset: Int, kind: Int)
    }

    /// The loaded runtime's range of grammar ABIs (0...0 before `Grammar.loadRuntime`).
    public static var supportedABI: ClosedRange<Int> {
        Int(folio_ts_abi_min())...Int(folio_ts_abi_max())
    }

    /// Loads tree-sitter's runtime from `path` (done once, by the grammar loader, before any
    /// grammar is made); the reason it was not loaded, or nil.
    public static func loadRuntime(at path: String) -> String? {
        folio_ts_load(path).map { String(cString: $0) }
    }

    /// Whether tree-sitter's runtime is loaded (no grammar can be made before).
    public static var runtimeLoaded: Bool { folio_ts_loaded() }

    /// `language` is a `const TSLanguage *` (what a grammar's `tree_sitter_NAME()` returns);
    /// `highlights` the text of its highlight query.
    public init(name: String, language: OpaquePointer, highlights: String) throws(LoadError) {
        guard Self.runtimeLoaded else { throw .noRuntime }
        self.name = name
        languageObject = SharedCObject(language)
        let abi = Int(ts_language_version(language))
        guard Self.supportedABI.contains(abi) else { throw .incompatibleABI(abi) }
        var errorOffset: UInt32 = 0
        var errorType = TSQueryErrorNone
        var source = highlights
        let q = source.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                ts_query_new(language, chars.baseAddress, UInt32(chars.count), &errorOffset, &errorType)
            }
        }
        guard let q else { throw .query(offset: Int(errorOffset), kind: Int(errorType.rawValue)) }
        queryObject = SharedCObject(q)
        var roles: [SyntaxRole?] = []
        for id in 0..<ts_query_capture_count(q) {
            var length: UInt32 = 0
            let name = ts_query_capture_name_for_id(q, id, &length).map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            } ?? ""
            roles.append(CaptureRoles.role(forCapture: name))
        }
        self.roles = roles
        var predicates: [[Predicate]] = []
        for p in 0..<ts_query_pattern_count(q) { predicates.append(Self.predicates(of: q, pattern: p)) }
        self.predicates = predicates
        let n = Int(ts_query_pattern_count(q))
        var starts = (0..<n).map { Int(ts_query_start_byte_for_pattern(q, UInt32($0))) }
        starts.append(highlights.utf8.count)
        let text = Array(highlights.utf8)
        specificity = (0..<n).map {
            let source = text[starts[$0]..<max(starts[$0], starts[$0 + 1])]
            return Self.nestingDepth(source) * 4096 + min(4095, Self.significantLength(source))
        }
    }

    /// Bytes of a pattern's source that are neither white space nor in a `;` comment line: the
    /// comments and blank lines between one pattern and the next must not make it "longer"
    /// (kotlin's `(simple_identifier) @variable` is followed by a paragraph of comments).
    static func significantLength(_ source: ArraySlice<UInt8>) -> Int {
        var count = 0, inComment = false, lineStart = true
        for b in source {
            switch b {
            case 0x0A: inComment = false; lineStart = true
            case 0x20, 0x09, 0x0D: break
            case UInt8(ascii: ";") where lineStart: inComment = true; lineStart = false
            default:
                lineStart = false
                if !inComment { count += 1 }
            }
        }
        return count
    }

    /// The deepest nesting of parentheses in a pattern's source, outside strings and `;`
    /// comments: `(a (b (c)))` is 3, `[(a) (b)] @x` is 1.
    static func nestingDepth(_ source: ArraySlice<UInt8>) -> Int {
        var depth = 0, deepest = 0, inComment = false, inString = false, escaped = false
        for b in source {
            if inComment { if b == 0x0A { inComment = false }; continue }
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: ";"): inComment = true
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "("): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: ")"): depth = max(0, depth - 1)
            default: break
            }
        }
        return deepest
    }

    deinit {
        ts_query_delete(query)
        parsers.withLock { $0.forEach { ts_parser_delete($0) } }
    }

    /// Parsers not in use, with the grammar's language set.
    private let parsers = Locked<[OpaquePointer]>([])

    private func takeParser() -> OpaquePointer? {
        if let pooled = parsers.withLock({ $0.popLast() }) { return pooled }
        guard let parser = ts_parser_new() else { return nil }
        guard ts_parser_set_language(parser, language) else { ts_parser_delete(parser); return nil }
        return parser
    }

    /// `parser` back in the pool. A parse that returned a tree has reset the parser itself
    /// (`ts_parser_parse` does on success); only a failed one is reset here, so that the next
    /// parse starts afresh instead of resuming it. (Resetting after every parse cost a
    /// measurable part of JavaScript's parse time.)
    private func giveBack(_ parser: OpaquePointer, parsed: Bool) {
        if !parsed { ts_parser_reset(parser) }
        parsers.withLock { $0.append(parser) }
    }

    /// Syntax runs of `code` (UTF-8 byte ranges, sorted, not overlapping).
    ///
    /// Where captures nest, the innermost node wins (a string's escape inside the string).
    /// Where several patterns capture the same node, the most specific one wins (the longest
    /// pattern text, so `(call function: (identifier) @function)` beats a bare
    /// `(identifier) @variable`), and among equals the later one: the grammars' queries put
    /// fallbacks first (python, c, javascript…) or last (go), and this reads both as meant.
    public func runs(_ code: String) -> [SyntaxRun] { highlight(code).runs }

    /// `runs`, within `budget`: what was highlighted, and why some of the code was left plain.
    public func highlight(_ code: String, budget: HighlightBudget = .standard) -> Highlighting {
        var code = code
        return code.withUTF8 { highlight(bytes: $0, budget: budget) }
    }

    /// The code is highlighted a piece at a time (`HighlightBudget.pieces`), each parsed and
    /// queried alone within the budget's time limits; a piece over a limit stays plain, and
    /// after `overrunsPerBlock` such pieces the rest of the code does too.
    func highlight(bytes: UnsafeBufferPointer<UInt8>, budget: HighlightBudget) -> Highlighting {
        guard bytes.count > 0, bytes.count < Int(UInt32.max) else { return Highlighting(runs: []) }
        var result = Highlighting(runs: [])
        var overruns = 0
        for piece in budget.pieces(bytes) {
            if overruns >= budget.overrunsPerBlock { break }
            let slice = UnsafeBufferPointer(rebasing: bytes[piece])
            if budget.tooDeep(slice) {
                result.note = result.note ?? HighlightLimit.nesting(limit: budget.nesting).description
                overruns += 1
                continue
            }
            switch runs(piece: slice, budget: budget) {
            case .success(let runs):
                let offset = piece.lowerBound
                result.runs += runs.map { SyntaxRun(range: ($0.range.lowerBound + offset)..<($0.range.upperBound + offset), role: $0.role) }
            case .failure(let limit):
                result.note = result.note ?? limit.description
                overruns += 1
            }
        }
        return result
    }

    /// One piece parsed and queried, or the limit it ran into.
    private func runs(piece bytes: UnsafeBufferPointer<UInt8>, budget: HighlightBudget) -> Result<[SyntaxRun], HighlightLimit> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .success([]) }
        guard let parser = takeParser() else { return .success([]) }
        ts_parser_set_timeout_micros(parser, budget.parseMicros)
        let tree = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            ts_parser_parse_string(parser, nil, $0, UInt32(bytes.count))
        }
        giveBack(parser, parsed: tree != nil)
        // A parse returns no tree only when it ran out of time (no cancellation flag is set).
        guard let tree else { return .failure(.parseTime(milliseconds: Int(budget.parseMicros / 1000))) }
        defer { ts_tree_delete(tree) }
        guard let cursor = ts_query_cursor_new() else { return .success([]) }
        defer { ts_query_cursor_delete(cursor) }
        ts_query_cursor_set_match_limit(cursor, budget.matchLimit)
        ts_query_cursor_set_timeout_micros(cursor, budget.queryMicros)
        let started = Monotonic.microseconds()
        ts_query_cursor_exec(cursor, query, ts_tree_root_node(tree))

        var captures: [Capture] = []
        var match = TSQueryMatch()
        var index: UInt32 = 0
        while ts_query_cursor_next_capture(cursor, &match, &index) {
            let capture = match.captures[Int(index)]
            guard let role = roles[Int(capture.index)] else { continue }
            let pattern = Int(match.pattern_index)
            if !predicates[pattern].isEmpty,
               !holds(predicates[pattern], match: match, bytes: bytes) { continue }
            let start = Int(ts_node_start_byte(capture.node)), end = Int(ts_node_end_byte(capture.node))
            guard start < end, end <= bytes.count else { continue }
            captures.append(Capture(start: start, end: end,
                                    order: captures.count, rank: specificity[pattern] &* 65536 &+ pattern, role: role))
        }
        // The cursor ends the same way at the end of the tree and at its timeout: the clock
        // tells them apart (what it found before a timeout may miss inner captures: dropped).
        if Monotonic.microseconds() - started >= budget.queryMicros {
            return .failure(.queryTime(milliseconds: Int(budget.queryMicros / 1000)))
        }
        return .success(Self.paint(captures, length: bytes.count))
    }

    struct Capture {
        var start: Int, end: Int
        var order: Int
        /// Higher wins on the same node.
        var rank: Int
        var role: SyntaxRole
    }

    /// Outer nodes first, inner nodes painted over them; on one node the highest rank wins
    /// (painted last).
    static func paint(_ captures: [Capture], length: Int) -> [SyntaxRun] {
        guard !captures.isEmpty else { return [] }
        let sorted = captures.sorted {
            ($0.start, -$0.end, $0.order) < ($1.start, -$1.end, $1.order)
        }
        let none = UInt8.max
        var painted = [UInt8](repeating: none, count: length)
        // Same extent (one node, or a node and a child that covers all of it): the highest
        // rank paints last, then the later capture. Not by node identity: that is a pointer,
        // and which of two nodes won changed from run to run.
        var i = 0
        while i < sorted.count {
            var j = i + 1
            while j < sorted.count && sorted[j].start == sorted[i].start && sorted[j].end == sorted[i].end { j += 1 }
            let group = j - i == 1 ? [sorted[i]] : sorted[i..<j].sorted { ($0.rank, $0.order) < ($1.rank, $1.order) }
            for c in group {
                let raw = c.role.rawValue
                for k in c.start..<c.end { painted[k] = raw }
            }
            i = j
        }
        var runs: [SyntaxRun] = []
        i = 0
        while i < length {
            let r = painted[i]
            var j = i + 1
            while j < length && painted[j] == r { j += 1 }
            if r != none, let role = SyntaxRole(rawValue: r) { runs.append(SyntaxRun(range: i..<j, role: role)) }
            i = j
        }
        return runs
    }

    // MARK: - Predicates

    enum Predicate {
        case equal(capture: UInt32, text: String, negated: Bool)
        case equalCaptures(UInt32, UInt32, negated: Bool)
        case match(capture: UInt32, pattern: SearchPattern, negated: Bool)
        case anyOf(capture: UInt32, texts: Set<String>, negated: Bool)
    }

    private static func predicates(of query: OpaquePointer, pattern: UInt32) -> [Predicate] {
        var count: UInt32 = 0
        guard let steps = ts_query_predicates_for_pattern(query, pattern, &count), count > 0 else { return [] }
        var result: [Predicate] = []
        var args: [TSQueryPredicateStep] = []
        func string(_ id: UInt32) -> String {
            var length: UInt32 = 0
            guard let s = ts_query_string_value_for_id(query, id, &length) else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: s, count: Int(length)), as: UTF8.self)
        }
        for i in 0..<Int(count) {
            let step = steps[i]
            if step.type != TSQueryPredicateStepTypeDone { args.append(step); continue }
            defer { args.removeAll() }
            guard let head = args.first, head.type == TSQueryPredicateStepTypeString else { continue }
            let op = string(head.value_id)
            let rest = Array(args.dropFirst())
            guard let first = rest.first, first.type == TSQueryPredicateStepTypeCapture else { continue }
            let negated = op.hasPrefix("not-")
            switch op {
            case "eq?", "not-eq?":
                guard rest.count == 2 else { continue }
                if rest[1].type == TSQueryPredicateStepTypeCapture {
                    result.append(.equalCaptures(first.value_id, rest[1].value_id, negated: negated))
                } else {
                    result.append(.equal(capture: first.value_id, text: string(rest[1].value_id), negated: negated))
                }
            case "match?", "not-match?", "lua-match?", "vim-match?":
                guard rest.count == 2, rest[1].type == TSQueryPredicateStepTypeString,
                      let p = try? SearchPattern(string(rest[1].value_id), options: SearchOptions(caseSensitivity: .sensitive))
                else { continue }
                result.append(.match(capture: first.value_id, pattern: p, negated: negated))
            case "any-of?", "not-any-of?":
                let texts = rest.dropFirst().filter { $0.type == TSQueryPredicateStepTypeString }.map { string($0.value_id) }
                result.append(.anyOf(capture: first.value_id, texts: Set(texts), negated: negated))
            default:
                continue  // `#set!`, `#is-not? local` and the like do not filter highlights here
            }
        }
        return result
    }

    private func holds(_ predicates: [Predicate], match: TSQueryMatch, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func text(_ capture: UInt32) -> String? {
            for k in 0..<Int(match.capture_count) where match.captures[k].index == capture {
                let node = match.captures[k].node
                let s = Int(ts_node_start_byte(node)), e = Int(ts_node_end_byte(node))
                guard s <= e, e <= bytes.count else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[s..<e]), as: UTF8.self)
            }
            return nil
        }
        for p in predicates {
            switch p {
            case .equal(let c, let t, let negated):
                guard let s = text(c) else { continue }
                if (s == t) == negated { return false }
            case .equalCaptures(let a, let b, let negated):
                guard let s = text(a), let t = text(b) else { continue }
                if (s == t) == negated { return false }
            case .match(let c, let pattern, let negated):
                guard let s = text(c) else { continue }
                if pattern.hasMatch(in: s) == negated { return false }
            case .anyOf(let c, let texts, let negated):
                guard let s = text(c) else { continue }
                if texts.contains(s) == negated { return false }
            }
        }
        return true
    }
}
