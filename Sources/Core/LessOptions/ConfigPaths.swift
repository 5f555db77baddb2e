/// Where folio's own files and the user's lesskey source are, from the environment (pure: the
/// variables in, paths out; reading them is the caller's).
///
/// - the config file: `$FOLIO_CONFIG`, else `$XDG_CONFIG_HOME/folio/config`, else
///   `~/.config/folio/config` (`XDG_CONFIG_HOME` counts only when absolute, as the XDG
///   specification says);
/// - key bindings: the lesskey source less reads — `$LESSKEYIN`, else
///   `$XDG_CONFIG_HOME/lesskey`, `~/.config/lesskey`, `~/.lesskey`, the first that exists —
///   and `$LESSKEY_CONTENT`, then folio's own `folio/keys` beside the config file;
/// - themes: `folio/themes/NAME.theme` there.
public struct ConfigPaths: Equatable, Sendable {
    let environment: [String: String]

    public init(environment: [String: String]) { self.environment = environment }

    private func value(_ name: String) -> String? {
        guard let v = environment[name], !v.isEmpty else { return nil }
        return v
    }

    /// `$XDG_CONFIG_HOME` when absolute, else `~/.config`; nil without either.
    public var configHome: String? {
        if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") { return xdg }
        return value("HOME").map { $0 + "/.config" }
    }

    /// The config file, and whether a variable named it (then its absence is worth a word).
    public var configFile: (path: String, named: Bool)? {
        if let path = value("FOLIO_CONFIG") { return (path, true) }
        return configHome.map { ($0 + "/folio/config", false) }
    }

    /// Candidates for the user's lesskey source, in less's order: the first that exists is read.
    public var lesskeySources: [String] {
        if let path = value("LESSKEYIN") { return [path] }
        var paths: [String] = []
        if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") { paths.append(xdg + "/lesskey") }
        if let home = value("HOME") { paths += [home + "/.config/lesskey", home + "/.lesskey"] }
        return paths
    }

    /// folio's own key bindings (lesskey's format, folio's action names too).
    public var keysFile: String? { configHome.map { $0 + "/folio/keys" } }

    /// The folder of user themes.
    public var themesDirectory: String? { configHome.map { $0 + "/folio/themes" } }

    /// A user theme's file name: `NAME.theme`.
    public static let themeExtension = "theme"
}
