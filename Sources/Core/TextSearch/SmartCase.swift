/// Whether a pattern asks for case-sensitive matching under `CaseSensitivity.smart`: true when
/// it contains an upper-case (or title-case) letter that the user typed as text.
///
/// For a regex, letters that are syntax do not count, so `\S+`, `\W`, `\p{Lu}`, `\x{C9}`,
/// `(?<Name>…)`, `\k<Name>`, `(*UTF)` and `[[:Alpha:]]`-style class names stay insensitive.
/// Text quoted with `\Q…\E` counts, and so does an escaped non-ASCII letter (`\É` is literal).
func patternRequestsCaseSensitivity(_ pattern: String, mode: SearchMode) -> Bool {
    let scalars = Array(pattern.unicodeScalars)
    switch mode {
    case .literal:
        return scalars.contains(where: isUpperCase)
    case .regex:
        return regexTextContainsUpperCase(scalars)
    }
}

private func isUpperCase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.changesWhenLowercased
}

/// Skips regex syntax and reports whether any remaining literal letter is upper case.
private func regexTextContainsUpperCase(_ s: [Unicode.Scalar]) -> Bool {
    var i = 0
    var quoted = false  // inside \Q…\E
    /// Index just past the first `closer` at or after `from` (or the end).
    func skip(to closer: Unicode.Scalar, from: Int) -> Int {
        var j = from
        while j < s.count, s[j] != closer { j += 1 }
        return min(j + 1, s.count)
    }
    while i < s.count {
        let c = s[i]
        if quoted {
            if c == "\\", i + 1 < s.count, s[i + 1] == "E" { quoted = false; i += 2; continue }
            if isUpperCase(c) { return true }
            i += 1
            continue
        }
        switch c {
        case "\\":
            guard i + 1 < s.count else { return false }
            let e = s[i + 1]
            if e == "Q" { quoted = true; i += 2; continue }
            if e == "c" { i += 3; continue }  // \cX: control character
            if e.isASCII, e.properties.isAlphabetic {
                // \p{..} \x{..} \N{..} \g{..} \k<..> \k'..' \o{..}: skip the braced argument.
                if i + 2 < s.count, ["{", "<", "'"].contains(s[i + 2]) {
                    let closer: Unicode.Scalar = s[i + 2] == "{" ? "}" : (s[i + 2] == "<" ? ">" : "'")
                    i = skip(to: closer, from: i + 3)
                } else if (e == "p" || e == "P"), i + 2 < s.count {
                    i += 3  // \pL: one-letter property
                } else {
                    i += 2  // \S, \W, \B, \A, \Z, \G, \K, \R, \X, \H, \V, \N, \E, \D …
                }
                continue
            }
            // An escaped non-letter or non-ASCII character is itself literal text.
            if isUpperCase(e) { return true }
            i += 2
        case "(":
            if i + 1 < s.count, s[i + 1] == "*" { i = skip(to: ")", from: i + 2); continue }
            if i + 1 < s.count, s[i + 1] == "?" {
                // Named groups and references: (?<Name> (?'Name' (?P<Name> (?P=Name) (?P>Name) (?&Name)
                var j = i + 2
                if j < s.count, s[j] == "P" { j += 1 }
                if j < s.count, ["<", "'", "=", ">", "&"].contains(s[j]) {
                    let opener = s[j]
                    // (?<= and (?<! are lookbehinds, not names.
                    if opener == "<", j + 1 < s.count, s[j + 1] == "=" || s[j + 1] == "!" {
                        i = j + 2
                        continue
                    }
                    let closer: Unicode.Scalar = opener == "<" ? ">" : (opener == "'" ? "'" : ")")
                    i = skip(to: closer, from: j + 1)
                    continue
                }
                // Option settings, callouts and recursion: (?i) (?U) (?J-x: (?C1) (?R) (?+1)
                while j < s.count, s[j] != ")", s[j] != ":" { j += 1 }
                i = j
                continue
            }
            i += 1
        case "[":
            // POSIX class names inside brackets: [:alpha:]
            if i + 1 < s.count, s[i + 1] == ":" {
                i = skip(to: "]", from: i + 2)
                continue
            }
            i += 1
        default:
            if isUpperCase(c) { return true }
            i += 1
        }
    }
    return false
}
