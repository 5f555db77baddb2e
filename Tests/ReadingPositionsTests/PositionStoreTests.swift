import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ReadingPositions

@Suite struct StoreLocationTests {
    @Test func folioStateDirWins() {
        #expect(StoreLocation.directory(environment: ["FOLIO_STATE_DIR": "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/s")
    }

    @Test func xdgStateHomeCountsOnlyWhenAbsolute() {
        #expect(StoreLocation.directory(environment: ["XDG_STATE_HOME": "/x/", "HOME": "/h"]) == "/x/folio")
        #expect(StoreLocation.directory(environment: ["XDG_STATE_HOME": "rel/x", "HOME": "/h"]) == "/h/.local/state/folio")
        #expect(StoreLocation.directory(environment: ["FOLIO_STATE_DIR": "", "HOME": "/h"]) == "/h/.local/state/folio")
    }

    @Test func noHomeNoStore() {
        #expect(StoreLocation.directory(environment: [:]) == nil)
        let store = PositionStore(environment: [:])
        #expect(store.load().warning != nil)
        #expect(store.save(sampleEntry("/a.md", 1), now: 1) != nil)
    }
}

@Suite struct PositionStoreTests {
    @Test func savesAndLoadsWithPrivateModes() throws {
        try withTempDirectory { tmp in
            let dir = tmp + "/state/folio"
            let store = PositionStore(environment: ["FOLIO_STATE_DIR": dir, "HOME": "/nonexistent"])
            #expect(store.load().snapshot == StoreSnapshot())
            #expect(store.load().warning == nil)
            let entry = sampleEntry("/home/a/notes\twith tab.md", 3, marks: ["m": samplePosition(9)])
            #expect(store.save(entry, now: 1_700_000_000.25) == nil)
            #expect(store.update { $0.mergeSearches([SearchRecord(pattern: "needle", timestamp: 1_700_000_001)]) } == nil)
            let (snapshot, warning) = store.load()
            #expect(warning == nil)
            var expected = entry
            expected.timestamp = 1_700_000_000.25
            #expect(snapshot.entry(forKey: entry.key, contentHash: entry.contentHash) == expected)
            #expect(snapshot.searchHistory == ["needle"])
            #expect(fileMode(store.path!) == 0o600)
            #expect(fileMode(dir) == 0o700)
            #expect(fileMode(tmp + "/state") == 0o700)
            #expect(names(in: dir) == ["positions.v1", "positions.v1.lock"])
        }
    }

    /// A store keeps what it last wrote and reuses it while the file is still that file; a
    /// file written in place behind its back (same inode) is read again, not overwritten.
    @Test func aFileChangedInPlaceIsReadAgain() throws {
        try withTempDirectory { dir in
            let a = PositionStore(directory: dir)
            #expect(a.save(sampleEntry("/one.md", 1), now: 10) == nil)
            // Another writer appends a record to the same file (same inode, new size).
            let other = StoreFormat.encode({ var s = StoreSnapshot(); s.merge(sampleEntry("/other.md", 2)); return s }())
            let line = Array(other.split(separator: 0x0A)[1]) + [0x0A]
            let fd = open(dir + "/" + PositionStore.fileName, O_WRONLY | O_APPEND)
            #expect(fd >= 0)
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            #expect(a.save(sampleEntry("/two.md", 3), now: 12) == nil)
            #expect(Set(a.load().snapshot.entries.keys) == ["/one.md", "/other.md", "/two.md"])
        }
    }

    /// What a load read is reused by the next save only while the file is the one read.
    @Test func aLoadIsNotReusedAfterAnotherSave() throws {
        try withTempDirectory { dir in
            let a = PositionStore(directory: dir), b = PositionStore(directory: dir)
            #expect(a.save(sampleEntry("/one.md", 1), now: 10) == nil)
            #expect(a.load().snapshot.entries.count == 1)
            #expect(b.save(sampleEntry("/two.md", 2), now: 11) == nil)
            #expect(a.save(sampleEntry("/three.md", 3), now: 12) == nil)
            #expect(Set(b.load().snapshot.entries.keys) == ["/one.md", "/two.md", "/three.md"])
        }
    }

