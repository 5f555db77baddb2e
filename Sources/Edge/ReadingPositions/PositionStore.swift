import Threads
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store on disk: one file, `positions.v1` (format: `StoreFormat`), in the state directory
/// (`StoreLocation`), guarded by `flock` on `positions.v1.lock` beside it.
///
/// Every save is a locked read–merge–replace:
///
/// ```
/// flock(lock, EX) → read store → merge mine in (newest wins) → keep 1,000 docs
///   → write positions.v1.tmp-<pid>-<rand> → fsync → rename over positions.v1 → fsync dir → unlock
/// ```
///
/// so two folios never lose each other's entries, and a writer killed at any point leaves
/// either the old store or the new one (plus, at worst, a stale temp file the next save
/// removes). Reading takes no lock: `rename` makes replacement atomic.
///
/// Nothing here throws or stops folio, and nothing saved is lost without a word: problems
/// come back as warnings naming files by their full paths (folio shows the first on the
/// status line and says them all on stderr when it ends).
/// - A store with damaged records (lines that do not decode) keeps them byte for byte at
///   every save (`StoreSnapshot.unreadLines`: they may be a newer folio's); reading it warns.
/// - A damaged store (its bytes are not a store, or none of its records decodes) is renamed
///   `positions.v1.corrupt-<time>` (the warning gives the full path), and a fresh store starts.
/// - A store folio may not read (permissions: EACCES, EPERM) is left alone: reading says
///   "cannot read" and starts empty, saving fails with a warning. Setting it aside would lose
///   every saved position for a problem that is not its content. Other read errors (a
///   directory in its place, EIO) set it aside as damaged.
/// - A store whose header names another format version is renamed
///   `positions.v1.version<N>-<time>` (kept, never deleted), and a fresh store starts. Newer
///   formats are meant to use a new file name, so this only happens to a store copied by hand.
/// - An unwritable state directory, a full disk, a file size limit: reading goes on, saving
///   returns a warning. A write that fails (EFBIG, ENOSPC, EIO…) leaves the store as it was:
///   only the temp file was written, and it is removed.
public struct PositionStore: Sendable {
    public static let fileName = "positions.v\(StoreFormat.version)"

    /// The state directory; nil when the environment names none.
    public let directory: String?
    /// Seconds since the epoch, for naming files set aside. (Entry times are passed in.)
    let clock: @Sendable () -> Double
    /// Seconds a save waits for another process's lock before it gives up (and says so, as
    /// any failed save does): a folio stopped in the middle of a save (SIGSTOP, a debugger)
    /// must not make every other folio hang when it quits. A save holds the lock for
    /// milliseconds.
    public var lockWait: Double = 5
    /// The store as this process last wrote it (see `Cache`).
    let cache = Cache()

    public init(environment: [String: String],
                clock: @escaping @Sendable () -> Double = { Platform.secondsSinceEpoch() }) {
        self.init(directory: StoreLocation.directory(environment: environment), clock: clock)
    }

    public init(directory: String?, clock: @escaping @Sendable () -> Double = { Platform.secondsSinceEpoch() }) {
        self.directory = directory
        self.clock = clock
    }

    public var path: String? { directory.map { StoreLocation.join($0, PositionStore.fileName) } }
    var lockPath: String? { path.map { $0 + ".lock" } }
    var tempPrefix: String { PositionStore.fileName + ".tmp-" }

    // MARK: - Reading

