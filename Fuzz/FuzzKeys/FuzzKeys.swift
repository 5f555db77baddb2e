import FuzzSupport
import TerminalScreen

/// libFuzzer target: the incremental key and mouse decoder on arbitrary bytes.
///
/// The input is fed in pieces (cut where a byte's low bits say, so escape sequences and UTF-8
/// arrive split as they do from a tty), with the Esc timeout between some of them. Checked:
/// no crash, never more events than bytes plus flushes, nothing left pending after the final
/// timeout, and feeding everything at once yields at least one event for non-empty input.
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
