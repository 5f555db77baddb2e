/// One remembered search, global to all documents.
public struct SearchRecord: Hashable, Sendable, Codable {
    public var pattern: String
    /// Seconds since the epoch of its last use.
    public var timestamp: Double
    public init(pattern: String, timestamp: Double) { self.pattern = pattern; self.timestamp = timestamp }
    enum CodingKeys: String, CodingKey { case pattern, timestamp = "time" }
}

/// Everything in the store, in memory. Pure: merging and bounding are plain value functions,
/// so two folios' stores combine the same way whatever the order.
public struct StoreSnapshot: Hashable, Sendable {
    /// The most recently used documents the store keeps.
    public static let documentLimit = 1_000
    /// Searches the history keeps.
    public static let searchLimit = 200

    /// By key.
    public var entries: [String: DocumentEntry]
    /// Search history, most recent last, each pattern once.
    public var searches: [SearchRecord]
    /// Lines of the store this folio could not read, in the order found (without their LF):
    /// damaged records and records of kinds it does not know (a newer folio's). Written back
    /// byte for byte at every save, so no folio drops what it cannot read.
    public var unreadLines: [[UInt8]]

    public init(entries: [String: DocumentEntry] = [:], searches: [SearchRecord] = [], unreadLines: [[UInt8]] = []) {
        self.entries = entries
        self.searches = searches
        self.unreadLines = unreadLines
    }

    /// The entry for a document: by key, else the most recent entry with the same content hash
    /// (the file was moved or renamed, or the content was seen before under another name).
    public func entry(forKey key: String, contentHash: StableHash) -> DocumentEntry? {
        if let e = entries[key] { return e }
        var best: DocumentEntry?
        for e in entries.values where e.contentHash == contentHash {
            if best == nil || (e.timestamp, e.key) > (best!.timestamp, best!.key) { best = e }
        }
        return best
    }

    /// Search patterns, most recent last.
    public var searchHistory: [String] { searches.map(\.pattern) }

    /// Merges `entry` in: the newer timestamp wins the position and `previous`; marks are
    /// united, the newer entry's mark winning a letter both have.
    public mutating func merge(_ entry: DocumentEntry) {
        guard let old = entries[entry.key] else { entries[entry.key] = entry; return }
        entries[entry.key] = StoreSnapshot.merged(old, entry)
    }

    static func merged(_ a: DocumentEntry, _ b: DocumentEntry) -> DocumentEntry {
        // Order-independent: ties go to the larger content hash, then b.
        let bWins = (b.timestamp, b.contentHash.rawValue) >= (a.timestamp, a.contentHash.rawValue)
        let (older, newer) = bWins ? (a, b) : (b, a)
        var result = newer
        result.marks = older.marks.merging(newer.marks) { _, n in n }
        return result
    }

    /// Merges another snapshot in (another folio's view of the store).
    public mutating func merge(_ other: StoreSnapshot) {
        for e in other.entries.values { merge(e) }
        mergeSearches(other.searches)
        keepUnread(other.unreadLines)
    }

    /// Adds the lines `unreadLines` does not hold yet (two views of one store share theirs).
    mutating func keepUnread(_ lines: [[UInt8]]) {
        guard !lines.isEmpty else { return }
        var seen = Set(unreadLines)
        for line in lines where seen.insert(line).inserted { unreadLines.append(line) }
    }

    /// Adds searches: each pattern keeps its latest use; the most recent `searchLimit` stay.
    public mutating func mergeSearches(_ more: [SearchRecord]) {
        var latest: [String: Double] = [:]
        for s in searches + more where !s.pattern.isEmpty {
            latest[s.pattern] = max(latest[s.pattern] ?? -.infinity, s.timestamp)
        }
        let sorted = latest.map { SearchRecord(pattern: $0.key, timestamp: $0.value) }
            .sorted { ($0.timestamp, $0.pattern) < ($1.timestamp, $1.pattern) }
        searches = Array(sorted.suffix(StoreSnapshot.searchLimit))
    }

    /// Removes a document: its key, and every entry with its content (which lookup would
    /// otherwise find again).
    public mutating func forget(key: String, contentHash: StableHash) {
        entries[key] = nil
        entries = entries.filter { $0.value.contentHash != contentHash }
    }

    /// Keeps the `limit` most recently used documents.
    public mutating func bound(to limit: Int = StoreSnapshot.documentLimit) {
        guard entries.count > limit else { return }
        let keep = entries.values
            .sorted { ($0.timestamp, $0.key) > ($1.timestamp, $1.key) }
            .prefix(max(0, limit))
        entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0) })
    }
}
