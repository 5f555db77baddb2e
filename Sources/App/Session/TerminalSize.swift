#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal's size, for print mode and `-F` (the pager's session asks its own).
enum TerminalSize {
    /// Pixels of one cell (`TIOCGWINSZ`'s pixel fields over its rows and columns), when the
    /// terminal fills them in (kitty, WezTerm, foot, xterm do; tmux and many others do not).
    static func cellPixels() -> (Int, Int)? {
        var ws = winsize()
        var ok = ioctl(1, UInt(TIOCGWINSZ), &ws) == 0
        if !ok || ws.ws_xpixel == 0 {
            let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
            if fd >= 0 { ok = ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0; close(fd) }
        }
        guard ok, ws.ws_col > 0, ws.ws_row > 0, ws.ws_xpixel > 0, ws.ws_ypixel > 0 else { return nil }
        let w = Int(ws.ws_xpixel) / Int(ws.ws_col), h = Int(ws.ws_ypixel) / Int(ws.ws_row)
        return w > 0 && h > 0 ? (w, h) : nil
    }

    /// The size of the controlling terminal (stdout, else /dev/tty).
    static func ofTerminal() -> (rows: Int, columns: Int)? {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        return nil
    }
}
