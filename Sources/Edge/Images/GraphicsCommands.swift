import LineLayout
import TerminalScreen

/// The escape sequences of the terminal graphics protocols, as bytes (pure: tested by their
/// bytes). Kitty: <https://sw.kovidgoyal.net/kitty/graphics-protocol/>; iTerm2: OSC 1337.
public enum GraphicsCommands {
    static let esc: UInt8 = 0x1B

    /// An APC string: `ESC _ G control ; payload ESC \`.
    static func kitty(_ control: String, payload: ArraySlice<UInt8> = []) -> [UInt8] {
        var out: [UInt8] = [esc, 0x5F, 0x47] + Array(control.utf8)
        if !payload.isEmpty { out.append(0x3B); out += payload }
        return out + [esc, 0x5C]
    }

    /// Sends RGBA pixels to kitty as image `id`, quietly (`q=2`); nothing is shown until it is placed.
    public static func kittyTransmit(id: Int, image: DecodedImage) -> [UInt8] {
        chunked("a=t,f=32,s=\(image.width),v=\(image.height),i=\(id),q=2", image)
    }

    /// Sends and shows RGBA pixels at the cursor over `cols` x `rows` cells, the cursor left
    /// where it is (print mode: the rows written after it scroll it with them).
    public static func kittyShow(image: DecodedImage, cols: Int, rows: Int) -> [UInt8] {
        chunked("a=T,f=32,s=\(image.width),v=\(image.height),c=\(cols),r=\(rows),C=1,q=2", image)
    }

    /// The pixels in base64, in chunks of 4096 bytes as the protocol asks, the first chunk
    /// with `control`.
    static func chunked(_ control: String, _ image: DecodedImage) -> [UInt8] {
        let data = OSC52.base64(image.pixels)
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(data.count, start + 4096)
            let more = end < data.count ? 1 : 0
            out += kitty(start == 0 ? "\(control),m=\(more)" : "m=\(more)", payload: data[start..<end])
            start = end
        } while start < data.count
        return out
    }

    /// Sends image `id` with a virtual placement of `cols` x `rows` cells (`U=1`), for
    /// Unicode placeholders to show.
    public static func kittyVirtual(id: Int, image: DecodedImage, cols: Int, rows: Int) -> [UInt8] {
        chunked("a=T,U=1,f=32,s=\(image.width),v=\(image.height),i=\(id),c=\(cols),r=\(rows),q=2", image)
    }

    /// Each escape sequence of `bytes` (APC strings, as `chunked` makes them) wrapped for
    /// tmux's passthrough (`ESC P tmux; …ESC doubled… ESC \`), which sends it on to the
    /// terminal tmux runs in (with `set -g allow-passthrough on`).
    public static func tmuxPassthrough(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            // One APC string: from ESC _ to ESC \.
            var end = i + 2
            while end + 1 < bytes.count, !(bytes[end] == esc && bytes[end + 1] == 0x5C) { end += 1 }
            end = min(bytes.count, end + 2)
            out += [esc, 0x50] + Array("tmux;".utf8)
            for b in bytes[i..<end] { out.append(b); if b == esc { out.append(esc) } }
            out += [esc, 0x5C]
            i = end
        }
        return out
    }

    /// Places image `id` (of `width` x `height` pixels, drawn over `cols` x `rows` cells) at
    /// the cursor, showing only its pixel rows of picture rows `first..<first + count`: the
    /// placement `placement` of it (placing again replaces it). The cursor does not move.
    public static func kittyPlace(id: Int, placement: Int, width: Int, height: Int, cols: Int, rows: Int,
                                  first: Int, count: Int) -> [UInt8] {
        let y = first * height / max(1, rows)
        let h = max(1, (first + count) * height / max(1, rows) - y)
        return kitty("a=p,i=\(id),p=\(placement),x=0,y=\(y),w=\(width),h=\(h),c=\(cols),r=\(count),C=1,q=2")
    }

    /// Deletes image `id` and its data.
    public static func kittyDelete(id: Int) -> [UInt8] { kitty("a=d,d=I,i=\(id),q=2") }

    /// Deletes every placement of this program's images, keeping their data.
    public static let kittyDeletePlacements = kitty("a=d,d=a,q=2")

    /// iTerm2's inline image: a file (PNG) shown over `cols` x `rows` cells at the cursor.
    public static func itermInline(png: [UInt8], cols: Int, rows: Int) -> [UInt8] {
        [esc] + Array("]1337;File=inline=1;size=\(png.count);width=\(cols);height=\(rows);preserveAspectRatio=0:".utf8)
            + OSC52.base64(png) + [0x07]
    }

    /// The cursor to `row`, `column` (0-based).
    public static func moveTo(row: Int, column: Int) -> [UInt8] {
        [esc] + Array("[\(row + 1);\(column + 1)H".utf8)
    }
}
