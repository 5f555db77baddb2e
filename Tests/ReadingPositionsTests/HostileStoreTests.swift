import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ReadingPositions

/// Issue 12, item 7: a store folio may not read is not "damaged", a planted lock symlink is
/// not followed, a failed save is reported as failed, a set-aside store is named in full.
@Suite struct HostileStoreTests {
    @Test func plantedLockSymlinkIsNotFollowed() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir + "/state", clock: { 7 })
            try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
            let target = dir + "/victim"
            #expect(symlink(target, dir + "/state/positions.v1.lock") == 0)
            let result = store.updateReporting { $0.merge(sampleEntry("/a.md", 1)) }
            #expect(!result.saved)
            #expect(result.warning?.contains("not saved") == true)
            #expect(!FileManager.default.fileExists(atPath: target), "the lock was created through the link")
        }
    }

    @Test func permissionIsNotDamage() {
        #expect(PositionStore.isPermission(EACCES) && PositionStore.isPermission(EPERM))
        #expect(!PositionStore.isPermission(EIO) && !PositionStore.isPermission(EISDIR))
    }

    /// Root reads any file, so this one needs an ordinary user (it says so when skipped).
    @Test(.enabled(if: geteuid() != 0, "root can read a mode-000 file"))
    func unreadableStoreIsNotSetAside() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 5 })
            #expect(store.save(sampleEntry("/a.md", 1), now: 1) == nil)
            let before = contents(store.path!)
            #expect(chmod(store.path!, 0) == 0)
            defer { chmod(store.path!, 0o600) }
            let (snapshot, warning) = store.load()
            #expect(snapshot == StoreSnapshot())
            #expect(warning?.contains("cannot read") == true, "\(warning ?? "nil")")
            let result = store.updateReporting { $0.merge(sampleEntry("/b.md", 1)) }
            #expect(!result.saved)
            #expect(names(in: dir).allSatisfy { !$0.contains("corrupt") })
            chmod(store.path!, 0o600)
            #expect(contents(store.path!) == before)
        }
    }

    @Test func setAsideStoreIsNamedInFull() throws {
        try withTempDirectory { dir in
            let store = PositionStore(directory: dir, clock: { 42 })
            writeFile(store.path!, Array("junk".utf8))
            let warning = store.load().warning
            #expect(warning?.contains(dir + "/positions.v1.corrupt-42") == true, "\(warning ?? "nil")")
        }
    }

    /// `FOLIO_STATE_DIR` naming a file: nothing can be saved, and the result says so.
    @Test func saveIntoAFileFailsVisibly() throws {
        try withTempDirectory { dir in
            writeFile(dir + "/plain-file", Array("x".utf8))
            let store = PositionStore(directory: dir + "/plain-file", clock: { 1 })
            let result = store.updateReporting { $0.merge(sampleEntry("/a.md", 1)) }
            #expect(!result.saved)
            #expect(result.warning?.contains("not saved") == true)
            #expect(store.load().warning == nil)  // reading an absent store is not an error
            let ok = PositionStore(directory: dir + "/state", clock: { 1 })
            #expect(ok.updateReporting { $0.merge(sampleEntry("/a.md", 1)) }.saved)
        }
    }
}
