/// OSC 52 clipboard requests: the terminal (even across ssh/tmux with `set-clipboard on`)
/// puts the text on the system clipboard.
public enum OSC52 {
    /// `ESC ] 52 ; c ; <base64 of UTF-8> ESC \`.
    public static func copy(_ text: String) -> [UInt8] {
        [ANSI.esc, 0x5D] + Array("52;c;".utf8) + base64(Array(text.utf8)) + [ANSI.esc, 0x5C]
    }

    /// Standard base64 (RFC 4648, with padding) as ASCII bytes.
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(n & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }
}
