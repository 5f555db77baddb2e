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
                line = Record(doc: entry).json + [0x0A]
            }
            out += line
            kept[key] = (entry, line)
        }
        for s in snapshot.searches {
            out += Record(search: s).json
            out.append(0x0A)
        }
        for line in snapshot.unreadLines {
            out += line
            out.append(0x0A)
        }
        return (out, kept)
    }

    public static func encode(_ snapshot: StoreSnapshot) -> [UInt8] { encode(snapshot, reusing: [:]).0 }

    public static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .snapshot(StoreSnapshot(), damagedLines: 0) }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, let head = String(validating: first, as: UTF8.self) else { return .corrupt }
        if head != header {
            let parts = head.split(separator: " ")
            if parts.count == 2, parts[0] == magic, let v = Int(parts[1]) { return .unknownVersion(v) }
            return .corrupt
        }
        var snapshot = StoreSnapshot()
        var searches: [SearchRecord] = []
        // `kept`: records that outlive a save. (A search with an empty pattern is read and
        // dropped: a store of damaged lines and one is corrupt now, not after the next save.)
        var damaged = 0, kept = 0
        for raw in lines.dropFirst() where !raw.isEmpty {
            guard let record = Record(line: raw) else {
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
        var keyWriter = JSONWriter()
        keyWriter.string(key)
        let encodedKey = keyWriter.bytes
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
        var found = StoreSnapshot()
        for line in lines {
            guard let record = Record(line: bytes[line]), let doc = record.doc else { continue }
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

    /// One line: exactly one of the fields is set. Written with its names sorted (so a
    /// document's line starts with its hash and key, which `decodeEntry` relies on). A field
    /// this version needs that is missing, null where a value is needed, or of the wrong
    /// type makes the line damaged; fields it does not know are skipped.
    struct Record {
        var doc: DocumentEntry?
        var search: SearchRecord?

        init(doc: DocumentEntry) { self.doc = doc }
        init(search: SearchRecord) { self.search = search }

        /// The record on `line`, or nil when the line is damaged.
        init?(line: some Collection<UInt8>) {
            guard let value = JSONValue.parse(line), case .object = value else { return nil }
            if let d = value["doc"], !d.isNull {
                guard let entry = DocumentEntry(json: d) else { return nil }
                doc = entry
            }
            if let s = value["search"], !s.isNull {
                guard let pattern = s["pattern"]?.string, let time = s["time"]?.double else { return nil }
                search = SearchRecord(pattern: pattern, timestamp: time)
            }
        }

        var json: [UInt8] {
            var w = JSONWriter()
            w.object { o in
                if let doc { o.member("doc") { doc.write(to: &$0) } }
                if let search {
                    o.member("search") { w in
                        w.object { o in
                            o.member("pattern") { $0.string(search.pattern) }
                            o.member("time") { $0.number(search.timestamp) }
                        }
                    }
                }
            }
            return w.bytes
        }
    }
}

extension JSONValue {
    /// An optional field: absent or null is `some(nil)`; present and not decodable is nil.
    func optional<T>(_ name: String, _ decode: (JSONValue) -> T?) -> T?? {
        guard let v = self[name], !v.isNull else { return .some(nil) }
        guard let t = decode(v) else { return nil }
        return .some(t)
    }
}

extension DocumentEntry {
    // Names: key, hash (contentHash), time (timestamp), pos (position), prev (previous), marks.
    init?(json: JSONValue) {
        guard case .object = json, let key = json["key"]?.string,
              let hash = json["hash"]?.string.flatMap(StableHash.init(hex:)),
              let time = json["time"]?.double,
              let position = json["pos"].flatMap(ReadingPosition.init(json:)),
              let previous = json.optional("prev", ReadingPosition.init(json:)),
              let rawMarks = json.optional("marks", { v -> [JSONValue.Member]? in if case .object(let m) = v { m } else { nil } })
        else { return nil }
        var marks: [Character: ReadingPosition] = [:]
        for member in rawMarks ?? [] {
            // Every mark must decode, as `JSONDecoder` decoded the whole dictionary; a name of
            // more than one character is skipped. (Duplicate names: the first wins.)
            guard let mark = ReadingPosition(json: member.value) else { return nil }
            if member.name.count == 1, marks[Character(member.name)] == nil { marks[Character(member.name)] = mark }
        }
        self.init(key: key, contentHash: hash, timestamp: time, position: position, previous: previous, marks: marks)
    }

    func write(to w: inout JSONWriter) {
        w.object { o in
            o.member("hash") { $0.string(contentHash.hex) }
            o.member("key") { $0.string(key) }
            if !marks.isEmpty {
                o.member("marks") { w in
                    let named = marks.map { (String($0.key), $0.value) }
                        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                    w.object { o in
                        for (name, mark) in named { o.member(name) { mark.write(to: &$0) } }
                    }
                }
            }
            o.member("pos") { position.write(to: &$0) }
            if let previous { o.member("prev") { previous.write(to: &$0) } }
            o.member("time") { $0.number(timestamp) }
        }
    }
}

extension ReadingPosition {
    // Spelled out here (not `Anchor`'s own Codable) so the file format is owned here. Names:
    // block, offset, ordinal, leaf (leafIndex), fp (fingerprint), headings (headingPath),
    // section (sectionIndex), line (sourceLine), fraction, byte (byteOffset).
    init?(json: JSONValue) {
        // Any value of the right type is taken: `init` clamps the numbers.
        guard case .object = json, let block = json["block"]?.int, let offset = json["offset"]?.int,
              let ordinal = json.optional("ordinal", \.int),
              let leaf = json.optional("leaf", \.int),
              let fingerprint = json["fp"]?.string.flatMap(StableHash.init(hex:)),
              let headings = json.optional("headings", { v -> [String]? in
                  guard case .array(let items) = v else { return nil }
                  let strings = items.compactMap(\.string)
                  return strings.count == items.count ? strings : nil
              }),
              let section = json.optional("section", \.int),
              let line = json.optional("line", \.int),
              let fraction = json.optional("fraction", \.double),
              let byte = json.optional("byte", \.int)
        else { return nil }
        self.init(anchor: Anchor(block: BlockID(block), offset: offset, ordinal: ordinal ?? 0),
                  leafIndex: leaf ?? 0, fingerprint: fingerprint, headingPath: headings ?? [],
                  sectionIndex: section ?? 0, sourceLine: line ?? 1, fraction: fraction ?? 0, byteOffset: byte)
    }

    func write(to w: inout JSONWriter) {
        w.object { o in
            o.member("block") { $0.number(anchor.block.rawValue) }
            if let byteOffset { o.member("byte") { $0.number(byteOffset) } }
            o.member("fp") { $0.string(fingerprint.hex) }
            o.member("fraction") { $0.number(fraction) }
            o.member("headings") { w in
                w.raw("[")
                for (k, heading) in headingPath.enumerated() {
                    if k > 0 { w.raw(",") }
                    w.string(heading)
                }
                w.raw("]")
            }
            o.member("leaf") { $0.number(leafIndex) }
            o.member("line") { $0.number(sourceLine) }
            o.member("offset") { $0.number(anchor.offset) }
            o.member("ordinal") { $0.number(anchor.ordinal) }
            o.member("section") { $0.number(sectionIndex) }
        }
    }
}
