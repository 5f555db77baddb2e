import Foundation
import LineLayout
import MarkdownModel
import Testing
import TestSupport
@testable import ReadingPositions

/// The store's lines were written by `JSONEncoder` and read by `JSONDecoder` until folio
/// stopped linking Foundation. These laws hold the hand-written `StoreJSON` to them: the same
/// bytes out, the same lines read and refused. `Old*` are the Codable types as they were.
@Suite struct StoreJSONTests {
    struct OldPosition: Codable, Equatable {
        var block: Int, offset: Int, ordinal: Int?, leaf: Int?, fp: StableHash, headings: [String]?
        var section: Int?, line: Int?, fraction: Double?, byte: Int?
    }

    struct OldDoc: Codable, Equatable {
        var key: String, hash: StableHash, time: Double, pos: OldPosition, prev: OldPosition?, marks: [String: OldPosition]?
    }

    struct OldSearch: Codable, Equatable { var pattern: String, time: Double }

    struct OldRecord: Codable, Equatable { var doc: OldDoc?, search: OldSearch? }

    static func old(_ p: ReadingPosition) -> OldPosition {
        OldPosition(block: p.anchor.block.rawValue, offset: p.anchor.offset, ordinal: p.anchor.ordinal, leaf: p.leafIndex,
                    fp: p.fingerprint, headings: p.headingPath, section: p.sectionIndex, line: p.sourceLine,
                    fraction: p.fraction, byte: p.byteOffset)
    }

    static func old(_ e: DocumentEntry) -> OldDoc {
        OldDoc(key: e.key, hash: e.contentHash, time: e.timestamp, pos: old(e.position), prev: e.previous.map(old),
               marks: e.marks.isEmpty ? nil : Dictionary(uniqueKeysWithValues: e.marks.map { (String($0.key), old($0.value)) }))
    }

    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Entries with awkward keys, numbers of every form and marks, from a fixed seed.
    static func entries(count: Int) -> [DocumentEntry] {
        var rng = SeededRandom(seed: 27)
        let pieces = ["/home/a/notes.md", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "日本", "👍🏽",
                      "\u{2028}", "\r", "\u{08}", "\u{0C}", " ", "stdin:", "[^1]"]
        let doubles: [Double] = [0, 1, 0.5, 1700000000.5, 1700000000, 1e-7, 1.5e300, 123456789012345678, 0.1, 1.0 / 3,
                                 -0.0, 1e21, 5e-324, 0.99999]
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func int() -> Int { [0, 1, 7, 1 << 40, 1 << 48, 12345][pick(6)] }
        func position() -> ReadingPosition {
            ReadingPosition(anchor: Anchor(block: BlockID(int()), offset: int(), ordinal: int()), leafIndex: int(),
                            fingerprint: StableHash(rawValue: rng.next()),
                            headingPath: (0..<Int(rng.next() % 3)).map { _ in pieces[pick(pieces.count)] },
                            sectionIndex: int(), sourceLine: int() + 1, fraction: doubles[pick(doubles.count)] / 2e300,
                            byteOffset: rng.next() % 2 == 0 ? nil : int())
        }
        return (0..<count).map { _ in
            let key = (0..<Int(1 + rng.next() % 4)).map { _ in pieces[pick(pieces.count)] }.joined()
            var marks: [Character: ReadingPosition] = [:]
            for c in "aZbY".prefix(Int(rng.next() % 5)) { marks[c] = position() }
            return DocumentEntry(key: key, contentHash: StableHash(rawValue: rng.next()),
                                 timestamp: doubles[pick(doubles.count)], position: position(),
                                 previous: rng.next() % 2 == 0 ? nil : position(), marks: marks)
        }
    }

