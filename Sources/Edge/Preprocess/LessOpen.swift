/// less's input preprocessor, `LESSOPEN`, read as less reads it (less(1), INPUT PREPROCESSOR;
/// `open_altfile` in less's filename.c):
///
/// - `cmd %s`: the command prints the name of a *replacement file*, shown instead of the file
///   (under the file's own name); nothing printed, and the file itself is shown.
/// - `|cmd %s`: an *input pipe*: what the command writes is the file's content; nothing
///   written, and the file itself is shown (the exit status is not looked at).
/// - `||cmd %s`: the same, except that a command that writes nothing and exits 0 means the
///   content is empty; written output is used whatever the status (less cannot know it
///   before the output ends, and neither does folio).
/// - A `-` after the bars (`-cmd`, `|-cmd`, `||-cmd`) applies the preprocessor to standard
///   input too, named `-`; otherwise standard input is never preprocessed.
///
/// `%s` must occur exactly once and is replaced by the file's name as given, shell-quoted as
/// less quotes it (`ShellQuote`); `%%` is one `%`; any other `%` makes the value invalid, and
/// less ignores it then ("LESSOPEN ignored: must contain exactly one %s").
public struct LessOpen: Equatable, Sendable {
    public enum Form: Equatable, Sendable {
        /// `cmd %s`: prints a replacement file's name.
        case replacementName
        /// `|cmd %s`: its output is the content.
        case pipe
        /// `||cmd %s`: and no output with exit status 0 is empty content.
        case pipeWithStatus
    }

    public var form: Form
    /// A `-` after the bars: standard input is preprocessed too.
    public var appliesToStandardInput: Bool
    /// The command with its `%s` (and `%%`) still in it.
    public var template: String

    public static let invalidMessage = "LESSOPEN ignored: must contain exactly one %s"

    /// Reads `LESSOPEN`'s value: nil when it is empty (as unset), `.failure` when it is not
    /// one command with exactly one `%s`.
    public static func parse(_ value: String) -> Result<LessOpen, InvalidTemplate>? {
        guard !value.isEmpty else { return nil }
        var rest = Substring(value)
        var bars = 0
        while rest.first == "|" { bars += 1; rest = rest.dropFirst() }
        let stdin = rest.first == "-"
        if stdin { rest = rest.dropFirst() }
        guard Template.count(of: rest) == 1 else { return .failure(InvalidTemplate(message: invalidMessage)) }
        let form: Form = bars == 0 ? .replacementName : (bars == 1 ? .pipe : .pipeWithStatus)
        return .success(LessOpen(form: form, appliesToStandardInput: stdin, template: String(rest)))
    }

    /// Whether the file named `argument` (`-`: standard input) is given to the preprocessor.
    public func applies(to argument: String) -> Bool {
        argument != "-" || appliesToStandardInput
    }

    /// The shell command for the file named `name` (its bytes, as given; `-` for standard input).
    public func command(for name: [UInt8]) -> [UInt8] {
        Template.expand(template, [ShellQuote.quote(name)])
    }
}

/// less's input postprocessor, `LESSCLOSE`, run when folio is done with a file that `LESSOPEN`
/// replaced: its first `%s` is the original file's name, its second the replacement file's
/// (`-` for an input pipe's output), both shell-quoted. At most two `%s`, no other `%`
/// escapes but `%%`; otherwise less ignores it ("LESSCLOSE ignored; must contain no more
/// than 2 %s").
public struct LessClose: Equatable, Sendable {
    public var template: String
    public static let invalidMessage = "LESSCLOSE ignored; must contain no more than 2 %s"

    /// Nil when the value is empty (as unset).
    public static func parse(_ value: String) -> Result<LessClose, InvalidTemplate>? {
        guard !value.isEmpty else { return nil }
        guard Template.count(of: Substring(value)) <= 2 else { return .failure(InvalidTemplate(message: invalidMessage)) }
        return .success(LessClose(template: value))
    }

    public func command(original: [UInt8], replacement: [UInt8]) -> [UInt8] {
        Template.expand(template, [ShellQuote.quote(original), ShellQuote.quote(replacement)])
    }
}

/// A `LESSOPEN` or `LESSCLOSE` that less would ignore, with less's words for it.
public struct InvalidTemplate: Error, Equatable, Sendable {
    public var message: String
}

/// The `printf`-style templates of `LESSOPEN` and `LESSCLOSE`.
enum Template {
    /// The number of `%s` in `template`; `Int.max` when it has another `%` escape (less counts
    /// it as 999: never valid).
    static func count(of template: Substring) -> Int {
        var count = 0
        var i = template.utf8.startIndex
        let bytes = template.utf8
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%") {
                let next = bytes.index(after: i)
                guard next < bytes.endIndex else { return .max }
                if bytes[next] == UInt8(ascii: "s") {
                    count += 1
                } else if bytes[next] != UInt8(ascii: "%") {
                    return .max
                }
                i = bytes.index(after: next)
            } else {
                i = bytes.index(after: i)
            }
        }
        return count
    }

    /// `template` with each `%s` replaced by the next of `arguments` (an empty string once
    /// they run out) and each `%%` by `%`, as bytes.
    static func expand(_ template: String, _ arguments: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        var next = 0
        let bytes = Array(template.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 1 < bytes.count {
                if bytes[i + 1] == UInt8(ascii: "s") {
                    if next < arguments.count { out += arguments[next] }
                    next += 1
                    i += 2
                    continue
                }
                if bytes[i + 1] == UInt8(ascii: "%") {
                    out.append(UInt8(ascii: "%"))
                    i += 2
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }
}

/// File names quoted for the shell as less quotes them (`shell_quote`, with Unix less's
/// defaults): a backslash before each shell metacharacter, and a newline, which a backslash
/// would swallow, inside double quotes. Bytes that are not ASCII pass as they are.
public enum ShellQuote {
    /// less's `DEF_METACHARS` on Unix (its `LESSMETACHARS` default).
    public static let metacharacters: [UInt8] = Array("; *?\t\n'\"()<>[]|&^`#\\$%=~{},".utf8)

    public static func quote(_ name: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.count + 8)
        for b in name {
            if b == 0x0A {
                out += [UInt8(ascii: "\""), b, UInt8(ascii: "\"")]
            } else if metacharacters.contains(b) {
                out += [UInt8(ascii: "\\"), b]
            } else {
                out.append(b)
            }
        }
        return out
    }
}
