import FoundationEssentials
import LineLayout
import MarkdownModel

/// The store's file format, version 1 — pure: bytes in, bytes out.
///
/// ```
/// folio-positions 1
/// {"doc":{"hash":"…","key":"/home/a/notes.md","marks":{"a":{…}},"pos":{…},"prev":{…},"time":1700000000.5}}
/// {"search":{"pattern":"foo","time":1700000001}}
/// ```
///
/// A header line, then one JSON object per line (`\n`-separated; JSON escapes every newline
/// and tab inside keys and texts, so a line is always one record). Documents are sorted by key,
/// searches oldest first. Readers skip lines they cannot decode (a damaged line costs that
/// one record) and ignore unknown fields. A format change that old readers could misread gets
/// a new version number *and a new file name* (`positions.v2`), so folios of different
/// versions never overwrite each other's store.
public enum StoreFormat {
    public static let version = 1
    public static let magic = "folio-positions"
    public static var header: String { "\(magic) \(version)" }

    public enum Decoded: Equatable, Sendable {
        /// The records that could be read, and how many lines could not.
        case snapshot(StoreSnapshot, damagedLines: Int)
        /// A store of another version of this format (the header's number).
        case unknownVersion(Int)
        /// Not a store of this format at all (no header, binary garbage).
        case corrupt
    }

    public static func encode(_ snapshot: StoreSnapshot) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Array(header.utf8)
        out.append(0x0A)
        func line(_ record: Record) {
            // Encoding plain values cannot fail; a failure would drop one record, not the store.
            guard let data = try? encoder.encode(record) else { return }
            out.append(contentsOf: data)
            out.append(0x0A)
        }
        for key in snapshot.entries.keys.sorted() { line(Record(doc: snapshot.entries[key])) }
        for s in snapshot.searches { line(Record(search: s)) }
        return out
    }

    public static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .snapshot(StoreSnapshot(), damagedLines: 0) }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, let head = String(validating: first, as: UTF8.self) else { return .corrupt }
        if head != header {
            let parts = head.split(separator: " ")
            if parts.count == 2, parts[0] == magic, let v = Int(parts[1]) { return .unknownVersion(v) }
            return .corrupt
        }
        let decoder = JSONDecoder()
        var snapshot = StoreSnapshot()
        var searches: [SearchRecord] = []
        var damaged = 0
        for raw in lines.dropFirst() where !raw.isEmpty {
            guard let record = try? decoder.decode(Record.self, from: Data(raw)) else { damaged += 1; continue }
            if let doc = record.doc { snapshot.merge(doc) }
            if let s = record.search { searches.append(s) }
            if record.doc == nil && record.search == nil { damaged += 1 }
        }
        snapshot.mergeSearches(searches)
        return .snapshot(snapshot, damagedLines: damaged)
    }

    /// One line: exactly one of the fields is set.
    struct Record: Codable {
        var doc: DocumentEntry?
        var search: SearchRecord?
    }
}

extension DocumentEntry: Codable {
    enum CodingKeys: String, CodingKey { case key, contentHash = "hash", timestamp = "time", position = "pos", previous = "prev", marks }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let rawMarks = try c.decodeIfPresent([String: ReadingPosition].self, forKey: .marks) ?? [:]
        var marks: [Character: ReadingPosition] = [:]
        for (k, v) in rawMarks where k.count == 1 { marks[Character(k)] = v }
        let time = try c.decode(Double.self, forKey: .timestamp)
        guard time.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .timestamp, in: c, debugDescription: "not a time")
        }
        self.init(key: try c.decode(String.self, forKey: .key),
                  contentHash: try c.decode(StableHash.self, forKey: .contentHash),
                  timestamp: time,
                  position: try c.decode(ReadingPosition.self, forKey: .position),
                  previous: try c.decodeIfPresent(ReadingPosition.self, forKey: .previous),
                  marks: marks)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(contentHash, forKey: .contentHash)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(position, forKey: .position)
        try c.encodeIfPresent(previous, forKey: .previous)
        if !marks.isEmpty {
            try c.encode(Dictionary(uniqueKeysWithValues: marks.map { (String($0.key), $0.value) }), forKey: .marks)
        }
    }
}

extension ReadingPosition: Codable {
    // Spelled out (not `Anchor`'s own Codable) so the file format is owned here.
    enum CodingKeys: String, CodingKey {
        case block, offset, ordinal, leafIndex = "leaf", fingerprint = "fp", headingPath = "headings",
             sectionIndex = "section", sourceLine = "line", fraction, byteOffset = "byte"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let anchor = Anchor(block: BlockID(max(0, try c.decode(Int.self, forKey: .block))),
                            offset: max(0, try c.decode(Int.self, forKey: .offset)),
                            ordinal: max(0, try c.decodeIfPresent(Int.self, forKey: .ordinal) ?? 0))
        self.init(anchor: anchor,
                  leafIndex: try c.decodeIfPresent(Int.self, forKey: .leafIndex) ?? 0,
                  fingerprint: try c.decode(StableHash.self, forKey: .fingerprint),
                  headingPath: try c.decodeIfPresent([String].self, forKey: .headingPath) ?? [],
                  sectionIndex: try c.decodeIfPresent(Int.self, forKey: .sectionIndex) ?? 0,
                  sourceLine: try c.decodeIfPresent(Int.self, forKey: .sourceLine) ?? 1,
                  fraction: try c.decodeIfPresent(Double.self, forKey: .fraction) ?? 0,
                  byteOffset: try c.decodeIfPresent(Int.self, forKey: .byteOffset))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(anchor.block.rawValue, forKey: .block)
        try c.encode(anchor.offset, forKey: .offset)
        try c.encode(anchor.ordinal, forKey: .ordinal)
        try c.encode(leafIndex, forKey: .leafIndex)
        try c.encode(fingerprint, forKey: .fingerprint)
        try c.encode(headingPath, forKey: .headingPath)
        try c.encode(sectionIndex, forKey: .sectionIndex)
        try c.encode(sourceLine, forKey: .sourceLine)
        try c.encode(fraction, forKey: .fraction)
        try c.encodeIfPresent(byteOffset, forKey: .byteOffset)
    }
}
