import CellWidth

/// Where following a link leads, decided before anything is started (pure).
///
/// Only what a reader expects leaves folio: `http`, `https` and `mailto` go to the browser,
/// local files open in folio itself (Markdown rendered, anything else as text: a README's
/// `LICENSE`, `src/main.c#L42`), `#fragment` jumps to a heading. Everything else
/// (`javascript:`, `ssh:`, a local file that is plainly not text, such as `logo.png`) is only
/// shown on the status line. Reading a file the reader chose to follow changes nothing
/// outside; the run loop opens regular files only (never a FIFO or a device, which could
/// block or never end) and refuses a file whose first bytes hold a NUL (binary).
enum LinkTarget: Equatable {
    /// `#fragment`: a heading of the current document (fragment as written, percent escapes kept).
    case heading(String)
    /// A local file, through folio; `path` relative to the current document's folder unless
    /// absolute. `fragment`: a heading of a Markdown file, `L42` (GitHub's line anchors,
    /// also `L42-L50`) a line of a text file.
    case localFile(path: String, fragment: String?)
    /// A web or mail address for the user's browser. Never starts with `-`, and holds no
    /// control character: those are percent-encoded (`VisibleControls.percentEncodingControls`), so an
    /// entity-decoded LF or ESC never reaches the browser's arguments or the clipboard raw.
    case external(String)
    /// A local picture (`logo.png`, an image's caption): for the system's viewer
    /// (`$BROWSER`, else `xdg-open`), as a web address is.
    case picture(path: String)
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
                self = .external(VisibleControls.percentEncodingControls(destination))
                return
            }
            if scheme == "file", let path = LinkTarget.filePath(destination, hostName: hostName) {
                self = LinkTarget.local(path, as: destination)
                return
            }
            self = .shown("Not opened (\(scheme): link): \(destination)")
            return
        }
        self = LinkTarget.local(destination, as: destination)
    }

    /// A link to a local file: opened in folio unless its name says it is not text.
    private static func local(_ destination: String, as written: String) -> LinkTarget {
        let (path, fragment) = localFile(destination)
        guard !path.isEmpty else { return .shown("Not opened: \(written)") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let ext = name[name.index(after: dot)...].lowercased()
            if pictureExtensions.contains(ext) { return .picture(path: path) }
            if binaryExtensions.contains(ext) { return .shown("Not a text file, not opened: \(written)") }
        }
        return .localFile(path: path, fragment: fragment)
    }

    /// Pictures, opened with the system's viewer.
    static let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tif", "tiff", "avif"]

    /// Extensions of files that are never text (images, archives, media, fonts, objects).
    static let binaryExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "icns", "tif", "tiff", "avif", "heic", "psd", "xcf",
        "pdf", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "war", "whl", "deb", "rpm",
        "exe", "dll", "so", "dylib", "a", "o", "class", "pyc", "wasm", "bin", "dmg", "iso",
        "mp3", "mp4", "m4a", "mov", "avi", "mkv", "webm", "ogg", "wav", "flac",
        "woff", "woff2", "ttf", "otf", "eot", "sqlite", "db",
    ]

    /// The line a text file's fragment names: `L42`, `L42-L50`, `L42C7` (GitHub's forms) → 42.
    static func line(fragment: String?) -> Int? {
        guard let fragment, fragment.first == "L" else { return nil }
        let digits = fragment.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
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

    /// Path and fragment of a link to a local file, query dropped, percent escapes decoded.
    static func localFile(_ destination: String) -> (path: String, fragment: String?) {
        var path = destination
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[path.index(after: hash)...])
            path = String(path[..<hash])
        }
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        return (path.removingPercentEscapes(), fragment)
    }
}