    /// Everything stored. A missing store is an empty one. Never fails: a damaged store is set
    /// aside (under the lock) and reported in `warning`.
    public func load() -> (snapshot: StoreSnapshot, warning: String?) {
        guard let path else { return (StoreSnapshot(), PositionStore.noDirectoryWarning) }
        let before = FileIdentity(path)
        switch read(path) {
        case .missing, .failed(ENOTDIR):
            // No store yet, or no state directory (one that cannot exist: saving will say so).
            return (StoreSnapshot(), nil)
        case .bytes(let bytes):
            if case .snapshot(let s, let damaged) = StoreFormat.decode(bytes) {
                // The file did not change while it was read: the next save starts from this.
                if let before, before == FileIdentity(path) { cache.rememberRead(s, file: before) }
                return (s, PositionStore.damagedRecords(path, damaged))
            }
        case .failed(let code):
            if PositionStore.isPermission(code) { return (StoreSnapshot(), PositionStore.cannotRead(path, code)) }
        }
        // Damaged: look again under the lock (a writer may just have replaced it), then set it aside.
        do {
            return try withLock { try readForUpdate(path) }
        } catch {
            return (StoreSnapshot(), "reading positions: \(error)")
        }
    }

    /// The saved entry for `key` (else the newest for `contentHash`), decoding only the lines
    /// that can hold it (see `StoreFormat.decodeEntry`); a store this cannot read that way is
    /// loaded whole, as `load` does.
    public func loadEntry(key: String, contentHash: StableHash) -> (entry: DocumentEntry?, warning: String?) {
        guard let path else { return (nil, PositionStore.noDirectoryWarning) }
        switch read(path) {
        case .missing: return (nil, nil)
        case .bytes(let bytes):
            if case .entry(let entry) = StoreFormat.decodeEntry(bytes, key: key, contentHash: contentHash) { return (entry, nil) }
        case .failed: break
        }
        let (snapshot, warning) = load()
        return (snapshot.entry(forKey: key, contentHash: contentHash), warning)
    }

    /// Reads the store for a locked update: damaged or foreign stores are set aside.
    private func readForUpdate(_ path: String) throws -> (snapshot: StoreSnapshot, warning: String?) {
        let name: String
        switch read(path) {
        case .missing:
            return (StoreSnapshot(), nil)
        case .bytes(let bytes):
            switch StoreFormat.decode(bytes) {
            case .snapshot(let s, let damaged): return (s, PositionStore.damagedRecords(path, damaged))
            case .unknownVersion(let v):
                name = try setAside(path, suffix: "version\(v)")
                return (StoreSnapshot(), "reading positions: \(PositionStore.fileName) has format version \(v); starting afresh, the old store kept as \(name)")
            case .corrupt:
                name = try setAside(path, suffix: "corrupt")
            }
        case .failed(let code):
            if code == ENOTDIR { return (StoreSnapshot(), nil) }
            if PositionStore.isPermission(code) {
                // Not a damaged store: one we may not read. Saving over it would drop its entries.
                throw StoreError(operation: "cannot read", path: path, code: code)
            }
            name = try setAside(path, suffix: "corrupt")
        }
        return (StoreSnapshot(), "reading positions: the store was damaged; starting afresh, the old store kept as \(name)")
    }

    // MARK: - Writing

    /// Saves one document's entry (its `timestamp` becomes `now`), merged with what other
    /// folios saved meanwhile. Returns a warning instead of failing.
    @discardableResult
    public func save(_ entry: DocumentEntry, now: Double) -> String? {
        update { snapshot in
            var e = entry
            e.timestamp = now
            snapshot.merge(e)
        }
    }

    /// Forgets a document (by key, and every entry with its content).
    @discardableResult
    public func forget(key: String, contentHash: StableHash) -> String? {
        update { $0.forget(key: key, contentHash: contentHash) }
    }

    /// The locked read–modify–replace every change goes through. `change` must only add what
    /// this folio knows (merge), never overwrite the snapshot it is given wholesale.
    @discardableResult
    public func update(_ change: (inout StoreSnapshot) -> Void) -> String? {
        updateReporting(change).warning
    }

