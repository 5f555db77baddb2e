extension VisibleControls {
    /// `url` with every control character (C0, DEL, C1) percent-encoded, each of its UTF-8
    /// bytes as `%XX` (LF `%0A`, ESC `%1B`, U+0085 `%C2%85`), as browsers encode them; every
    /// other character stays as written.
    ///
    /// A link's destination may hold any character (an entity such as `&#10;` or `&#27;`
    /// decodes to one), and it goes where a control is a command, not a URL byte: a browser's
    /// argument list, a terminal's OSC 8 hyperlink, a URL written after its link text. Each
    /// of those writes the URL this way, so all of them name the same address.
    public static func percentEncodingControls(_ url: String) -> String {
        guard url.unicodeScalars.contains(where: { isControl($0.value) }) else { return url }
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for u in url.unicodeScalars {
            guard isControl(u.value) else { out.append(u); continue }
            for byte in UTF8.encode(u)! {
                out.append("%")
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            }
        }
        return String(out)
    }
}
