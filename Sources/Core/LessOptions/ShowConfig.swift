/// `folio --show-config`: every setting, its value and where it came from, then what the
/// config file's `[markdown]` and `[text]` sections change.
public enum ShowConfig {
    /// `configFile`: the config file's path and what became of it (`read`, `not found`,
    /// `not read (--no-config)`).
    public static func text(_ invocation: Invocation, configFile: String, extra: [String] = []) -> String {
        var out = """
            # folio's settings and where each came from (folio --show-config)
            # precedence: default < config file < $LESS < $FOLIO < command line
            # config file: \(configFile)

            """
        for line in extra { out += "# \(line)\n" }
        out += "\n"
        out += rows(invocation.options.settings, origins: invocation.origins[.all] ?? [:], only: nil)
        for section in [ConfigFile.Section.markdown, .text] {
            let options = section == .markdown ? invocation.markdownOptions : invocation.textOptions
            let base = Dictionary(invocation.options.settings.map { ($0.name, $0.value) }) { a, _ in a }
            let changed = Set(options.settings.filter { base[$0.name] != $0.value }.map(\.name))
            out += "\n[\(section.rawValue)]"
            out += changed.isEmpty ? "  # as above\n" : "\n"
            out += rows(options.settings, origins: invocation.origins[section] ?? [:], only: changed)
        }
        return out
    }

    static func rows(_ settings: [(name: String, value: String)], origins: [String: String], only: Set<String>?) -> String {
        let nameWidth = settings.map(\.name.count).max() ?? 0
        let valueWidth = settings.map(\.value.count).max() ?? 0
        var out = ""
        for (name, value) in settings where only?.contains(name) ?? true {
            let origin = origins[name] ?? "default"
            out += name.padding(nameWidth) + "  " + value.padding(valueWidth) + "  " + origin + "\n"
        }
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
