import ByteInput
import LineLayout
import Pager
#if canImport(Glibc)
import Glibc
#endif

/// What the event loop does for the pager's commands that reach outside it: the files a search
/// goes on into, and less's `:e`, `s`, `!` and `|` (each a small function; `perform` calls them).
extension EventLoop {
    /// A search went on from document `index` into the one now in view (`/*`, `Esc n`): the
    /// position left is saved; the new one counts as shown, so its saved position is not
    /// restored over the match the search shows there.
    mutating func leftDocumentForSearch(_ index: Int) {
        positions.save(state: state, loaded: loaded, documentIndex: index)
        if inputs.indices.contains(state.current) { inputs[state.current].shown = true }
    }

    /// `:e FILE`: opened as a followed link's file is (`openLinked`: a regular file; Markdown
    /// by its name or first bytes, else text; one open already is switched to), relative to
    /// the working directory; `~/` is the home folder.
    mutating func examine(_ path: String) -> [PagerEvent] {
        openLinked(path: Self.expandingHome(path), fragment: nil)
    }

    /// `~` and `~/…` with `$HOME`.
    static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"),
              let home = ProcessEnvironment.current["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// Names a directory's listing offers for Tab, at most (a folder of a million files
    /// must not hold a key).
    static let completionLimit = 4_096

    /// Tab at `:e` or `s`: the entries of the folder `prefix` names that start with its last
    /// part, written as typed (`~/do` → `~/docs/`), a folder's with `/`; dot files only when
    /// the part starts with a dot.
    func completePath(_ prefix: String) -> [PagerEvent] {
        let slash = prefix.lastIndex(of: "/")
        let typedFolder = slash.map { String(prefix[...$0]) } ?? ""
        let part = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let folder = typedFolder.isEmpty ? "." : Self.expandingHome(typedFolder)
        var names: [String] = []
        if let dir = FileName.withCString(folder, { opendir($0) }) {
            defer { closedir(dir) }
            while names.count < Self.completionLimit, let entry = readdir(dir) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                let name = FileName.string(bytes)
                guard name != ".", name != "..", name.hasPrefix(part), !name.hasPrefix(".") || part.hasPrefix(".") else { continue }
                var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_LNK) || entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var st = stat()
                    isFolder = FileName.stat(folder + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
                }
                names.append(typedFolder + name + (isFolder ? "/" : ""))
            }
        }
        return [.pathCompletions(prefix: prefix, names: names.sorted())]
    }

    /// `s FILE`: document `index`'s input written to `path` (`~/` is the home folder):
    /// created only when it does not exist (else the pager asks: `.saveTargetExists`),
    /// overwritten or appended to when the reader said so. A piped Markdown document's bytes
    /// are let go once it is parsed (`ByteStore.letGoOfBytes`): then it cannot be saved, and
    /// that is said.
    func saveInput(_ index: Int, to path: String, mode: SaveMode, complete: Bool) -> [PagerEvent] {
        guard inputs.indices.contains(index) else { return [] }
        // The input's store holds all that arrived, unless its bytes were let go; the bytes
        // kept for the reading position are the whole of a small input.
        let kept = inputs[index].source.bytes
        let store = inputs.indices.contains(index) ? inputs[index].store : nil
        let fromStore = store.map { $0.tagOfBytesLetGo == nil && $0.count >= kept.count } ?? false
        guard fromStore || !kept.isEmpty else {
            return [.notice("\(FileName.display(path)): not saved (folio lets a piped Markdown document's bytes go once it is parsed)")]
        }
        let target = Self.expandingHome(path)
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC
        switch mode {
        case .create: flags |= O_EXCL
        case .overwrite: flags |= O_TRUNC
        case .append: flags |= O_APPEND
        }
        let fd = FileName.withCString(target) { open($0, flags, 0o666) }
        guard fd >= 0 else {
            let error = errno
            if error == EEXIST, mode == .create {
                return [.saveTargetExists(document: index, path: path, complete: complete)]
            }
            return [.notice("\(FileName.display(path)): \(String(cString: strerror(error)))")]
        }
        var ok = true
        var written = 0
        if fromStore, let store {
            let count = store.count
            store.forEachPiece(in: 0..<count) { piece, _ in
                ok = Shell.writeAll(fd, piece)
                return ok
            }
            written = count
        } else {
            kept.withUnsafeBytes { ok = Shell.writeAll(fd, $0) }
            written = kept.count
        }
        let error = errno
        close(fd)
        guard ok else {
            return [.notice("\(FileName.display(path)): \(String(cString: strerror(error)))")]
        }
        return [.notice("Saved \(written) bytes to \(FileName.display(path))" + (complete ? "" : " (what had arrived: the input goes on)"))]
    }

    /// `!cmd`: the command with the terminal handed over, then `!done  (press RETURN)`.
    mutating func runShell(_ command: String) -> [PagerEvent] {
        saveCurrent()
        let status = (try? terminal.handOver { () -> Int32 in
            announce("!" + command)
            let status = Shell.run(command)
            terminal.waitForReturn(after: "!done")
            return status
        }) ?? -1
        return tookTerminalBack() + (status < 0 ? [.notice("Cannot run the shell")] : [])
    }

    /// `|m cmd`: the lines the pager chose written to the command's standard input, the
    /// terminal handed over, then `|done  (press RETURN)`. A text document's lines are its
    /// input's bytes as read (its escape sequences too, as less pipes its file); a Markdown
    /// document's are its source lines.
    mutating func pipe(_ lines: PipeLines, of index: Int, to command: String) -> [PagerEvent] {
        guard inputs.indices.contains(index) else { return [] }
        var source: [UInt8]?
        let store = inputs.indices.contains(index) ? inputs[index].store : nil
        if case .sourceLines(let range) = lines {
            guard let bytes = markdownSource(index) else {
                return [.notice("Not piped: folio did not keep this document's source")]
            }
            source = Self.lines(range, of: bytes)
        }
        saveCurrent()
        let status = (try? terminal.handOver { () -> Int32 in
            announce("!" + command)
            let status = Shell.run(command) { fd in
                if let source {
                    _ = source.withUnsafeBytes { Shell.writeAll(fd, $0) }
                } else if case .bytes(let range) = lines {
                    store?.forEachPiece(in: range) { piece, _ in Shell.writeAll(fd, piece) }
                }
            }
            terminal.waitForReturn(after: "|done")
            return status
        }) ?? -1
        return tookTerminalBack() + (status < 0 ? [.notice("Cannot run the shell")] : [])
    }

    /// A Markdown document's source as it is now: its file read again, or the bytes held.
    func markdownSource(_ index: Int) -> [UInt8]? {
        if let path = inputs[index].source.path, case .success(let doc) = Input.load(path) { return doc.bytes }
        if !inputs[index].source.bytes.isEmpty { return inputs[index].source.bytes }
        guard inputs.indices.contains(index), inputs[index].store.tagOfBytesLetGo == nil else { return nil }
        return inputs[index].store.bytes(0..<inputs[index].store.count)
    }

    /// Lines `range` (1-based, ending at `\n`) of `bytes`, their line ends included.
    static func lines(_ range: ClosedRange<Int>, of bytes: [UInt8]) -> [UInt8] {
        var line = 1
        var start: Int?
        for (i, byte) in bytes.enumerated() {
            if line == range.lowerBound && start == nil { start = i }
            if byte == 0x0A {
                if line == range.upperBound { return Array(bytes[(start ?? i)...i]) }
                line += 1
            }
        }
        guard let start else { return [] }
        return Array(bytes[start...])
    }

    /// Says on the handed-over terminal what runs, as less does (`!make`).
    func announce(_ text: String) {
        try? terminal.write(Array((text + "\r\n").utf8))
    }

    /// After a command had the terminal: the colour reply may come again, everything is
    /// drawn anew at the terminal's size (the pager hears the size: `.resize`).
    mutating func tookTerminalBack() -> [PagerEvent] {
        if terminal.options.asks { replyExpectedSince = clock.now() }
        renderer.invalidate()
        graphics.reset()
        let size = terminal.size()
        return [.resize(rows: size.rows, columns: size.columns)]
    }
}
