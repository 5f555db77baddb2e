import Styling

/// Diffs are coloured by line, as `git diff` colours them: what a diff's lines are is said by
/// their first characters, so no grammar is needed.
///
/// - `+` added, `-` removed (`+++`/`---` file headers are meta);
/// - `@@` hunk headers, `diff `, `index `, `---`, `+++` and other header lines: meta;
/// - context lines (a space) and anything else: no role.
public enum DiffRuns {
    public static func runs(_ code: String) -> [SyntaxRun] {
        var runs: [SyntaxRun] = []
        var start = 0
        let bytes = Array(code.utf8)
        func role(_ line: ArraySlice<UInt8>) -> SyntaxRole? {
            func starts(_ p: String) -> Bool { line.starts(with: p.utf8) }
            if starts("+++ ") || starts("--- ") || starts("@@") || starts("diff ") || starts("index ") { return .meta }
            if starts("+") { return .inserted }
            if starts("-") { return .deleted }
            return nil
        }
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end > start, let r = role(bytes[start..<end]) { runs.append(SyntaxRun(range: start..<end, role: r)) }
            start = end + 1
        }
        return runs
    }
}
