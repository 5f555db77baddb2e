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
/// searches oldest first, then the lines kept unread (below). Readers ignore unknown fields.
/// A format change that old readers could misread gets a new version number *and a new file
/// name* (`positions.v2`), so folios of different versions never overwrite each other's store;
/// within version 1 a newer folio may add fields and kinds of record (a line whose object has
/// neither `doc` nor `search`).
///
/// Nothing a reader cannot read is dropped: a line that does not decode (a damaged record:
/// not JSON, cut short, a `doc` or `search` without the fields this version needs, values of
/// the wrong type) and a record of another kind are kept byte for byte
/// (`StoreSnapshot.unreadLines`) and written back after the records at every save. Damaged
/// lines are counted, so the user can be told; other kinds are not damage. A store with
/// damaged lines and nothing else a save would keep is `.corrupt` (set aside whole, not
/// carried on).
public enum StoreFormat {
    public static let version = 1
    public static let magic = "folio-positions"
    public static var header: String { "\(magic) \(version)" }

    public enum Decoded: Equatable, Sendable {
        /// The records that could be read (the rest kept in `unreadLines`), and how many
        /// lines are damaged.
        case snapshot(StoreSnapshot, damagedLines: Int)
        /// A store of another version of this format (the header's number).
        case unknownVersion(Int)
        /// Not a store of this format at all (no header, binary garbage), or one whose every
        /// line is damaged.
        case corrupt
    }

    /// Each document's line as `encode` writes it, kept with the entry it encodes.
    public typealias EncodedLines = [String: (entry: DocumentEntry, line: [UInt8])]

    /// `encode(snapshot)`, reusing the lines of `lines` whose entry has not changed (encoding
    /// a full store at every save was a cost worth avoiding); returns the lines of this snapshot too.
    public static func encode(_ snapshot: StoreSnapshot, reusing lines: EncodedLines) -> ([UInt8], EncodedLines) {
        let encoder = makeEncoder()
        var out = Array(header.utf8)
        out.append(0x0A)
        var kept: EncodedLines = [:]
        kept.reserveCapacity(snapshot.entries.count)
        for key in snapshot.entries.keys.sorted() {
            let entry = snapshot.entries[key]!
            let line: [UInt8]
            if let known = lines[key], known.entry == entry {
                line = known.line
            } else {
                // Encoding plain values cannot fail; a failure would drop one record, not the store.
                guard let data = try? encoder.encode(Record(doc: entry)) else { continue }
                line = Array(data) + [0x0A]
            }
            out += line
            kept[key] = (entry, line)
        }
        for s in snapshot.searches {
            guard let data = try? encoder.encode(Record(search: s)) else { continue }
            out.append(contentsOf: data)
            out.append(0x0A)
        }
        for line in snapshot.unreadLines {
            out += line
            out.append(0x0A)
        }
        return (out, kept)
    }

    public static func encode(_ snapshot: StoreSnapshot) -> [UInt8] { encode(snapshot, reusing: [:]).0 }

    /// How records are written: keys sorted (so a document line starts with its hash and key,
    /// which `decodeEntry` relies on), slashes as they are.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
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
        // `kept`: records that outlive a save. (A search with an empty pattern is read and
        // dropped: a store of damaged lines and one is corrupt now, not after the next save.)
        var damaged = 0, kept = 0
        for raw in lines.dropFirst() where !raw.isEmpty {
            guard let record = try? decoder.decode(Record.self, from: Data(raw)) else {
                damaged += 1
                snapshot.unreadLines.append(Array(raw))
                continue
            }
            if let doc = record.doc { snapshot.merge(doc); kept += 1 }
            if let s = record.search, !s.pattern.isEmpty { searches.append(s); kept += 1 }
            if record.doc == nil && record.search == nil { snapshot.unreadLines.append(Array(raw)); kept += 1 }
        }
        if damaged > 0 && kept == 0 { return .corrupt }
        snapshot.mergeSearches(searches)
        return .snapshot(snapshot, damagedLines: damaged)
    }

    /// What `decodeEntry` found: the entry (nil: none), or a store it cannot read.
    public enum Lookup: Equatable, Sendable {
        case entry(DocumentEntry?)
        case unreadable
    }

    /// The entry `StoreSnapshot.entry(forKey:contentHash:)` gives for `key` and `contentHash`,
    /// decoding only the lines that can hold it (`.entry(nil)` when there is none);
    /// `.unreadable` when the store is not one of this version (the caller then loads it
    /// whole, which sets a damaged store aside).
    ///
    /// Decoding every record of a full store delayed the first screen; a reopened document needs one record. A line can hold it only if it has the key
    /// as this format writes it (`"key":` and the key encoded as `encode` encodes it) or the
    /// hash (`"hash":"` and its 16 hex digits): those lines are decoded, the rest skipped.
    public static func decodeEntry(_ bytes: [UInt8], key: String, contentHash: StableHash) -> Lookup {
        if bytes.isEmpty { return .entry(nil) }
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
        guard String(validating: bytes[..<end], as: UTF8.self) == header else { return .unreadable }
        guard let encodedKey = try? makeEncoder().encode(key) else { return .unreadable }
        let keyNeedle = Array("\"key\":".utf8) + Array(encodedKey)
        let hashNeedle = Array("\"hash\":\"\(contentHash.hex)\"".utf8)
        // The lines that can hold the entry. As `encode` writes a document (keys sorted), a
        // line starts `{"doc":{"hash":"<16 hex digits>","key":<key>`: compared in place. Any
        // other layout is searched for either needle; searches cannot hold it.
        let prefix = Array("{\"doc\":{\"hash\":\"".utf8), middle = Array("\",\"key\":".utf8)
        let hex = Array(contentHash.hex.utf8), keyAt = prefix.count + hex.count + middle.count
        let searchPrefix = Array("{\"search\":".utf8)
        var lines: [Range<Int>] = []
        var start = end
        while start < bytes.count {
            let stop = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = bytes[start..<stop]
            if line.count >= keyAt, line.starts(with: prefix), line.dropFirst(prefix.count + hex.count).starts(with: middle) {
                if line.dropFirst(prefix.count).starts(with: hex) || line.dropFirst(keyAt).starts(with: encodedKey) {
                    lines.append(start..<stop)
                }
            } else if !line.starts(with: searchPrefix), contains(line, keyNeedle) || contains(line, hashNeedle) {
                lines.append(start..<stop)
            }
            start = stop + 1
        }
        let decoder = JSONDecoder()
        var found = StoreSnapshot()
        for line in lines {
            guard let record = try? decoder.decode(Record.self, from: Data(bytes[line])), let doc = record.doc else { continue }
            found.merge(doc)
        }
        return .entry(found.entry(forKey: key, contentHash: contentHash))
    }

    /// Whether `needle` occurs in `haystack` (bytes).
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            guard let at = haystack[i...last].firstIndex(of: first) else { return false }
            if haystack[at..<(at + needle.count)].elementsEqual(needle) { return true }
            i = at + 1
        }
        return false
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
        // Any value of the right type is taken: `init` clamps the numbers.
        let anchor = Anchor(block: BlockID(try c.decode(Int.self, forKey: .block)),
                            offset: try c.decode(Int.self, forKey: .offset),
                            ordinal: try c.decodeIfPresent(Int.self, forKey: .ordinal) ?? 0)
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