    @Test func linesAreWhatJSONEncoderWrote() throws {
        for entry in Self.entries(count: 300) {
            let expected = try Self.encoder.encode(OldRecord(doc: Self.old(entry), search: nil))
            #expect(String(decoding: StoreFormat.Record(doc: entry).json, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        for (pattern, time) in [("foo", 1.0), ("a\"b\\c\n", 1700000001.25), ("日本/👍🏽", 0.0)] {
            let expected = try Self.encoder.encode(OldRecord(doc: nil, search: OldSearch(pattern: pattern, time: time)))
            #expect(String(decoding: StoreFormat.Record(search: SearchRecord(pattern: pattern, timestamp: time)).json, as: UTF8.self)
                    == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func linesJSONEncoderWroteReadBackWhole() throws {
        for entry in Self.entries(count: 300) {
            let line = try Self.encoder.encode(OldRecord(doc: Self.old(entry), search: nil))
            #expect(StoreFormat.Record(line: Array(line))?.doc == entry, "\(entry.key)")
        }
    }

    /// Lines `JSONDecoder` read and lines it refused: each is read, or refused, alike.
    @Test func theSameLinesAreReadAndRefused() {
        let pos = #"{"block":1,"offset":2,"fp":"00000000000000ff"}"#
        let doc = { (fields: String) in #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1,"pos":\#(pos)\#(fields)}}"# }
        let lines = [
            doc(""), doc(#","prev":null"#), doc(#","prev":\#(pos)"#), doc(#","prev":1"#), doc(#","marks":{}"#),
            doc(#","marks":{"a":\#(pos),"bc":\#(pos)}"#), doc(#","marks":{"a":1}"#), doc(#","marks":null"#),
            doc(#","extra":[1,{"x":[true,false,null]},"s",-0.5e-3]"#), doc(#","key":"second"#),
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1.0e2,"pos":{"block":1.0,"offset":1e2,"fp":"00000000000000ff"}}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1,"pos":{"block":1.5,"offset":2,"fp":"00000000000000ff"}}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1,"pos":{"block":-0,"offset":2,"fp":"00000000000000ff"}}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1,"pos":{"block":9223372036854775808,"offset":2,"fp":"00000000000000ff"}}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1,"pos":{"block":01,"offset":2,"fp":"00000000000000ff"}}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":.5,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":1e400,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":"1","pos":\#(pos)}}"#,
            #"{"doc":{"key":"k","hash":"0123456789abcde","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"key":null,"hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"\ud83d\ude00\u00e9\/\b","hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"\ud83d","hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"\ude00x","hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            #"{"doc":{"key":"\x","hash":"0123456789abcdef","time":1,"pos":\#(pos)}}"#,
            "{\"doc\":{\"key\":\"a\u{01}b\",\"hash\":\"0123456789abcdef\",\"time\":1,\"pos\":\(pos)}}",
            "  " + doc("") + " \t", doc("") + " x", doc("") + ",",
            #"{"doc":null,"search":{"pattern":"p","time":2}}"#, #"{"search":{"pattern":"p"}}"#,
            #"{"search":{"pattern":"p","time":2},"doc":5}"#, #"{"other":1}"#, "{}", "[]", "1", "\"s\"", "",
            #"{"doc":{"key":"k","hash":"0123456789abcdef","time":NaN,"pos":\#(pos)}}"#, "{\"a\":1,}", "{\"a\":[1,]}", "{\"a\":[1,,]}", "{,}", "{\"a\" 1}",
            String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
        ]
        for line in lines {
            let old = try? JSONDecoder().decode(OldRecord.self, from: Data(line.utf8))
            let new = StoreFormat.Record(line: Array(line.utf8))
            #expect((old != nil) == (new != nil), "\(line)")
            if let old, let new {
                #expect(new.doc.map(Self.old(_:))?.key == old.doc?.key, "\(line)")
                #expect(new.search?.pattern == old.search?.pattern, "\(line)")
            }
        }
    }

    /// A damaged store line of a million `[` is refused, not a crash.
    @Test func deepNestingIsRefusedNotACrash() {
        #expect(StoreFormat.Record(line: Array(repeating: UInt8(ascii: "["), count: 1_000_000)) == nil)
        let nested = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSONValue.parse(Array(nested.utf8)) == nil)
        #expect(JSONValue.parse(Array("[[1]]".utf8)) == .array([.array([.number(1, integer: 1)])]))
    }
}
