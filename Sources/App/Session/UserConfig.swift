import LessOptions
import Pager
#if canImport(Glibc)
import Glibc
#endif

/// The user's files, read at the start: the config file, key bindings (the lesskey source,
/// folio's keys file) and theme files (`ConfigPaths` says where; LessOptions and Pager read
/// what they hold). `--no-config` reads none of them.
public enum UserConfig {
    /// A small text file's contents; nil when it does not exist, with the reason otherwise.
    static func readFile(_ path: String) -> (text: String?, problem: String?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            return (nil, e == ENOENT ? nil : "cannot read \(path): \(String(cString: strerror(e)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return (nil, "cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        return (String(decoding: bytes.prefix(limit), as: UTF8.self), nil)
    }

    /// Bytes read of a config, keys or theme file at most (they are a few KB).
    static let limit = 1 << 20

    /// The options with the config file (unless `--no-config` is in `$FOLIO` or on the
    /// command line), and what became of the file, for `--show-config`.
    public static func invocation(commandLine: [String], environment: [String: String]) -> (Invocation, configStatus: String) {
        var plain = Invocation(commandLine: commandLine, less: environment["LESS"], folio: environment["FOLIO"])
        guard let (path, named) = ConfigPaths(environment: environment).configFile else { return (plain, "none ($HOME is not set)") }
        if plain.options.noConfig { return (plain, "\(path) (not read: --no-config)") }
        // The lesskey file's #env LESS wins over the environment's, as in less (lgetenv).
        var less = environment["LESS"]
        var lessNote = ""
        if let file = keyFiles(environment: environment, noConfig: false).files.last(where: {
               !$0.folioActions && $0.variables.contains { $0.name == "LESS" } }),
           let variable = file.variables.last(where: { $0.name == "LESS" }) {
            less = variable.value
            lessNote = "; $LESS from \(file.name):\(variable.line) (#env)"
            plain = Invocation(commandLine: commandLine, less: less, folio: environment["FOLIO"])
        }
        let (text, problem) = readFile(path)
        guard let text else {
            var inv = plain
            if let problem { inv.warnings.insert(problem, at: 0) }
            else if named { inv.warnings.insert("$FOLIO_CONFIG: \(path) does not exist", at: 0) }
            return (inv, "\(path) (\(problem == nil ? "not found" : "unreadable"))" + lessNote)
        }
        let config = ConfigFile(name: path, text: text)
        return (Invocation(commandLine: commandLine, less: less, folio: environment["FOLIO"], config: config),
                "\(path) (read)" + lessNote)
    }

    /// The key files: the first lesskey source that exists (as less looks for it), then
    /// folio's keys file; with what became of each, for `--show-keys`.
    static func keyFiles(environment: [String: String], noConfig: Bool) -> (files: [Lesskey], status: [String]) {
        let paths = ConfigPaths(environment: environment)
        if noConfig { return ([], ["no key files read (--no-config)"]) }
        var files: [Lesskey] = []
        var status: [String] = []
        var lesskeyFound = false
        for path in paths.lesskeySources {
            let (text, problem) = readFile(path)
            if let problem { status.append("lesskey: \(problem)") }
            guard let text else { continue }
            files.append(Lesskey(name: path, text: text))
            status.append("lesskey: \(path) (read)")
            lesskeyFound = true
            break
        }
        if !lesskeyFound {
            // (A loop: `joined(separator:)` is generic in the standard library, and its first
            // call looks its types up at run time, before every first screen.)
            var line = "lesskey: none of "
            for (i, path) in paths.lesskeySources.enumerated() { line += (i > 0 ? ", " : "") + path }
            status.append(line + " exists")
        }
        // less's $LESSKEY_CONTENT, after the file (its bindings win, as in less).
        if let content = environment["LESSKEY_CONTENT"], !content.isEmpty {
            files.append(Lesskey(name: "$LESSKEY_CONTENT", content: content))
            status.append("lesskey: $LESSKEY_CONTENT (read)")
        }
        if let keys = paths.keysFile {
            let (text, problem) = readFile(keys)
            if let text {
                var file = Lesskey(name: keys, text: text)
                file.folioActions = true
                files.append(file)
                status.append("folio keys: \(keys) (read)")
            } else {
                status.append("folio keys: " + (problem ?? "\(keys) (not found)"))
            }
        }
        return (files, status)
    }

    /// The key bindings the files make (`#command`, and `#line-edit` for the prompt), and
    /// what was wrong in them.
    static func bindings(_ files: [Lesskey]) -> (KeyBindings, [String], lineEdits: KeyBindings) {
        var bindings = KeyBindings()
        var lineEdits = KeyBindings()
        var errors: [String] = []
        for file in files {
            errors += bindings.add(file)
            errors += lineEdits.addLineEdits(file)
        }
        return (bindings, errors, lineEdits)
    }

    /// The key files, what became of each, and the bindings they make.
    public struct Keys {
        public var files: [Lesskey]
        var status: [String]
        var bindings: KeyBindings
        var lineEdits: KeyBindings
        public var errors: [String]
    }

    public static func keys(environment: [String: String], noConfig: Bool) -> Keys {
        let (files, status) = keyFiles(environment: environment, noConfig: noConfig)
        let (bindings, errors, lineEdits) = self.bindings(files)
        return Keys(files: files, status: status, bindings: bindings, lineEdits: lineEdits, errors: errors)
    }

    /// `--show-config`, `--show-keys`, `--dump-theme=NAME`: writes what was asked and returns
    /// the exit status; nil when none was asked.
    public static func answer(_ invocation: Invocation, configStatus: String, keys: Keys, environment: [String: String]) -> Int32? {
        let options = invocation.options
        if options.showConfig {
            Swift.print(ShowConfig.text(invocation, configFile: configStatus, extra: keys.status), terminator: "")
            for warning in invocation.warnings { reportError(warning) }
            return 0
        }
        if options.showKeys {
            Swift.print(ShowKeys.text(keys.bindings, files: keys.status, lineEdits: keys.lineEdits), terminator: "")
            for error in keys.errors { reportError(error) }
            return 0
        }
        if let name = options.dumpTheme {
            let (palette, warnings) = theme(named: name, environment: environment, noConfig: options.noConfig)
            for warning in warnings { reportError(warning) }
            guard let palette else { return 1 }
            Swift.print(ThemeFile.dump(palette), terminator: "")
            return 0
        }
        return nil
    }

    /// A theme by name: `dark` and `light` are built in; another is the user's theme file.
    static func theme(named name: String, environment: [String: String], noConfig: Bool) -> (Palette?, [String]) {
        if name == "dark" { return (.dark, []) }
        if name == "light" { return (.light, []) }
        guard !noConfig else { return (nil, ["--theme=\(name): theme files are not read with --no-config"]) }
        guard let dir = ConfigPaths(environment: environment).themesDirectory else { return (nil, ["theme \(name): $HOME is not set"]) }
        let path = dir + "/" + name + "." + ConfigPaths.themeExtension
        let (text, problem) = readFile(path)
        guard let text else { return (nil, [problem ?? "theme \(name): \(path) does not exist"]) }
        let result = ThemeFile.read(name: name, text: text, fileName: path)
        return (result.palette, result.warnings)
    }

    /// `--theme=NAME`, `--dark-theme`, `--light-theme`: the palettes, and what was wrong.
    /// A named theme sets `options.theme` to its appearance; one that cannot be read leaves
    /// the built-in dark.
    static func themes(_ options: inout Options, environment: [String: String]) -> (UserThemes, [String]) {
        var themes = UserThemes()
        var warnings: [String] = []
        if let name = options.darkTheme {
            let (palette, w) = theme(named: name, environment: environment, noConfig: options.noConfig)
            themes.alternates[.dark] = palette
            warnings += w
        }
        if let name = options.lightTheme {
            let (palette, w) = theme(named: name, environment: environment, noConfig: options.noConfig)
            themes.alternates[.light] = palette
            warnings += w
        }
        if let name = options.themeName {
            let (palette, w) = theme(named: name, environment: environment, noConfig: options.noConfig)
            themes.named = palette
            if let palette { options.theme = palette.appearance == .dark ? .dark : .light }
            warnings += w
        }
        return (themes, warnings)
    }
}

/// The user's palettes: `--theme=NAME`'s, and those `auto` (and `dark`, `light`) use.
struct UserThemes {
    var named: Palette?
    var alternates: [Appearance: Palette] = [:]

    func palette(for appearance: Appearance) -> Palette {
        named ?? alternates[appearance] ?? .named(appearance)
    }
}
