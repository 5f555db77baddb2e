/// Options from the environment, as folio reads them before its command line:
/// `$LESS` (the options folio shares with less; git sets `LESS=FRX` and systemd
/// `LESS=FRSXMK` when it is unset) and `$FOLIO` (folio's own defaults, command-line syntax).
/// The command line comes last, so its flags win.
public enum Invocation {
    /// The arguments folio runs with: `$LESS`'s shared options, `$FOLIO`'s words, then the
    /// command line.
    public static func arguments(commandLine: [String], environment: [String: String]) -> [String] {
        var result: [String] = []
        if let less = environment["LESS"] { result += lessArguments(less) }
        if let own = environment["FOLIO"] { result += ShellWords.split(own) }
        return result + commandLine
    }

    /// less's options that folio shares, as folio's flags: F R S X i I N j z x K (R is
    /// always on in folio: styles in text are shown, never passed through; K, M and
    /// prompt options are accepted and ignored). Unknown letters are skipped, as less's
    /// own unknown options would be reported only on its command line.
    public static func lessArguments(_ value: String) -> [String] {
        let chars = Array(value)
        var out: [String] = []
        var i = 0
        /// The value after an option letter: the rest of the word (`-j5`, `-x4`, `-z-2`).
        func word() -> String {
            var w = ""
            while i < chars.count, chars[i] != " " { w.append(chars[i]); i += 1 }
            return w
        }
        /// A number after an option letter (`-j5`, `-x4,8`, `-z-2`, `-j.5`).
        func number() -> String {
            var w = ""
            while i < chars.count, chars[i].isNumber || chars[i] == "-" || chars[i] == "." || chars[i] == "," {
                w.append(chars[i]); i += 1
            }
            return w
        }
        while i < chars.count {
            let c = chars[i]
            i += 1
            switch c {
            case "-", " ", "\t": continue
            case "F": out.append("--quit-if-one-screen")
            case "S": out.append("--chop-long-lines")
            case "X": out.append("--no-init")
            case "i": out.append("--smart-case")
            case "I": out.append("--ignore-case")
            case "N": out.append("--line-numbers")
            case "j": let w = number(); if !w.isEmpty { out.append("--jump-target=" + w) }
            case "z": let w = number(); if Int(w) != nil { out.append("--window=" + w) }
            case "x": let w = number().split(separator: ",").first.map(String.init) ?? ""
                if let n = Int(w), n > 0 { out.append("--tabs=" + w) }
            // A prompt (`-Pm…`, man-db sets one) runs to a `$` (or the end), blanks included.
            case "P":
                while i < chars.count, chars[i] != "$" { i += 1 }
                i += 1
            // Options with a value folio does not use: skip the value too.
            case "b", "h", "y", "o", "O", "k", "p", "t", "T", "D", "#": _ = word()
            default: continue  // R, r, K, M, m, q, Q, s, e, E, and the rest
            }
        }
        return out
    }
}

/// Splits a string into words as a POSIX shell would for simple cases: blanks separate
/// words; single quotes keep everything; double quotes keep everything but `\"` and `\\`;
/// a backslash outside quotes escapes the next character. No expansion of any kind.
public enum ShellWords {
    public static func split(_ s: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var it = Array(s)
        var i = 0
        it.append(" ")
        while i < it.count {
            let c = it[i]
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                i += 1
                while i < it.count - 1, it[i] != "'" { current.append(it[i]); i += 1 }
            case "\"":
                inWord = true
                i += 1
                while i < it.count - 1, it[i] != "\"" {
                    if it[i] == "\\", i + 1 < it.count - 1, it[i + 1] == "\"" || it[i + 1] == "\\" { i += 1 }
                    current.append(it[i]); i += 1
                }
            case "\\":
                inWord = true
                if i + 1 < it.count - 1 { i += 1; current.append(it[i]) }
            default:
                inWord = true
                current.append(c)
            }
            i += 1
        }
        return words
    }
}
