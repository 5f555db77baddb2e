/// Where the store lives. Pure: the environment is passed in.
public enum StoreLocation {
    /// The state directory:
    /// 1. `$FOLIO_STATE_DIR` if set and not empty;
    /// 2. `$XDG_STATE_HOME/folio` if `XDG_STATE_HOME` is an absolute path (the XDG rule:
    ///    relative values are ignored);
    /// 3. `$HOME/.local/state/folio` if `HOME` is absolute;
    /// nil otherwise (folio then reads and saves nothing, and says so once).
    public static func directory(environment: [String: String]) -> String? {
        if let dir = environment["FOLIO_STATE_DIR"], !dir.isEmpty { return dir }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return join(xdg, "folio") }
        if let home = environment["HOME"], home.hasPrefix("/") { return join(home, ".local/state/folio") }
        return nil
    }

    static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }
}
