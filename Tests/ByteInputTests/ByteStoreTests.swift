@testable import ByteInput
import Foundation
import Testing

/// A store that hands out its whole input shares it, lets an ended stream's bytes go, and reads
/// a file where asked, however the file changes under it.
@Suite struct ByteStoreTests {
    @Test func consolidatedStoreSharesItsBytesAndReadsTheSame() {
        let store = ByteStore()
        let input = (0..<(ByteStore.chunkSize * 2 + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        input.withUnsafeBytes { store.append($0) }
        let whole = store.consolidate()
        #expect(whole == input)
        #expect(store.count == input.count)
        #expect(store.bytes(5..<(ByteStore.chunkSize + 9)) == Array(input[5..<(ByteStore.chunkSize + 9)]))
        #expect(store.consolidate() == input)
        // Appending after it goes on where it was.
        [UInt8](repeating: 7, count: 10).withUnsafeBytes { store.append($0) }
        #expect(store.bytes(0..<store.count) == input + [UInt8](repeating: 7, count: 10))
    }

    /// An ended stream's store lets its bytes go once they are hashed: the count and the tag
    /// stay, reads find nothing (and never touch freed chunks), a reset starts over; a file's
    /// store has nothing to let go.
    @Test func aStoreLetsItsBytesGoAndKeepsItsCountAndTag() throws {
        for consolidated in [false, true] {
            let store = ByteStore()
            let input = (0..<(ByteStore.chunkSize + 777)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            input.withUnsafeBytes { store.append($0) }
            if consolidated { #expect(store.consolidate() == input) }
            #expect(store.tagOfBytesLetGo == nil)
            store.letGoOfBytes(keeping: 42)
            #expect(store.tagOfBytesLetGo == 42)
            #expect(store.count == input.count)
            var pieces = 0
            store.forEachPiece(in: 0..<store.count) { _, _ in pieces += 1; return true }
            #expect(pieces == 0)
            #expect(store.bytes(0..<10).isEmpty && store.consolidate().isEmpty && store.copyPrefix(5).isEmpty)
            store.reset()
            #expect(store.tagOfBytesLetGo == nil && store.count == 0)
            [UInt8](repeating: 9, count: 3).withUnsafeBytes { store.append($0) }
            #expect(store.bytes(0..<store.count) == [9, 9, 9])
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-letgo-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = ByteStore()
        try #require(file.attachFile(fd: fd, length: 3))
        file.letGoOfBytes(keeping: 7)
        #expect(file.tagOfBytesLetGo == nil && file.bytes(0..<3) == [1, 2, 3])
    }

    /// A file's store reads the file: the parse's copy is the file's bytes for any count
    /// (past the end: all of them), pieces and ranges across its 1 MB windows read the same,
    /// and a file that shrinks under it reads short where it lost bytes — never SIGBUS, as a
    /// mapping did (a log truncated by logrotate killed folio), and never zeros made up for
    /// the bytes it lost (issue 31: rows of `^@`).
    @Test func aFilesStoreReadsTheFileAndSurvivesTruncation() throws {
        let input = (0..<((4 << 20) * 2 + 4097)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 12) }
        try Self.withFileStore(input) { store, path in try readsTheFileAndSurvivesTruncation(input, store, path) }
    }

    private func readsTheFileAndSurvivesTruncation(_ input: [UInt8], _ store: ByteStore, _ path: String) throws {
        for count in [0, 1, 4 << 20, (4 << 20) + 1, input.count, input.count + 10] {
            #expect(store.copyPrefix(count) == Array(input.prefix(count)), "count \(count)")
        }
        #expect(store.bytes(0..<store.count) == input)
        let across = ((1 << 20) - 5)..<((3 << 20) + 7)
        #expect(store.bytes(across) == Array(input[across]))
        var pieces: [UInt8] = [], next = across.lowerBound
        store.forEachPiece(in: across) { piece, at in
            #expect(at == next)
            pieces.append(contentsOf: piece); next += piece.count
            return true
        }
        #expect(pieces == Array(input[across]))
        // Truncated to 1,000 bytes under the store: what is gone is not there.
        #expect(truncate(path, 1000) == 0)
        let tail = (input.count - 100)..<input.count
        #expect(store.bytes(tail).isEmpty)
        #expect(store.bytes((input.count - 8192)..<input.count).isEmpty)
        #expect(store.bytes(0..<1000) == Array(input.prefix(1000)))
        #expect(store.bytes(500..<1500) == Array(input[500..<1000]))
        #expect(store.copyPrefix(2000) == Array(input.prefix(1000)))
        // (Compared first, so that a failure does not print megabytes.)
        let whole = store.consolidate()
        let wholeIsWhatIsLeft = whole == Array(input.prefix(1000))
        #expect(wholeIsWhatIsLeft, "\(whole.count) bytes")
        var left: [UInt8] = []
        store.forEachPiece(in: 0..<store.count) { piece, _ in left.append(contentsOf: piece); return true }
        let piecesAreWhatIsLeft = left == Array(input.prefix(1000))
        #expect(piecesAreWhatIsLeft, "\(left.count) bytes")
        // Written again (a log goes on after `: > app.log`): the short window is read anew.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([7, 8, 9]))
        try handle.close()
        #expect(store.bytes(998..<1005) == Array(input[998..<1000]) + [7, 8, 9])
        // A store of chunks (a pipe) copies the same way.
        let piped = ByteStore()
        input.withUnsafeBytes { piped.append($0) }
        #expect(piped.copyPrefix(12345) == Array(input.prefix(12345)))
    }

    /// A file's window is read as far as it is asked for (64 KB first, then twice as much):
    /// small reads walking over the points where it grows, backwards, and across a window's
    /// end read the file's bytes, and so do reads that jump between windows.
    @Test func smallReadsAcrossAWindowsGrowthReadTheFile() throws {
        let input = (0..<((1 << 20) * 2 + 999)).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ $0 >> 9) }
        try Self.withFileStore(input) { store, _ in Self.smallReadsReadTheFile(input, store) }
    }

    private static func smallReadsReadTheFile(_ input: [UInt8], _ store: ByteStore) {
        let first = ByteStore.firstWindowRead
        var starts: [Int] = [0, 1, first - 3, first, first + 1, 2 * first - 2, 5 * first, first - 10, 3]
        starts += [(1 << 20) - 7, (1 << 20) + first, 100, (2 << 20) + 500, (1 << 20) - 1, input.count - 2]
        for start in starts {
            let range = start..<min(input.count, start + 40)
            #expect(store.bytes(range) == Array(input[range]), "at \(start)")
        }
        var walked: [UInt8] = []
        for at in stride(from: 0, to: 3 * first, by: 333) {
            walked += store.bytes(at..<min(at + 333, 3 * first))
        }
        #expect(walked == Array(input[0..<(3 * first)]))
    }

    /// `sample` reads a file's bytes straight from it and leaves the window where it was: the
    /// head's bytes, rewritten on disk after the window read them, still read as the window holds
    /// them (a sample that moved the window would have read them again).
    @Test func aSampleReadsTheFileAndLeavesTheWindow() throws {
        let input = (0..<((1 << 20) * 3 + 777)).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ $0 >> 7) }
        try Self.withFileStore(input) { store, path in
            #expect(store.bytes(0..<40) == Array(input[0..<40]))
            for range in [input.count - 64..<input.count, 0..<64, (2 << 20) + 3..<(2 << 20) + 9, 5..<5] {
                #expect(store.sample(range) == Array(input[range]), "\(range)")
            }
            #expect(store.sample(input.count - 10..<input.count + 50) == Array(input.suffix(10)), "clamped to the end")
            let fd = open(path, O_WRONLY)
            try #require(fd >= 0)
            let changed = [UInt8](repeating: 0xEE, count: 40)
            #expect(changed.withUnsafeBytes { pwrite(fd, $0.baseAddress, 40, 0) } == 40)
            close(fd)
            #expect(store.sample(0..<40) == changed, "a sample reads the file")
            #expect(store.bytes(0..<40) == Array(input[0..<40]), "the window stayed where it was")
        }
        let piped = ByteStore()
        Array("a piped input".utf8).withUnsafeBytes { piped.append($0) }
        #expect(piped.sample(2..<7) == Array("piped".utf8))
    }

    /// `body` with a store attached to a temporary file holding `input`, and the file's path.
    static func withFileStore(_ input: [UInt8], _ body: (ByteStore, String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-store-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(input)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let store = ByteStore()
        try #require(store.attachFile(fd: fd, length: input.count))
        try body(store, path)
    }
}
