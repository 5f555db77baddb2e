import LineLayout
import TerminalScreen
import Viewport

/// less's commands on the file list and outside the pager: `:x` `:d` `:e` (the list),
/// `s` (save piped input), `!` (a shell command), `|` (lines to a shell command). What they
/// ask of the world is an effect the run loop performs (`.examine`, `.saveInput`, `.shell`,
/// `.pipe`, `.completePath`), answered by events where the pager must know more
/// (`.linkedFileLoaded`, `.saveTargetExists`, `.pathCompletions`).
///
/// `LESSSECURE=1` (`PagerConfig.secure`) refuses `!`, `|`, `:e`, `s` and `v`, as less does.
extension PagerState {
    static let notAvailable = "Command not available"

    /// The file `by` places after `index` in the list (before it, negative), if any. A file
    /// taken out of the list (`:d`, reached again by Backspace) counts as the first.
    func file(after index: Int, by step: Int) -> Int? {
        let at = fileList.firstIndex(of: index) ?? 0
        let target = at + step
        return fileList.indices.contains(target) ? fileList[target] : nil
    }

    /// Puts document `index` after the current one in the file list (`:e`).
    mutating func placeAfterCurrent(_ index: Int) {
        fileList.removeAll { $0 == index }
        let at = fileList.firstIndex(of: current).map { $0 + 1 } ?? fileList.count
        fileList.insert(index, at: at)
    }

    /// `:d`: the current file out of the list; the next one (else the previous) is shown.
    /// The only file stays.
    mutating func removeCurrentFile() -> [PagerEffect] {
        let left = leaveHelp()
        guard let at = fileList.firstIndex(of: current) else { return left }
        guard fileList.count > 1 else { message = "The only file stays in the list"; return left }
        let next = at + 1 < fileList.count ? fileList[at + 1] : fileList[at - 1]
        let effects = switchTo(next)
        fileList.remove(at: at)
        return left + effects
    }

    /// `:e`, `!`: their prompt, unless in secure mode.
    mutating func startFilePrompt(_ kind: Prompt.Kind) -> [PagerEffect] {
        guard !config.secure else { message = Self.notAvailable; return [] }
        let left = kind == .examine ? leaveHelp() : []
        prompt = Prompt(kind: kind, literal: false, origin: active.viewport.position)
        return left
    }

    /// `:e FILE` typed: `%` is the current file, `#` the one before (`%%`, `##`: the signs);
    /// surrounding double quotes go. Nothing typed: the current file read again (less
    /// examines it again).
    mutating func examine(_ text: String) -> [PagerEffect] {
        var name = expandNames(Self.trimmingSpaces(text), quoting: false)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty else { return [.redrawAll, .reread(document: current)] }
        examining = true
        return [.examine(path: name)]
    }

    /// `s`: only for a pipe, as in less (a file is on disk already).
    mutating func startSave() -> [PagerEffect] {
        guard !config.secure else { message = Self.notAvailable; return [] }
        guard !active.isHelp else { return [] }  // no input
        guard active.path == nil else { message = "Input is not a pipe"; return [] }
        prompt = Prompt(kind: .save, literal: false, origin: active.viewport.position)
        return []
    }

    /// `s FILE` typed: the whole input is saved, once it has all arrived (reading on as `G`
    /// does; a key stops it, and what has arrived is saved, and said so). A file that exists
    /// is never written over without a question (`.saveTargetExists`).
    mutating func save(to text: String) -> [PagerEffect] {
        let path = Self.trimmingSpaces(text)
        guard !path.isEmpty else { return [] }
        if active.isGrowing { return seek(.save(path: path)) }
        return [.saveInput(document: current, path: path, mode: .create, complete: true)]
    }

    /// The file `s` named exists: less's question, answered by one key.
    mutating func askOverwrite(document: Int, path: String, complete: Bool) {
        prompt = Prompt(kind: .overwrite(path: path, document: document, complete: complete), literal: false,
                        origin: active.viewport.position)
    }

    /// `o` overwrites, `a` appends, `d` (or `q`, Esc, Enter, ^C) saves nothing; any other key
    /// asks again.
    mutating func answerOverwrite(path: String, document: Int, complete: Bool, key: Key) -> [PagerEffect] {
        let mode: SaveMode
        switch key {
        case .char("o"), .char("O"): mode = .overwrite
        case .char("a"), .char("A"): mode = .append
        case .char("d"), .char("D"), .char("q"), .char("Q"), .escape, .enter, .ctrl("c"), .ctrl("g"):
            prompt = nil
            message = "Not saved"
            return []
        default:
            return []
        }
        prompt = nil
        return [.saveInput(document: document, path: path, mode: mode, complete: complete)]
    }

    /// `!cmd` typed: `%` and `#` replaced by the files' names (quoted for the shell); `!!`
    /// (a `!` typed first) runs the last command again; nothing typed, or `!!` with none
    /// before: an interactive shell.
    mutating func shell(_ text: String) -> [PagerEffect] {
        if text.hasPrefix("!") { return [.shell(command: lastShellCommand ?? "")] }
        let command = expandNames(text, quoting: true)
        lastShellCommand = command
        return [.shell(command: command)]
    }

