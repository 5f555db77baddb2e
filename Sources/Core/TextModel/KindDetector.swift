/// The two kinds of document folio shows: Markdown is parsed and laid out as a document; text is
/// shown line by line, as written (with `less -R`-style escapes, see `TerminalTextDecoder`).
public enum DocumentKind: String, Sendable {
    case markdown
    case text
}

/// Chooses a document's kind from its file name, or from its first bytes.
///
/// 1. `kind(forPath:)`: a Markdown extension (`.md .markdown .mdown .mkd .mkdn .mdwn .mdx`, any
///    case) gives Markdown; another known extension (source code, data, logs, patches — see
///    `textExtensions`) gives text; no extension or an unknown one gives nil: sniff.
/// 2. `sniff(_:)` for those files and standard input: see its rule.
public enum KindDetector {
    /// Extensions of Markdown files (lowercase, without the dot).
    public static let markdownExtensions = Set(markdownExtensionList)
    private static let markdownExtensionList = ["md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "mdx"]

    /// Extensions of files that are text, not Markdown (lowercase, without the dot).
    public static let textExtensions: Set<String> = [
        // Plain text, logs, patches.
        "txt", "text", "log", "out", "err", "diff", "patch", "rej", "orig",
        // Other markup shown as written.
        "rst", "adoc", "asciidoc", "org", "tex", "latex", "bib", "sty", "cls", "texi", "pod", "rdoc",
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "man", "roff", "nroff", "ms", "me",
        // Data and configuration.
        "json", "jsonl", "ndjson", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "config", "properties",
        "env", "csv", "tsv", "psv", "xml", "xsd", "xsl", "plist", "html", "htm", "xhtml", "svg", "css", "scss",
        "sass", "less", "sql", "graphql", "gql", "proto", "lock", "sum", "mod", "desktop", "service", "socket",
        "timer", "rules", "list", "srt", "vtt", "gitignore", "gitattributes", "editorconfig",
        // Source code.
        "c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "inl", "ipp", "m", "mm",
        "swift", "py", "pyi", "pyw", "pyx", "rb", "rake", "gemspec", "pl", "pm", "t", "php", "phtml",
        "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte", "java", "kt", "kts", "scala", "sc",
        "groovy", "gradle", "clj", "cljs", "cljc", "edn", "go", "rs", "cs", "fs", "fsi", "fsx", "vb",
        "lua", "r", "jl", "hs", "lhs", "ml", "mli", "elm", "el", "lisp", "scm", "ss", "rkt", "ex", "exs",
        "erl", "hrl", "dart", "zig", "nim", "v", "sv", "vhd", "vhdl", "d", "f", "f90", "f95", "for", "pas",
        "ada", "adb", "ads", "asm", "s", "cob", "tcl", "awk", "sed", "vim", "cmake", "mk", "mak", "make",
        "ninja", "bzl", "bazel", "nix", "dhall", "tf", "hcl", "sol", "wat", "ll", "cu", "cuh", "glsl",
        "hlsl", "metal", "ps1", "psm1", "bat", "cmd", "sh", "bash", "zsh", "fish", "ksh", "csh", "tcsh",
        "dockerfile", "containerfile", "ipynb",
    ]

    /// The kind a file's name says, or nil when it does not tell (no extension, an unknown one):
    /// then the caller sniffs the first bytes. Only the last path component counts; a leading dot
    /// (`.bashrc`) is not an extension.
    public static func kind(forPath path: String) -> DocumentKind? {
        guard let ext = lowercasedExtension(path) else { return nil }
        if markdownExtensions.contains(ext) { return .markdown }
        if textExtensions.contains(ext) { return .text }
        return nil
    }

    /// Whether a path, given as its bytes, is named like Markdown: `kind(forPath:)` is
    /// `.markdown`. An ASCII path is answered without hashing or decoding (the launch asks
    /// before anything else has run: `EarlyPreview`).
    public static func namesMarkdown(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !path.contains(where: { $0 >= 0x80 }) else {
            return kind(forPath: String(decoding: path, as: UTF8.self)) == .markdown
        }
        return asciiExtension(path).map { markdownExtensionList.contains($0) } ?? false
    }

    /// The extension of a path's last component, lowercased, or nil when it has none. An ASCII
    /// path (nearly every one) is read as bytes, which is what the general way below gives for
    /// it: the launch asks this before anything else has run (`EarlyPreview`), when splitting
    /// strings is 50 µs of first-use cost.
    static func lowercasedExtension(_ path: String) -> String? {
        var isASCII = false
        let byBytes: String? = path.utf8.withContiguousStorageIfAvailable { bytes in
            isASCII = !bytes.contains { $0 >= 0x80 }
            return isASCII ? asciiExtension(bytes) : nil
        } ?? nil
        if isASCII { return byBytes }
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    private static func asciiExtension(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }  // (empty components)
        var start = end
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        var dot = end
        while dot > start, bytes[dot - 1] != UInt8(ascii: ".") { dot -= 1 }
        guard dot > start + 1 else { return nil }  // no dot, or only a leading one
        let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
        return String(decoding: bytes[dot..<end].map { upper.contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
