/// Where following a link leads, decided before anything is started (pure).
///
/// Only what a reader expects leaves folio: `http`, `https` and `mailto` go to the browser,
/// Markdown files open in folio itself, `#fragment` jumps to a heading. Everything else
/// (`javascript:`, `ssh:`, `file:` of a non-Markdown file, a bare word such as `--new-window`
/// that a browser would take for an option) is only shown on the status line.
enum LinkTarget: Equatable {
    /// `#fragment`: a heading of the current document (fragment as written, percent escapes kept).
    case heading(String)
    /// A Markdown file, through folio; `path` relative to the current document's folder unless absolute.
    case markdownFile(path: String, fragment: String?)
    /// A web or mail address for the user's browser. Never starts with `-`.
    case external(String)
    /// Not opened; the message says why.
    case shown(String)

    static let externalSchemes: Set<String> = ["http", "https", "mailto"]

    /// `hostName`: this machine's name; `file://` URLs naming it are local (`ls --hyperlink`
    /// and gcc write `file://HOST/path`).
    init(_ destination: String, hostName: String? = nil) {
        if destination.hasPrefix("#") {
            self = .heading(String(destination.dropFirst()))
            return
        }
        if let scheme = LinkTarget.scheme(of: destination) {
            if LinkTarget.externalSchemes.contains(scheme) {
                self = .external(destination)
                return
            }
            if scheme == "file", let path = LinkTarget.filePath(destination, hostName: hostName),
               let local = LinkTarget.markdownFile(path) {
                self = .markdownFile(path: local.path, fragment: local.fragment)
                return
            }
            self = .shown("Not opened (\(scheme): link): \(destination)")
            return
        }
        if let local = LinkTarget.markdownFile(destination) {
            self = .markdownFile(path: local.path, fragment: local.fragment)
            return
        }
        self = .shown("Not a Markdown file, not opened: \(destination)")
    }

    /// The lower-cased scheme of a URL (RFC 3986: a letter, then letters, digits, `+`, `-`,
    /// `.`, then `:`), or nil when `s` has none (a relative path).
    static func scheme(of s: String) -> String? {
        var scheme = ""
        for u in s.unicodeScalars {
            if u == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            let isLetter = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z")
            let isOther = (u >= "0" && u <= "9") || u == "+" || u == "-" || u == "."
            guard isLetter || (!scheme.isEmpty && isOther) else { return nil }
            scheme.unicodeScalars.append(u)
        }
        return nil
    }

    /// The path of a `file:` URL (`file:///p`, `file://localhost/p`, `file://HOST/p` for this
    /// machine's `hostName`, `file:/p`), nil for another host.
    static func filePath(_ url: String, hostName: String? = nil) -> String? {
        var rest = Substring(url.dropFirst("file:".count))
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let host = rest.prefix { $0 != "/" }.lowercased()
            guard host.isEmpty || host == "localhost" || host == hostName?.lowercased() else { return nil }
            rest = rest.drop { $0 != "/" }
        }
        guard rest.hasPrefix("/") else { return nil }
        return String(rest)
    }

    /// Path and fragment of a link to a Markdown file (`.md`, `.markdown`, `.mdown`), query
    /// dropped, percent escapes decoded; nil for any other file.
    static func markdownFile(_ destination: String) -> (path: String, fragment: String?)? {
        var path = destination
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[path.index(after: hash)...])
            path = String(path[..<hash])
        }
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        let lower = path.lowercased()
        guard lower.hasSuffix(".md") || lower.hasSuffix(".markdown") || lower.hasSuffix(".mdown") else { return nil }
        return (path.removingPercentEscapes(), fragment)
    }
}
