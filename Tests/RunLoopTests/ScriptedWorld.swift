#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@testable import Session

/// The event loop's clock in a test: time moves only when the script says
/// (`FakeTerminal.Step.advance`), so deadlines — the Esc prefix, the periodic save, the
/// colour query, a watched file's grace — are reached exactly, without sleeping.
final class ScriptedClock: LoopClock, Sendable {
    /// Whole milliseconds, so that times add up exactly (5 s after 1,000 s is 1,005.0).
    private let milliseconds: Mutex<Int>

    init(atSeconds seconds: Int = 1_000) { milliseconds = Mutex(seconds * 1000) }

    func now() -> Double { Double(milliseconds.withLock { $0 }) / 1000 }

    func advance(milliseconds step: Int) { milliseconds.withLock { $0 += step } }
}

/// The event loop's mailbox in a test: what the loop's threads post (a parse, a row count, a
/// highlighted block) is held until the script releases it (`FakeTerminal.Step.release`),
/// and the script can deliver what no thread made (`.deliver`: bytes arrived, the input
/// ended). The loop sees deliveries only when the fake terminal answers `.wake`: it has no
/// descriptor to poll (`readFD` is -1).
final class ScriptedMailbox: Mailbox, Sendable {
    private struct Boxes {
        var posted: [Delivery] = []
        var released: [Delivery] = []
    }
    private let boxes = Mutex(Boxes())

    var readFD: Int32 { -1 }

    func post(_ delivery: Delivery) { boxes.withLock { $0.posted.append(delivery) } }

    func drain() -> [Delivery] {
        boxes.withLock { b in
            defer { b.released = [] }
            return b.released
        }
    }

    /// Makes these deliveries the next ones `drain` hands over (after any released before).
    func deliver(_ deliveries: [Delivery]) { boxes.withLock { $0.released += deliveries } }

    /// Waits (10 s at most) until the loop's threads have posted at least `count` deliveries
    /// not yet released, then releases `count` of them (all posted, if `count` is nil), in
    /// the order they were posted. Whether that many came.
    @discardableResult
    func release(_ count: Int?) -> Bool {
        for _ in 0..<10_000 {
            let done = boxes.withLock { b -> Bool in
                let wanted = count ?? max(1, b.posted.count)
                guard b.posted.count >= wanted else { return false }
                b.released += b.posted.prefix(wanted)
                b.posted.removeFirst(wanted)
                return true
            }
            if done { return true }
            usleep(1_000)
        }
        return false
    }

    /// Deliveries posted and not released.
    var held: Int { boxes.withLock { $0.posted.count } }
}
