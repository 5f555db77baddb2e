/// One byte per unit, kept by groups of 64 units: a group whose units all hold the same
/// byte keeps that byte alone; the others keep 64 bytes in a shared pool. `RowIndex` keeps
/// its counts here: in a text document nearly every line is one row, counted exactly, so
/// 52 million lines of `y` cost 5 bytes a group instead of a byte a line. A group that
/// becomes uniform again gives its 64 bytes back (`settle`), for the next group to use.
struct GroupedBytes: Sendable {
    static let groupSize = 64

    private(set) var count = 0
    /// Per group: the byte of all its units, when it has no slot.
    private var uniform: [UInt8] = []
    /// Per group: its slot in `pool` (64 bytes from `slot << 6`), or -1.
    private var slots: [Int32] = []
    private var pool: [UInt8] = []
    private var freeSlots: [Int32] = []

    var groupCount: Int { slots.count }

    subscript(u: Int) -> UInt8 {
        get {
            let s = slots[u >> 6]
            return s < 0 ? uniform[u >> 6] : pool[Int(s) << 6 | (u & 63)]
        }
        set {
            let g = u >> 6
            var s = slots[g]
            if s < 0 {
                if uniform[g] == newValue { return }
                s = takeSlot(filledWith: uniform[g])
                slots[g] = s
            }
            pool[Int(s) << 6 | (u & 63)] = newValue
        }
    }

    /// The byte every unit of group `g` holds, when they hold one (nil: they differ, or may).
    func uniformByte(ofGroup g: Int) -> UInt8? { slots[g] < 0 ? uniform[g] : nil }

    mutating func append(_ byte: UInt8) {
        if count & 63 == 0 {
            uniform.append(byte)
            slots.append(-1)
            count += 1
        } else {
            count += 1
            self[count - 1] = byte
        }
    }

    /// Keeps the first `n` units.
    mutating func removeLast(_ n: Int) {
        let keep = count - n
        let groups = (keep + 63) >> 6
        for g in groups..<slots.count where slots[g] >= 0 { freeSlots.append(slots[g]) }
        uniform.removeLast(slots.count - groups)
        slots.removeLast(slots.count - groups)
        count = keep
    }

    /// Every byte and'ed with `mask`.
    mutating func formAnd(_ mask: UInt8) {
        for g in uniform.indices { uniform[g] &= mask }
        for k in pool.indices { pool[k] &= mask }
    }

    /// Gives group `g`'s slot back when its units all hold the same byte again.
    mutating func settle(group g: Int) {
        let s = slots[g]
        guard s >= 0 else { return }
        let n = min(Self.groupSize, count - g * Self.groupSize)
        let base = Int(s) << 6
        let first = pool[base]
        for k in 1..<max(1, n) where pool[base + k] != first { return }
        uniform[g] = first
        slots[g] = -1
        freeSlots.append(s)
    }

    private mutating func takeSlot(filledWith byte: UInt8) -> Int32 {
        if let s = freeSlots.popLast() {
            let base = Int(s) << 6
            for k in 0..<Self.groupSize { pool[base + k] = byte }
            return s
        }
        let s = Int32(pool.count >> 6)
        pool.append(contentsOf: repeatElement(byte, count: Self.groupSize))
        return s
    }

    /// Bytes held, for tests.
    var bytesHeld: Int { uniform.capacity + slots.capacity * 4 + pool.capacity + freeSlots.capacity * 4 }
}

extension GroupedBytes: Equatable {
    static func == (a: GroupedBytes, b: GroupedBytes) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }
}
