import Testing
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// `parallelMap` on the pool that replaced libdispatch (`WorkerPool`): every iteration once,
/// results in order, whether maps run alone, inside one another or from several threads.
@Suite struct WorkerPoolTests {
    @Test(arguments: [(1, nil), (2, nil), (7, 3), (1000, nil), (1000, 4), (4097, 17)] as [(Int, Int?)])
    func everyIterationOnceInOrder(count: Int, slices: Int?) {
        let calls = Locked([Int](repeating: 0, count: count))
        let result = parallelMap(count: count, slices: slices, background: false) { k -> Int in
            calls.withLock { $0[k] += 1 }
            return k * k
        }
        #expect(result == (0..<count).map { $0 * $0 })
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    @Test func mapsInsideMapsFinish() {
        let result = parallelMap(count: 8, background: false) { i in
            parallelMap(count: 50, background: false) { j in i * 100 + j }.reduce(0, +)
        }
        #expect(result == (0..<8).map { i in (0..<50).reduce(0) { $0 + i * 100 + $1 } })
    }

    @Test func mapsFromSeveralThreadsAtOnce() {
        let results = Locked([Int: [Int]]())
        let finished = Conditioned(0)
        for t in 0..<6 {
            startThread(stackSize: 1 << 20, background: false) {
                let r = parallelMap(count: 300, background: false) { $0 + t }
                results.withLock { $0[t] = r }
                finished.withLock { $0 += 1 }
            }
        }
        finished.wait { $0 == 6 }
        for t in 0..<6 { #expect(results.withLock { $0[t] } == (0..<300).map { $0 + t }) }
    }

    /// At most `value` holders at once; a waiter goes on when one is given back.
    @Test func aSemaphoreBoundsItsHolders() {
        let slots = Semaphore(value: 2)
        let state = Conditioned((holding: 0, most: 0, done: 0))
        for _ in 0..<8 {
            startThread(stackSize: 1 << 20, background: false) {
                slots.wait()
                state.withLock { $0.holding += 1; $0.most = max($0.most, $0.holding) }
                usleep(2_000)
                state.withLock { $0.holding -= 1 }
                slots.signal()
                state.withLock { $0.done += 1 }
            }
        }
        state.wait { $0.done == 8 }
        #expect(state.withLock { $0.most } == 2)
    }

    @Test func runAfterRunsTheBody() {
        let ran = Conditioned(false)
        runAfter(seconds: 0.01) { ran.withLock { $0 = true } }
        ran.wait { $0 }
        #expect(ran.withLock { $0 })
    }
}