    @Test func twoStoresMergeInsteadOfOverwriting() throws {
        try withTempDirectory { dir in
            let a = PositionStore(directory: dir), b = PositionStore(directory: dir)
            #expect(a.save(sampleEntry("/one.md", 1, marks: ["a": samplePosition(1)]), now: 10) == nil)
            #expect(b.save(sampleEntry("/two.md", 2), now: 11) == nil)
            #expect(b.save(sampleEntry("/one.md", 5, marks: ["b": samplePosition(2)]), now: 12) == nil)
            // An older save (a folio whose clock is behind) loses the position, not its marks.
            #expect(a.save(sampleEntry("/one.md", 7, marks: ["c": samplePosition(3)]), now: 11.5) == nil)
            let s = a.load().snapshot
            #expect(Set(s.entries.keys) == ["/one.md", "/two.md"])
            #expect(s.entries["/one.md"]?.position == samplePosition(5))
            #expect(Set(s.entries["/one.md"]!.marks.keys) == ["a", "b", "c"])
            #expect(b.forget(key: "/two.md", contentHash: StableHash(rawValue: 0)) == nil)
            #expect(Set(a.load().snapshot.entries.keys) == ["/one.md"])
        }
    }

    @Test func corruptStoreIsSetAsideWithAWarning() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 1_234 })
            let garbage: [UInt8] = [0x00, 0xff, 0x13, 0x37] + Array("not a store\n".utf8)
            writeFile(store.path!, garbage)
            let (snapshot, warning) = store.load()
            #expect(snapshot == StoreSnapshot())
            #expect(warning?.contains("positions.v1.corrupt-1234") == true)
            #expect(contents(dir + "/positions.v1.corrupt-1234") == garbage)
            #expect(store.load().warning == nil)
            #expect(store.save(sampleEntry("/a.md", 1), now: 5) == nil)
            #expect(store.load().snapshot.entries.count == 1)
            // A second damaged store in the same second gets its own name.
            writeFile(store.path!, Array("junk".utf8))
            #expect(store.save(sampleEntry("/b.md", 1), now: 6)?.contains("corrupt-1234-1") == true)
            #expect(Set(store.load().snapshot.entries.keys) == ["/b.md"])
            #expect(names(in: dir).filter { $0.contains("corrupt") }.count == 2)
        }
    }

    @Test func aStoreThatIsADirectoryIsSetAside() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 99 })
            try FileManager.default.createDirectory(atPath: store.path!, withIntermediateDirectories: false)
            #expect(store.load().warning?.contains("corrupt-99") == true)
            #expect(store.save(sampleEntry("/a.md", 1), now: 5) == nil)
        }
    }

    @Test func unknownVersionIsKeptAsideNotDestroyed() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 77 })
            let future = Array("folio-positions 9\n{\"whatever\":true}\n".utf8)
            writeFile(store.path!, future)
            let (snapshot, warning) = store.load()
            #expect(snapshot == StoreSnapshot())
            #expect(warning?.contains("version 9") == true)
            #expect(contents(dir + "/positions.v1.version9-77") == future)
        }
    }

    @Test func aDamagedLineIsReadAroundAndReported() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir)
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            var bytes = contents(store.path!)!
            bytes += Array("{\"doc\":{\"key\":\"/b.md\",\"ha".utf8) // a torn line
            writeFile(store.path!, bytes)
            let (snapshot, warning) = store.load()
            #expect(warning == "reading positions: a damaged record in \(dir)/positions.v1 cannot be read; it is kept as it is")
            #expect(Set(snapshot.entries.keys) == ["/a.md"])
        }
    }

    @Test func unwritableStateDirectoryWarnsAndReadingGoesOn() throws {
        // Tests run as root, where permission bits do not stop writes: a directory whose
        // parent is a regular file can be neither created nor written.
        try withTempDirectory { dir in
            writeFile(dir + "/file", Array("x".utf8))
            let store = PositionStore(directory: dir + "/file/folio")
            let (snapshot, warning) = store.load()
            #expect(snapshot == StoreSnapshot())
            #expect(warning == nil)
            let saveWarning = store.save(sampleEntry("/a.md", 1), now: 1)
            #expect(saveWarning?.contains("not saved") == true)
            #expect(saveWarning?.contains("Not a directory") == true)
            #expect(store.update { $0.mergeSearches([SearchRecord(pattern: "x", timestamp: 2)]) } != nil)
        }
    }

    @Test func aWriterStoppedBeforeItsRenameLeavesTheStoreReadable() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir)
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            let before = contents(store.path!)
            // What a writer killed mid-save leaves: a partial temp file, no rename.
            let full = StoreFormat.encode(StoreSnapshot(entries: ["/b.md": sampleEntry("/b.md", 2)]))
            writeFile(dir + "/positions.v1.tmp-424242-1", Array(full.prefix(full.count / 2)))
            #expect(contents(store.path!) == before)
            #expect(store.load().warning == nil)
            #expect(Set(store.load().snapshot.entries.keys) == ["/a.md"])
            // The next save clears the leftover.
            #expect(store.save(sampleEntry("/c.md", 3), now: 3) == nil)
            #expect(names(in: dir) == ["positions.v1", "positions.v1.lock"])
        }
    }

    @Test func keepsTheThousandMostRecentlyUsedDocuments() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir)
            #expect(store.update { s in
                for n in 0..<1_005 { s.merge(sampleEntry("/doc\(n).md", n, time: Double(n))) }
            } == nil)
            #expect(store.load().snapshot.entries.count == 1_000)
            #expect(store.load().snapshot.entries["/doc4.md"] == nil)
            #expect(store.save(sampleEntry("/doc0.md", 0), now: 5_000) == nil)
            let s = store.load().snapshot
            #expect(s.entries.count == 1_000)
            #expect(s.entries["/doc0.md"] != nil)
            #expect(s.entries["/doc5.md"] == nil)
            #expect(s.entries["/doc6.md"] != nil)
        }
    }

    /// A lock another process never gives back (a folio stopped mid-save) fails the save
    /// with a warning instead of hanging; the store is untouched and saves work once it is free.
    @Test(.timeLimit(.minutes(1))) func aLockHeldElsewhereFailsTheSaveInsteadOfHanging() throws {
        try withTempDirectory { dir in
            var store = PositionStore(directory: dir)
            store.lockWait = 0.05
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            let fd = open(store.lockPath!, O_RDWR | O_CLOEXEC)
            try #require(fd >= 0)
            #expect(flock(fd, LOCK_EX) == 0)
            let result = store.updateReporting { $0.merge(sampleEntry("/b.md", 2)) }
            #expect(!result.saved)
            #expect(result.warning?.contains("another process holds the lock") == true, "\(result.warning ?? "nil")")
            #expect(Set(store.load().snapshot.entries.keys) == ["/a.md"])
            close(fd)
            #expect(store.save(sampleEntry("/b.md", 2), now: 2) == nil)
            #expect(Set(store.load().snapshot.entries.keys) == ["/a.md", "/b.md"])
        }
    }

    @Test func threadsWithTheirOwnLocksLoseNothing() throws {
        try withTempDirectory { dir in
            // flock locks belong to open file descriptions; every save opens its own.
            DispatchQueue.concurrentPerform(iterations: 4) { id in
                let store = PositionStore(directory: dir)
                for n in 0..<25 { _ = store.save(sampleEntry(workerKey(id, n), n), now: Double(n)) }
            }
            #expect(PositionStore(directory: dir).load().snapshot.entries.count == 100)
        }
    }

    @Test func processesSavingAtOnceLoseNothing() throws {
        try withTempDirectory { dir in
            let workers = 4, saves = 40
            let processes = try (0..<workers).map { try Worker.start(mode: "save", directory: dir, id: $0, count: saves) }
            for p in processes {
                p.waitUntilExit()
                #expect(p.terminationStatus == 0)
            }
            let (s, warning) = PositionStore(directory: dir).load()
            #expect(warning == nil)
            for id in 0..<workers {
                for n in 0..<saves { #expect(s.entries[workerKey(id, n)] != nil, "lost \(workerKey(id, n))") }
            }
            #expect(s.entries.count == workers * saves + 1)
            // Every worker's mark on the shared document survived the others' saves.
            #expect(Set(s.entries["/shared.md"]!.marks.keys) == Set((0..<workers).map { Character(UnicodeScalar(UInt8(65 + $0))) }))
            #expect(s.searches.count == workers * (saves / 10))
        }
    }

    @Test func writersKilledAtRandomAlwaysLeaveAReadableStore() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir)
            var generator = SystemRandomNumberGenerator()
            for round in 0..<6 {
                let p = try Worker.start(mode: "churn", directory: dir, id: round, count: 0)
                // Wait until it has saved at least once, then kill it at a random moment.
                let deadline = Date().addingTimeInterval(60)
                while store.load().snapshot.entries.keys.allSatisfy({ !$0.hasPrefix("/worker\(round)/") }), Date() < deadline {
                    usleep(5_000)
                }
                usleep(UInt32.random(in: 0...40_000, using: &generator))
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
                let bytes = try #require(contents(store.path!))
                guard case .snapshot(let s, let damaged) = StoreFormat.decode(bytes) else {
                    Issue.record("round \(round): store unreadable after SIGKILL"); return
                }
                #expect(damaged == 0)
                #expect(s.entries.keys.contains { $0.hasPrefix("/worker\(round)/") })
                #expect(store.load().warning == nil)
            }
            // The killed writers' temp files (if any) go with the next save.
            #expect(store.save(sampleEntry("/last.md", 1), now: 1) == nil)
            #expect(names(in: dir) == ["positions.v1", "positions.v1.lock"])
        }
    }
}
