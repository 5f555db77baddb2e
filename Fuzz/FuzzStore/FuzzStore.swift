import ByteInput
import FuzzSupport
import LineLayout
import MarkdownModel
import ReadingPositions

/// libFuzzer target: the reading-position store reader on arbitrary bytes, and what folio
/// does with the positions it reads.
///
/// The input is a store file as it is; one whose first byte is odd is taken as records after a
/// valid header (the byte dropped), so most inputs reach the records. (Stores as folio writes
/// them start with `f`, even: the seed corpus is plain store files.) Checked on every input:
/// - reading never traps, and a store that is read writes back to bytes that read as the same
///   snapshot with as many damaged lines: every line it could not read is written back byte
///   for byte, nothing is dropped;
/// - looking one entry up in the written store (`decodeEntry`, by key and by content hash)
///   finds what reading the whole store finds;
/// - every position read (the position, `''`, the marks) resolves to a row of a small
///   Markdown document's layout and to a line of a small text, with its own content hash and
///   with the document's (the exact rule), and `bytesNeeded` does not overflow.
enum FuzzStore {
    /// Where positions are placed: made for each input that has any (a layout kept in a
    /// static is reported as a leak at exit, which would hide real ones).
    struct Documents {
        static let markdown = "# Title\n\nOne paragraph that wraps.\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- item\n- item\n"
        let layout = DocumentLayout(document: MarkdownParser.parse(markdown), options: LayoutOptions(width: 12))
        let hash = StableHash(bytes: Array(markdown.utf8))
        let facts: DocumentFacts
        let text: TextContent

        init() {
            facts = DocumentFacts(layout: layout, contentHash: hash)
            let store = ByteStore()
            Array("one\ntwo\n\nthree and more\n".utf8).withUnsafeBytes { store.append($0) }
            text = TextContent.whole(store)
        }
    }

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        var bytes = Array(input)
        if let first = bytes.first, first & 1 == 1 { bytes = Array((StoreFormat.header + "\n").utf8) + bytes.dropFirst() }
        guard case .snapshot(let snapshot, let damaged) = StoreFormat.decode(bytes) else { return }

        let written = StoreFormat.encode(snapshot)
        guard case .snapshot(let again, let damagedAgain) = StoreFormat.decode(written) else {
            fatalError("a store read could not be read back once written")
        }
        if again != snapshot { fatalError("written back, the store reads differently") }
        if damagedAgain != damaged { fatalError("\(damaged) damaged lines read, \(damagedAgain) written back") }

        guard !snapshot.entries.isEmpty else { return }
        let documents = Documents()
        for (key, entry) in snapshot.entries {
            let byKey = StoreFormat.decodeEntry(written, key: key, contentHash: entry.contentHash)
            if byKey != .entry(entry) { fatalError("the lookup of \(key.debugDescription) differs from the whole store") }
            let absent = "\u{1}not a key"
            if snapshot.entries[absent] == nil,
               StoreFormat.decodeEntry(written, key: absent, contentHash: entry.contentHash)
                != .entry(snapshot.entry(forKey: absent, contentHash: entry.contentHash)) {
                fatalError("the lookup by content hash \(entry.contentHash) differs from the whole store")
            }
            for position in [entry.position] + (entry.previous.map { [$0] } ?? []) + Array(entry.marks.values) {
                documents.place(position, storedHash: entry.contentHash)
            }
        }
    }
}

extension FuzzStore.Documents {
    /// Places `position` in the layout and the text, as saved with `storedHash` and as saved
    /// from these very documents (the exact rules).
    func place(_ position: ReadingPosition, storedHash: StableHash) {
        _ = LargeText.bytesNeeded(for: position)
        for stored in [storedHash, hash] {
            let resolved = resolve(position, storedContentHash: stored, in: facts)
            let row = layout.row(for: resolved.anchor)
            if !(0..<layout.endRow).contains(row) { fatalError("row \(row) of \(layout.rowCount)") }
            let line = LargeText.resolve(position, storedContentHash: stored, currentHash: hash, in: text).anchor.block.rawValue
            if !(0..<text.unitCount).contains(line) { fatalError("line \(line) of \(text.unitCount)") }
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzStore.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzStoreMain {
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzStore.run($0) }
    }
}
#endif
