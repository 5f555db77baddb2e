/// Language names as fenced code blocks write them (the info string's first word), reduced
/// to the grammar that highlights them: `sh`, `shell`, `console` → `bash`; `py` → `python`.
public enum Languages {
    /// Grammars folio knows how to fetch and build (`scripts/build-grammars.sh`), plus `diff`,
    /// which needs no grammar.
    public static let supported: [String] = [
        "bash", "c", "cpp", "css", "diff", "dockerfile", "go", "html", "java", "javascript", "json",
        "kotlin", "lua", "make", "markdown", "python", "ruby", "rust", "sql", "swift", "toml",
        "typescript", "yaml",
    ]

    static let aliases: [String: String] = [
        "sh": "bash", "shell": "bash", "console": "bash", "shellsession": "bash", "zsh": "bash", "ksh": "bash",
        "bash": "bash",
        "c": "c", "h": "c",
        "cpp": "cpp", "c++": "cpp", "cxx": "cpp", "cc": "cpp", "hpp": "cpp", "hh": "cpp",
        "css": "css",
        "diff": "diff", "patch": "diff", "udiff": "diff",
        "dockerfile": "dockerfile", "docker": "dockerfile", "containerfile": "dockerfile",
        "go": "go", "golang": "go",
        "html": "html", "htm": "html", "xhtml": "html",
        "java": "java",
        "javascript": "javascript", "js": "javascript", "jsx": "javascript", "mjs": "javascript",
        "cjs": "javascript", "node": "javascript",
        "json": "json", "jsonc": "json", "json5": "json", "geojson": "json",
        "kotlin": "kotlin", "kt": "kotlin", "kts": "kotlin",
        "lua": "lua",
        "make": "make", "makefile": "make", "mk": "make", "mak": "make",
        "markdown": "markdown", "md": "markdown", "mdown": "markdown", "mkd": "markdown",
        "python": "python", "py": "python", "python3": "python", "py3": "python", "pyi": "python",
        "ruby": "ruby", "rb": "ruby", "gemspec": "ruby", "rake": "ruby",
        "rust": "rust", "rs": "rust",
        "sql": "sql", "mysql": "sql", "postgresql": "sql", "postgres": "sql", "sqlite": "sql", "psql": "sql",
        "swift": "swift",
        "toml": "toml",
        "typescript": "typescript", "ts": "typescript", "mts": "typescript", "cts": "typescript",
        "yaml": "yaml", "yml": "yaml",
    ]

    /// The grammar name for an info string (`"Python {.numberLines}"`, `"{.rust}"`,
    /// `"language-js"`), nil when folio has none for it.
    public static func canonical(info: String) -> String? {
        guard var word = info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).first else { return nil }
        if word.hasPrefix("{") { word = word.dropFirst() }
        if word.hasPrefix(".") { word = word.dropFirst() }
        if word.hasSuffix("}") { word = word.dropLast() }
        var name = word.lowercased()
        if name.hasPrefix("language-") { name.removeFirst("language-".count) }
        return aliases[name]
    }

    /// The grammar for a file name's extension (or a whole name: `Makefile`, `Dockerfile`).
    public static func canonical(fileName: String) -> String? {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let lower = base.lowercased()
        if lower == "makefile" || lower == "gnumakefile" { return "make" }
        if lower == "dockerfile" || lower == "containerfile" || lower.hasPrefix("dockerfile.") { return "dockerfile" }
        guard let dot = lower.lastIndex(of: "."), dot != lower.startIndex else { return nil }
        return aliases[String(lower[lower.index(after: dot)...])]
    }
}
