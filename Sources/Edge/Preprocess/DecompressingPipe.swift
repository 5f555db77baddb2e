import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong at the end of a stream, if anything, set by the thread that made the stream
/// before it closes its end, read by the reader once it has seen that end.
public final class EndReport: Sendable {
    private let message = Mutex<String?>(nil)
    public init() {}
    public func set(_ text: String?) { message.withLock { $0 = text } }
    public var text: String? { message.withLock { $0 } }
}

/// A compressed file read as a pipe: a thread reads the file, decompresses it
/// (`Decompressor`) and writes what comes out into a pipe, whose other end folio reads as it
/// reads any pipe (`StreamReader`: sniffed, read ahead a bounded distance, `G` reads on).
/// The thread blocks while the pipe is full, so memory stays bounded by the pipe, the
/// library's state and one buffer each way, and a 1 GB file shows its first screen from its
/// first bytes. When the file ends, or decompression fails, what decompressed stays and
/// `report` says why it ended early; the pipe is closed after that is set.
public enum DecompressingPipe {
    /// Bytes read from the compressed file at a time.
    static let inputSize = 1 << 16

    /// Starts decompressing `fd` (an open compressed file, which the thread takes over and
    /// closes); returns the descriptor to read (close-on-exec) and the report, or nil when no
    /// pipe could be made (the caller then shows the file as it is).
    public static func start(fd: Int32, format: CompressionFormat) -> (fd: Int32, report: EndReport)? {
        guard let ends = closeOnExecPipe() else { return nil }
        let report = EndReport()
        startThread(stackSize: 1 << 20) { run(fd: fd, format: format, into: ends.write, report: report) }
        return (ends.read, report)
    }

    /// The thread's work: the decoder is made and used on it alone.
    private static func run(fd: Int32, format: CompressionFormat, into writeEnd: Int32, report: EndReport) {
        defer {
            close(fd)
            close(writeEnd)  // (after the report is set: the reader reads it once it sees the end)
        }
        // A write into a pipe whose reader has gone fails with EPIPE here instead of raising
        // SIGPIPE (which goes to the writing thread, and is blocked in it).
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        let decompressor: Decompressor
        do { decompressor = try Decompressor(format: format) } catch {
            report.set(error.description)
            return
        }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: inputSize, alignment: 16)
        defer { input.deallocate() }
        while true {
            // The pager lowers its background threads once it runs (this one may have started
            // before): decompressing a large file must not take the run loop's core.
            BackgroundPriority.enter()
            let n = read(fd, input.baseAddress, input.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { report.set(String(cString: strerror(errno))); return }
            do {
                let piece = UnsafeRawBufferPointer(rebasing: input[0..<n])
                let going = try decompressor.feed(piece, final: n == 0) { out in writeAll(writeEnd, out) }
                if !going || n == 0 { return }
            } catch {
                report.set(error.description)
                return
            }
        }
    }
}

/// A pipe whose ends are close-on-exec (no command folio starts inherits them: a command
/// holding a pipe's write end would keep its reader from ever seeing the end). `pipe2` is
/// not imported into Swift; folio opens its inputs on one thread, so no command is started
/// between the two calls.
func closeOnExecPipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// Writes all of `bytes` to `fd`, retrying partial writes and EINTR; false when the reader has
/// gone (EPIPE) or the write fails.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
        if n > 0 { done += n; continue }
        if n < 0 && errno == EINTR { continue }
        return false
    }
    return true
}