    /// `|` and a mark typed: checked now (less: before the command is asked for).
    mutating func startPipe(mark: Character) -> [PagerEffect] {
        guard !config.secure else { message = Self.notAvailable; return [] }
        guard !active.isHelp else { return [] }
        guard pipeUnits(mark) != nil else { message = "Mark \(mark) not set"; return [] }
        prompt = Prompt(kind: .pipe(mark: mark), literal: false, origin: active.viewport.position)
        return []
    }

    /// `|m cmd` typed: the lines between the mark and the screen go to the command.
    mutating func pipe(mark: Character, command: String) -> [PagerEffect] {
        guard let units = pipeUnits(mark) else { return [] }
        if let text = active.content.asText {
            let end = units.upperBound + 1 < text.endUnit ? text.startOffset(ofUnit: units.upperBound + 1) : text.store.count
            return [.pipe(command: command, document: current, lines: .bytes(text.startOffset(ofUnit: units.lowerBound)..<end))]
        }
        let first = active.content.sourceLines(ofUnit: units.lowerBound).first
        let last = active.content.sourceLines(ofUnit: units.upperBound).last
        return [.pipe(command: command, document: current, lines: .sourceLines(first...max(first, last)))]
    }

    /// The units `|` sends, as less's `pipe_mark`: from the marked line to the bottom of the
    /// screen when the mark is above it, from the top of the screen to the marked line when
    /// it is below; the whole screen is always included. `^` is the top of the document,
    /// `$` its end, `.` (or Enter) the screen alone. Nil (said) when the mark is not set.
    func pipeUnits(_ mark: Character) -> ClosedRange<Unit>? {
        let doc = active
        let rows = doc.layout.rowCount
        guard rows > 0, contentRows > 0 else { return nil }
        let topUnit = doc.layout.locate(doc.top).unit
        let bottomUnit = doc.layout.locate(min(doc.layout.endRow, doc.top + contentRows) - 1).unit
        let marked: Unit
        switch mark {
        case ".": return topUnit...bottomUnit
        case "^": marked = 0
        case "$": marked = doc.layout.lastUnit
        default:
            guard let position = doc.marks[mark] else { return nil }
            let top = Viewport(position: position, contentRows: contentRows).top(in: doc.layout)
            let row = doc.bottomMarks.contains(mark) ? min(doc.layout.endRow, top + contentRows) - 1 : top
            marked = doc.layout.locate(row).unit
        }
        return min(marked, topUnit)...max(marked, bottomUnit)
    }

    /// less's `fexpand`: `%` the current file's name, `#` the previous one's (`-` for
    /// standard input), `%%` and `##` the signs themselves. For a shell command the names are
    /// quoted when they hold anything the shell would read otherwise.
    func expandNames(_ text: String, quoting: Bool) -> String {
        func name(_ index: Int?) -> String? {
            guard let index, documents.indices.contains(index) else { return nil }
            let path = documents[index].path ?? "-"
            return quoting ? Self.shellQuoted(path) : path
        }
        var out = ""
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            guard c == "%" || c == "#" else { out.append(c); continue }
            if chars.first == c { chars.removeFirst(); out.append(c); continue }
            if let n = name(c == "%" ? current : previousDocument) { out += n } else { out.append(c) }
        }
        return out
    }

    /// `text` as one word for `sh`: as it is when it holds only characters the shell takes
    /// literally, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_./-+,:@=".unicodeScalars.contains($0)
        }
        if plain && !text.isEmpty { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `text` without spaces at either end.
    static func trimmingSpaces(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// Tab at the `:e` or `s` prompt: the next of the names offered, or ask for them.
    mutating func completePath() -> [PagerEffect] {
        guard var p = prompt, !config.secure else { return [] }
        if p.completions.indices.contains(p.completionIndex), p.editor.text == p.completions[p.completionIndex] {
            p.completionIndex = (p.completionIndex + 1) % p.completions.count
            p.editor.replace(with: p.completions[p.completionIndex])
            prompt = p
            return []
        }
        return [.completePath(prefix: p.editor.text)]
    }

    /// The names that complete what is typed: one is taken; several are cut to what they
    /// share, or, when that adds nothing, offered one by one (Tab shows the next).
    mutating func completionsArrived(prefix: String, names: [String]) {
        guard var p = prompt, p.kind == .examine || p.kind == .save, p.editor.text == prefix, let first = names.first else {
            return
        }
        var common = first
        for n in names.dropFirst() {
            while !n.hasPrefix(common) { common.removeLast() }
        }
        if names.count == 1 || common.count > prefix.count {
            p.editor.replace(with: common)
            p.completions = []
        } else {
            p.completions = names
            p.completionIndex = 0
            p.editor.replace(with: first)
        }
        prompt = p
    }
}
