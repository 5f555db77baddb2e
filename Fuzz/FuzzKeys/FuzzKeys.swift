import FuzzSupport
import TerminalScreen

/// libFuzzer target: the incremental key and mouse decoder on arbitrary bytes.
///
/// The input is fed in pieces (cut where a byte's low bits say, so escape sequences and UTF-8
/// arrive split as they do from a tty), with the Esc timeout between some of them. Checked:
/// no crash, never more events than bytes plus flushes, nothing left pending after the final
/// timeout, and feeding everything at once yields at least one event for non-empty input.
/// The same pieces and timeouts fed with times (gaps the bytes choose, up to past the Esc
/// prefix's window) give the same events, but for keys turned into their Alt form by a lone
/// Esc before them: the prefix never adds or drops an event.
enum FuzzKeys {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var decoder = KeyDecoder()
        var events = 0
        var flushes = 0
        var start = 0
        while start < bytes.count {
            let step = 1 + Int(bytes[start] & 7)
            let end = min(bytes.count, start + step)
            events += decoder.feed(Array(bytes[start..<end])).count
            if bytes[start] & 0x30 == 0x30 {
                events += decoder.flushTimeout().count
                flushes += 1
            }
            start = end
        }
        events += decoder.flushTimeout().count
        flushes += 1
        if events > bytes.count + flushes { fatalError("\(events) events from \(bytes.count) bytes") }
        // A bracketed paste may stay open (its end never came); anything else must be out.
        if decoder.hasPendingEscape { fatalError("an escape is still pending after the timeout") }

        var whole = KeyDecoder()
        let all = whole.feed(Array(bytes)).count + whole.flushTimeout().count
        if all > bytes.count + 1 { fatalError("\(all) events from \(bytes.count) bytes at once") }
        timed(bytes)
    }

    /// The law of the Esc prefix (see the type's comment).
    static func timed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var plain = KeyDecoder(), timed = KeyDecoder()
        var p: [InputEvent] = [], t: [InputEvent] = []
        var now = 0
        var start = 0
        while start < bytes.count {
            let step = 1 + Int(bytes[start] & 7)
            let end = min(bytes.count, start + step)
            now += Int(bytes[start] >> 3) * (KeyDecoder.escapePrefixWindow / 16)
            let chunk = Array(bytes[start..<end])
            p += plain.feed(chunk)
            t += timed.feed(chunk, at: now)
            if bytes[start] & 0x30 == 0x30 {
                p += plain.flushTimeout()
                t += timed.flushTimeout(at: now)
            }
            start = end
        }
        p += plain.flushTimeout()
        t += timed.flushTimeout(at: now + 1)
        guard p.count == t.count else { fatalError("\(t.count) events with times, \(p.count) without") }
        for (a, b) in zip(p, t) where a != b {
            guard case .key(let key) = a, b == .key(.alt(key)) else { fatalError("\(b) with times for \(a)") }
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzKeys.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzKeysMain {
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzKeys.run($0) }
    }
}
#endif
