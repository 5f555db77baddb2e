import Styling

/// Capture names of `highlights.scm` queries (`keyword`, `string.special`, `function.method`,
/// nvim's `text.title`, helix's `markup.heading`) → `SyntaxRole`.
///
/// Names are dotted, most general first; the most specific known prefix decides
/// (`function.builtin` is `.builtin`, `function.method` is `.function`). A name with no known
/// prefix, and the helper names queries use for their own predicates (`_foo`, `none`,
/// `spell`), give nil: that capture colours nothing.
public enum CaptureRoles {
    /// Specific names first: the longest matching prefix (whole dotted components) wins.
    static let table: [String: SyntaxRole] = [
        // Keywords, and nvim's older names for kinds of keyword.
        "keyword": .keyword, "conditional": .keyword, "repeat": .keyword, "include": .keyword,
        "exception": .keyword, "storageclass": .keyword, "type.qualifier": .keyword,
        "keyword.directive": .label, "preproc": .label, "define": .label,
        // Strings and what is special inside them.
        "string": .string, "character": .string, "string.escape": .escape, "escape": .escape,
        "string.regex": .escape, "string.regexp": .escape, "string.special": .escape,
        "string.special.symbol": .constant, "string.special.key": .property,
        "string.special.url": .string, "string.special.path": .string,
        "embedded": .escape, "punctuation.special": .escape, "character.special": .escape,
        "comment": .comment,
        "number": .number, "float": .number,
        "boolean": .constant, "constant": .constant, "symbol": .constant,
        "constant.builtin": .constant,
        "type": .type, "constructor": .type, "namespace": .type, "module": .type,
        "type.builtin": .type,
        "function": .function, "method": .function, "function.builtin": .builtin,
        "function.macro": .function,
        "variable": .variable, "parameter": .variable, "variable.builtin": .builtin,
        "variable.member": .property,
        "property": .property, "field": .property,
        "operator": .operator,
        "punctuation": .punctuation, "punctuation.bracket": .punctuation, "punctuation.delimiter": .punctuation,
        "tag": .tag, "tag.attribute": .attribute, "attribute": .attribute,
        "label": .label, "annotation": .label, "decorator": .label,
        // Markup (Markdown blocks): nvim's `text.*`, helix's `markup.*`.
        "text.title": .heading, "markup.heading": .heading, "title": .heading,
        "text.literal": .string, "markup.raw": .string,
        "text.uri": .string, "markup.link.url": .string,
        "text.reference": .attribute, "markup.link": .attribute, "markup.link.label": .attribute,
        "text.emphasis": .heading, "text.strong": .heading, "markup.italic": .heading, "markup.bold": .heading,
        "markup.list": .punctuation, "markup.quote": .comment,
        "diff.plus": .inserted, "diff.minus": .deleted, "diff.delta": .meta,
        "text.diff.add": .inserted, "text.diff.delete": .deleted,
    ]

    /// The role of capture `name`, nil when it colours nothing.
    public static func role(forCapture name: String) -> SyntaxRole? {
        if name.hasPrefix("_") { return nil }
        var key = Substring(name)
        while true {
            if let role = table[String(key)] { return role }
            guard let dot = key.lastIndex(of: ".") else { return nil }
            key = key[..<dot]
        }
    }
}