    /// `update`, saying whether the change reached the disk, and what the user must be told
    /// either way (a damaged store set aside, damaged records kept).
    public func updateReporting(_ change: (inout StoreSnapshot) -> Void) -> SaveReport {
        guard let directory, let path else { return SaveReport(saved: false, failure: PositionStore.noDirectoryWarning) }
        // Set when the store was read: a store set aside before the write failed is still
        // where the notice says.
        var notice: String?
        do {
            try makeDirectory(directory)
            return try withLock {
                removeStaleTempFiles(in: directory)
                // The store as this process last wrote it, while the file is still that one
                // (every write replaces it: another folio's save is a new file); else read.
                var snapshot: StoreSnapshot
                let reused = cache.snapshot(ifStill: FileIdentity(path))
                if let reused { snapshot = reused } else { (snapshot, notice) = try readForUpdate(path) }
                change(&snapshot)
                snapshot.bound()
                let (bytes, lines) = StoreFormat.encode(snapshot, reusing: cache.lines)
                try writeReplacing(path, with: bytes, in: directory)
                cache.remember(snapshot, lines: lines, file: FileIdentity(path))
                return SaveReport(saved: true, notice: notice)
            }
        } catch {
            cache.forget()
            return SaveReport(saved: false, notice: notice, failure: "reading positions not saved: \(error)")
        }
    }

    /// What a save did (`updateReporting`).
    public struct SaveReport: Equatable, Sendable {
        /// Whether the change reached the disk.
        public var saved: Bool
        /// What the user must be told whether or not it did: a store set aside (by its full
        /// path), damaged records kept.
        public var notice: String?
        /// Why the change did not reach the disk (nil when it did).
        public var failure: String?

        public init(saved: Bool, notice: String? = nil, failure: String? = nil) {
            self.saved = saved
            self.notice = notice
            self.failure = failure
        }

        /// The notice and the failure in one line (nil when neither).
        public var warning: String? {
            guard let failure else { return notice }
            return notice.map { "\($0); \(failure)" } ?? failure
        }
    }

    /// What this process last wrote (see `updateReporting`): a save of a moved position then
    /// costs a comparison of the entries and the write, not decoding and encoding the whole
    /// store (every 5 s of reading). Shared by copies of the
    /// store value.
    final class Cache: Sendable {
        private struct Kept {
            var kept: (snapshot: StoreSnapshot, file: FileIdentity)?
            var encoded: StoreFormat.EncodedLines = [:]
        }
        private let state = Locked(Kept())

        var lines: StoreFormat.EncodedLines { state.withLock { $0.encoded } }

        func snapshot(ifStill file: FileIdentity?) -> StoreSnapshot? {
            state.withLock { state in
                guard let kept = state.kept, let file, kept.file == file else { return nil }
                return kept.snapshot
            }
        }

        func remember(_ snapshot: StoreSnapshot, lines: StoreFormat.EncodedLines, file: FileIdentity?) {
            state.withLock { state in
                state.kept = file.map { (snapshot, $0) }
                state.encoded = lines
            }
        }

        /// A snapshot read from `file` (its encoded lines stay: they are checked entry by entry).
        func rememberRead(_ snapshot: StoreSnapshot, file: FileIdentity) {
            state.withLock { $0.kept = (snapshot, file) }
        }

        func forget() { state.withLock { $0 = Kept() } }
    }

    /// A file as `stat` knows it: the same device, inode, size and change time mean the
    /// same bytes (the store is only ever replaced whole, by rename).
    struct FileIdentity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev); inode = UInt64(st.st_ino); size = Int64(st.st_size)
            seconds = Int(st.st_ctim.tv_sec); nanoseconds = Int(st.st_ctim.tv_nsec)
        }
    }

    /// Whether a failed read is about permission (the store is fine, folio may not read it).
    static func isPermission(_ code: Int32) -> Bool { code == EACCES || code == EPERM }

    /// The warning for a store read with `count` damaged records (kept, see `StoreFormat`);
    /// nil when there are none.
    static func damagedRecords(_ path: String, _ count: Int) -> String? {
        switch count {
        case 0: return nil
        case 1: return "reading positions: a damaged record in \(path) cannot be read; it is kept as it is"
        default: return "reading positions: \(count) damaged records in \(path) cannot be read; they are kept as they are"
        }
    }

    static func cannotRead(_ path: String, _ code: Int32) -> String {
        "cannot read reading positions: \(path): \(String(cString: strerror(code)))"
    }

    static let noDirectoryWarning = "reading positions off: no state directory (set FOLIO_STATE_DIR or HOME)"
}

