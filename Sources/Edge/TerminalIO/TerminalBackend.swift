/// What the run loop needs of a terminal, and nothing more: events in, bytes out, a size, and
/// the three ways the terminal is given back (restore, suspend, hand over to an editor).
///
/// `TerminalSession` is the real one (raw mode on `/dev/tty`, signals through `SignalPipe`);
/// tests drive the run loop with a scripted fake, so the loop is tested without tmux.
///
/// Ending the process is not here on purpose: the run loop never exits. It returns how it
/// ended (`q`, or a signal, after restoring the terminal and saving), and the top of the
/// program ends the process (`TerminalSession.exit(dueTo:)`), so a test can watch all of it.
///
/// A class-bound protocol: a backend is one shared resource (a tty, or a fake recording what
/// the loop did to it), never a value copied along with the loop.
public protocol TerminalBackend: AnyObject {
    /// How the terminal was set up (the loop asks `queryColors`: a colour reply may be on its way).
    var options: TerminalOptions { get }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for bytes, signals or `wakeFD` (-1:
    /// none) to be readable. Never empty: `.timeout` when nothing came. A terminal that went
    /// away reports `.signal(.hangup)`.
    func waitForInput(timeoutMilliseconds: Int32, wakeFD: Int32) -> [IOEvent]

    /// Writes one frame (or an OSC 52 copy). Throws when the terminal is gone.
    func write(_ bytes: [UInt8]) throws

    /// The size in cells; never 0.
    func size() -> (rows: Int, columns: Int)

    /// A cell's size in pixels, when the terminal fills in `TIOCGWINSZ`'s pixel fields
    /// (pictures keep their shape by it; it changes with the font's size).
    func cellPixels() -> (width: Int, height: Int)?

    /// Gives the terminal back as it was found. Idempotent.
    func restore()

    /// Stops like Ctrl-Z in a shell and returns after the resume, the terminal set up again.
    /// The caller redraws everything.
    func suspend() throws

    /// Gives the terminal to another program (an editor) while `body` runs, then takes it
    /// back. The caller redraws everything.
    func handOver<T>(_ body: () throws -> T) throws -> T

    /// Inside `handOver`'s body: writes `message` and `  (press RETURN)` and waits for a line
    /// to be typed, as less does after a shell command (`!done`), so that what the command
    /// wrote stays on the screen until the reader is done with it. `^C` does not end folio
    /// there. A fake does nothing (the default).
    func waitForReturn(after message: String)

    /// The loop is ending folio for `signal`: what follows (restore, save) must end within
    /// a bound, or the process is ended anyway (`TerminalSession`: its watchdog). A fake does
    /// nothing.
    func leaving(dueTo signal: Signal)
}

extension TerminalBackend {
    public func leaving(dueTo signal: Signal) {}
    public func waitForReturn(after message: String) {}

    /// Waits for the terminal and signals only (no wake descriptor).
    public func waitForInput(timeoutMilliseconds: Int32) -> [IOEvent] {
        waitForInput(timeoutMilliseconds: timeoutMilliseconds, wakeFD: -1)
    }
}

extension TerminalSession: TerminalBackend {
    public func leaving(dueTo signal: Signal) { TerminationWatchdog.leaving(dueTo: signal) }
}
