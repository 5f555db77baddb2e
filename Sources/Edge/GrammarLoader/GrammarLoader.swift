// Effects at the edge: finds grammar files, dlopens them, reads their queries.
import Highlight
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// Loads tree-sitter grammars built by `scripts/build-grammars.sh`: `DIR/NAME.so` (exporting
/// `tree_sitter_NAME`) and `DIR/NAME.scm` (its highlight query), on first use of each
/// language, from the first directory of the search path that has them.
///
/// Search path, first match wins:
/// 1. `$FOLIO_GRAMMARS` (directories separated by `:`);
/// 2. `EXE/../lib/folio/grammars` (what `make install` puts beside `PREFIX/bin/folio`);
/// 3. `EXE/../../.build-grammars`, `EXE/../../../.build-grammars` (a build in a checkout:
///    `.build/debug/folio`, really `.build/<triple>/debug/folio`; the test bundle sits beside
///    it, so `swift test` finds them the same way);
/// 4. `$XDG_DATA_HOME/folio/grammars` (default `~/.local/share`), then each of
///    `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`) + `/folio/grammars`.
///
/// tree-sitter's runtime is loaded from the same directory as the first grammar
/// (`tree-sitter-runtime.so`, built with them). A grammar that is missing, fails to load, or
/// whose query does not compile (or a directory without the runtime) is remembered as
/// missing: its code is shown as it is, silently.
public final class GrammarLoader: Sendable {
    public let searchPath: [String]
    private let loaded = Locked<[String: Grammar?]>([:])

    public init(searchPath: [String]) { self.searchPath = searchPath }

    /// The search path for an executable in `executableDirectory`, with `environment`.
    public static func searchPath(executableDirectory: String, environment: [String: String]) -> [String] {
        var dirs: [String] = []
        if let env = environment["FOLIO_GRAMMARS"], !env.isEmpty {
            dirs += env.split(separator: ":").map(String.init)
        }
        func beside(_ relative: String) -> String { Platform.lexicallyNormalized(executableDirectory + "/" + relative) }
        dirs.append(beside("../lib/folio/grammars"))
        dirs.append(beside("../../.build-grammars"))
        // `.build/debug` is a link to `.build/<triple>/debug`, and /proc/self/exe resolves it.
        dirs.append(beside("../../../.build-grammars"))
        let home = environment["HOME"] ?? ""
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home + "/.local/share")
        dirs.append(dataHome + "/folio/grammars")
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for d in dataDirs.split(separator: ":") where d.hasPrefix("/") { dirs.append(d + "/folio/grammars") }
        return dirs
    }

    /// The loader for this process: its executable's directory, and `environment` (the process's).
    public static func forThisProcess(environment: [String: String]) -> GrammarLoader {
        let exe = Platform.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
        var dir = exe.hasPrefix("/") ? exe : Platform.currentDirectory() + "/" + exe
        dir = String(dir[..<(dir.lastIndex(of: "/") ?? dir.endIndex)])
        return GrammarLoader(searchPath: searchPath(executableDirectory: dir.isEmpty ? "/" : dir, environment: environment))
    }

    /// The grammar named `name` (a canonical language name), loaded on first use.
    public func grammar(_ name: String) -> Grammar? {
        loaded.withLock { loaded in
            if let known = loaded[name] { return known }
            let g = load(name)
            loaded[name] = .some(g)
            return g
        }
    }

    /// Languages whose grammar files are on the search path (not loaded).
    public func available() -> [String] {
        Languages.supported.filter { name in
            name == "diff" || searchPath.contains { Platform.fileExists("\($0)/\(name).so") }
        }
    }

    /// Why tree-sitter's runtime could not be loaded from the directory of the first grammar
    /// found (nil: loaded, or not tried yet).
    public var runtimeProblem: String? { problems.withLock { $0 } }
    private let problems = Locked<String?>(nil)

    /// The runtime beside the grammars, loaded once (the first directory holding a grammar
    /// asked for: grammars and runtime are built together, `scripts/build-grammars.sh`).
    private func loadRuntime(from dir: String) -> Bool {
        if Grammar.runtimeLoaded { return true }
        let path = "\(dir)/\(Self.runtimeFile)"
        let problem = Platform.fileExists(path) ? Grammar.loadRuntime(at: path) : "is missing"
        problems.withLock { $0 = problem.map { "\(path) \($0)" } }
        return problem == nil
    }

    /// tree-sitter's runtime in a grammar directory.
    public static let runtimeFile = "tree-sitter-runtime.so"

    private func load(_ name: String) -> Grammar? {
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        for dir in searchPath {
            let so = "\(dir)/\(name).so", scm = "\(dir)/\(name).scm"
            guard Platform.fileExists(so), loadRuntime(from: dir),
                  let query = Platform.readSmallFile(scm).flatMap({ String(validating: $0, as: UTF8.self) }) else { continue }
            // Kept open for the life of the process: the language is static data of the object.
            guard let handle = dlopen(so, RTLD_NOW | RTLD_LOCAL),
                  let symbol = dlsym(handle, "tree_sitter_\(name)") else { continue }
            typealias LanguageFunction = @convention(c) () -> OpaquePointer?
            let function = unsafeBitCast(symbol, to: LanguageFunction.self)
            guard let language = function() else { continue }
            if let g = try? Grammar(name: name, language: language, highlights: query) { return g }
        }
        return nil
    }

    /// A highlighter for layout, loading grammars from this loader.
    public func highlighter() -> Highlighter {
        Highlighter { [self] name in grammar(name) }
    }
}