// MARK: - System calls

/// A failed system call: what was attempted, on what, and `strerror(errno)`.
public struct StoreError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var path: String
    public var code: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

enum ReadResult {
    case missing
    case bytes([UInt8])
    case failed(Int32)
}

extension PositionStore {
    func read(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return errno == ENOENT ? .missing : .failed(errno) }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if n == 0 { return .bytes(out) }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    /// `mkdir -p` with mode 0700 for the directories it creates.
    func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 || errno == EEXIST {
                var st = stat()
                if stat(prefix, &st) != 0 { throw StoreError(operation: "stat", path: prefix, code: errno) }
                if (st.st_mode & S_IFMT) != S_IFDIR { throw StoreError(operation: "mkdir", path: prefix, code: ENOTDIR) }
            } else {
                throw StoreError(operation: "mkdir", path: prefix, code: errno)
            }
        }
    }

    /// Runs `body` holding an exclusive `flock` on the lock file. The lock belongs to this open
    /// file description and goes away with it — also when the process is killed.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        guard let lockPath else { throw StoreError(operation: "lock", path: "", code: ENOENT) }
        // O_NOFOLLOW: a symbolic link planted in the state directory must not make folio
        // create or truncate a file elsewhere.
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw StoreError(operation: "open", path: lockPath, code: errno) }
        defer { close(fd) }
        let deadline = Platform.monotonicSeconds() + lockWait
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw StoreError(operation: "flock", path: lockPath, code: errno) }
            guard Platform.monotonicSeconds() < deadline else {
                throw StoreError(operation: "another process holds the lock", path: lockPath, code: EWOULDBLOCK)
            }
            usleep(2_000)
        }
        return try body()
    }

    /// Writes a temp file beside `path`, syncs it, renames it over `path`, syncs the directory.
    func writeReplacing(_ path: String, with bytes: [UInt8], in directory: String) throws {
        let temp = StoreLocation.join(directory, tempPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw StoreError(operation: "create", path: temp, code: errno) }
        var closed = false
        defer {
            if !closed { close(fd); unlink(temp) }
        }
        fchmod(fd, 0o600)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError(operation: "write", path: temp, code: errno)
            }
            written += n
        }
        if fsync(fd) != 0 { throw StoreError(operation: "fsync", path: temp, code: errno) }
        closed = true
        if close(fd) != 0 { unlink(temp); throw StoreError(operation: "close", path: temp, code: errno) }
        if rename(temp, path) != 0 {
            let code = errno
            unlink(temp)
            throw StoreError(operation: "rename", path: temp, code: code)
        }
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd) // best effort: the rename is done either way
            close(dfd)
        }
    }

    /// Renames a store that cannot be read to `<name>.<suffix>-<time>` (never deleting it).
    /// Returns the new file's full path, so the warning says where it went.
    func setAside(_ path: String, suffix: String) throws -> String {
        let stamp = Int64(clock().rounded(.down))
        var candidate = "\(path).\(suffix)-\(stamp)"
        var n = 1
        while access(candidate, F_OK) == 0 {
            candidate = "\(path).\(suffix)-\(stamp)-\(n)"
            n += 1
        }
        if rename(path, candidate) != 0 { throw StoreError(operation: "rename", path: path, code: errno) }
        return candidate
    }

    /// Temp files left by writers that were killed before their rename. Only called under the
    /// lock, when no live writer can own one.
    func removeStaleTempFiles(in directory: String) {
        guard let names = Platform.directoryEntries(directory) else { return }
        for name in names where name.hasPrefix(tempPrefix) {
            unlink(StoreLocation.join(directory, name))
        }
    }
}
