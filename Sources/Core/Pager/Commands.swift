import LessOptions
import LineLayout
import Viewport

extension PagerState {
    /// Carries out a reading-view command. `count` is the numeric prefix, if one was typed.
    mutating func perform(_ command: Command, count: Int?) -> [PagerEffect] {
        let endBefore = isAtEnd
        let rows = contentRows
        let step = config.pageStep.rows(contentRows: rows)
        switch command {
        case .lineDown: scroll(by: count ?? 1)
        case .lineUp: scroll(by: -(count ?? 1))
        case .pageDown: scroll(by: count ?? step)
        case .pageUp: scroll(by: -(count ?? step))
        case .windowDown:
            if let n = count { config.pageStep = .rows(n) }
            scroll(by: config.pageStep.rows(contentRows: rows))
        case .windowUp:
            if let n = count { config.pageStep = .rows(n) }
            scroll(by: -config.pageStep.rows(contentRows: rows))
        case .halfDown:
            if let n = count { halfPage = n }
            scroll(by: halfPage ?? max(1, rows / 2))
        case .halfUp:
            if let n = count { halfPage = n }
            scroll(by: -(halfPage ?? max(1, rows / 2)))
        case .top, .bottom:
            // On input still being read, `G` reads on to its end, `Ng` to line N and `N%` to
            // the end (the whole must be known); Ctrl-C stops the reading.
            let growing = active.isGrowing
            if let n = count {
                if growing { return seek(.line(max(1, n))) }
                goToSourceLine(n)
            } else if command == .top {
                active.jump(to: .top)
            } else {
                active.jump(to: .bottom)
                if growing { return seek(.end) }
            }
        case .percent:
            let p = min(100, max(0, count ?? 0))
            if active.isGrowing { return seek(.percent(p)) }
            jump(toPercent: p)
        case .setMark(let c):
            active.marks[c] = active.viewport.position
            active.bottomMarks.remove(c)
            message = "Mark \(c) set"
        case .setBottomMark(let c):
            // The same view comes back at `'c` (the marked line on the bottom row, as in less);
            // `|c` pipes from the bottom line.
            active.marks[c] = active.viewport.position
            active.bottomMarks.insert(c)
            message = "Mark \(c) set on the bottom line"
        case .clearMark(let c):
            message = active.marks.removeValue(forKey: c) == nil ? "Mark \(c) not set" : "Mark \(c) cleared"
            active.bottomMarks.remove(c)
        case .gotoMark(let c):
            if let p = active.marks[c] { active.jump(to: p) } else { message = "Mark \(c) not set" }
        case .previousPosition:
            if let p = active.previousPosition { active.jump(to: p) } else { active.jump(to: .top) }
        case .info:
            message = infoLine()
        case .repaint:
            return [.redrawAll]
        case .reread:
            // less's `R`: repaint, and what is on disk read again.
            return [.redrawAll, .reread(document: current)]
        case .help:
            return active.isHelp ? leaveHelp() : openHelp()
        case .nextFile:
            let effects = leaveHelp()
            let n = count ?? 1
            if let file = file(after: current, by: n) { return effects + switchTo(file) }
            message = n > 1 ? "No (N-th) next file" : "No next file"
            return effects
        case .previousFile:
            let effects = leaveHelp()
            let n = count ?? 1
            if let file = file(after: current, by: -n) { return effects + switchTo(file) }
            message = n > 1 ? "No (N-th) previous file" : "No previous file"
            return effects
        case .firstFile:
            // less's `:x`: the first file, or with a count the N-th.
            let effects = leaveHelp()
            let n = count ?? 1
            guard n >= 1, n <= fileList.count else { message = "No such file"; return effects }
            return effects + switchTo(fileList[n - 1])
        case .removeFile:
            return removeCurrentFile()
        case .examine:
            return startFilePrompt(.examine)
        case .save:
            return startSave()
        case .shell:
            return startFilePrompt(.shell)
        case .pipeFrom(let mark):
            return startPipe(mark: mark)
        case .quit:
            // In the help, q goes back to the file (as in less, see `leaveHelp`).
            return active.isHelp ? leaveHelp() : [.quit]
        case .interrupt:
            // less: Ctrl-C interrupts (a search, reading on, a prompt: handled before a key
            // gets here); with nothing to interrupt it does nothing. (With -K it quits:
            // `handle(.key)`.) It leaves the help, as q does.
            return leaveHelp()
        case .suspend:
            return [.suspend]
        case .searchForward: startPrompt(.search(forward: true), count: count)
        case .searchBackward: startPrompt(.search(forward: false), count: count)
        case .filter: startPrompt(.filter)
        case .repeatSearch: return repeatSearch(reverse: false, count: count ?? 1)
        case .repeatSearchReverse: return repeatSearch(reverse: true, count: count ?? 1)
        case .repeatSearchAcrossFiles(let reverse):
            return repeatSearch(reverse: reverse, count: count ?? 1, acrossFiles: true)
        case .searchAcrossFiles(let forward):
            startPrompt(.search(forward: forward), count: count, modifiers: .acrossFiles)
        case .toggleHighlight: toggleHighlight()
        case .selectNext: selectNext(forward: true, count: count ?? 1)
        case .selectPrevious: selectNext(forward: false, count: count ?? 1)
        case .follow: return followSelection()
        case .back: return goBack()
        case .escape:
            if active.isHelp && selection == nil { return leaveHelp() }
            selection = nil
        case .outline: openOutline()
        case .nextHeading: jumpHeading(forward: true, count: count ?? 1)
        case .previousHeading: jumpHeading(forward: false, count: count ?? 1)
        case .edit:
            guard !config.secure else { message = Self.notAvailable; return [] }
            guard !active.isHelp, let path = active.path else {
                message = active.isHelp ? "Cannot edit the help" : "Cannot edit standard input"
                return []
            }
            let line = active.layout.rowCount > 0 ? active.layout.line(at: active.top).sourceLine : 1
            return [.edit(path: path, line: line, document: current)]
        case .followEnd:
            return followEnd()
        case .followToMatch:
            return followToMatch()
        case .matchBracket(let open, let close, let forward):
            matchBracket(open: open, close: close, forward: forward, count: count ?? 1)
        case .shiftRight, .shiftLeft:
            shiftHorizontally(right: command == .shiftRight, count: count)
        case .shiftToLineEnd:
            shiftToLineEnd()
        case .shiftToStart:
            shiftToStart()
        case .version:
            message = "folio \(Options.version)"
        case .bottomBuffered:
            // What has arrived, without reading on (`G` reads to the end).
            active.jump(to: .bottom)
        case .clearSearch:
            search = nil
            searchForgotten = true
        case .option(let letter, let change):
            return optionCommand(letter, change)
        case .namedOption(let change):
            startOptionPrompt(.optionName(change))
        case .unknown(let name):
            message = "Unknown key: \(name)  (h for help)"
        }
        return quitAtEnd(after: command, endBefore: endBefore)
    }

    /// The view shows the end of a whole document (less's end of file: `-e` and `-E`); never
    /// the help's, which they do not leave.
    var isAtEnd: Bool {
        !active.isHelp && !active.isGrowing && active.top + contentRows >= active.layout.endRow
    }

    /// less's `-e` / `-E`: a forward move at the end (`-e`), or one that reaches it (`-E`),
    /// goes on to the next file, or quits after the last.
    mutating func quitAtEnd(after command: Command, endBefore: Bool) -> [PagerEffect] {
        guard config.quitAtEOF != .never else { return [] }
        switch command {
        case .lineDown, .pageDown, .windowDown, .halfDown: break
        default: return []
        }
        guard config.quitAtEOF == .atEnd ? isAtEnd : endBefore && isAtEnd else { return [] }
        if let next = file(after: current, by: 1) { return switchTo(next) }
        return [.quit]
    }

    mutating func scroll(by delta: Int) {
        active.scroll(by: delta)
    }

    /// `N%`: in a text document, as less, the line holding byte N% of the input goes to the
    /// top (100%: the end); in Markdown, row N% of the document as rendered, the inverse of
    /// the percentage the status line and the scroll indicator show: Markdown's source
    /// bytes are not what is read (a table's pipes, link definitions, front matter and
    /// comments take bytes and few rows or none).
    mutating func jump(toPercent p: Int) {
        if let text = active.content.asText, p < 100 {
            let total = text.store.count
            guard total > 0, let unit = text.unit(containingByte: total / 100 * p + total % 100 * p / 100) else {
                active.jump(to: .bottom)
                return
            }
            active.prepare(aroundUnit: unit)
            active.jump(toRow: active.layout.rows(ofUnit: unit).lowerBound)
            return
        }
        active.jump(toRow: Row(active.layout.rowCount * p / 100))
    }

    /// `Ng`: source line N of the Markdown file, the numbers editors and `grep -n` print.

    mutating func goToSourceLine(_ line: Int) {
        active.prepare(aroundUnit: active.content.unit(forSourceLine: max(1, line)))
        let layoutRow = active.layout.row(forSourceLine: max(1, line))
        guard active.layout.rowCount > 0 else { return }
        let anchor = active.layout.anchor(atRow: min(layoutRow, active.layout.lastRow))
        active.jump(toRow: active.layout.row(for: anchor))
    }

    /// `=`: name, source lines on screen, rows and position.
    func infoLine() -> String {
        let doc = active
        let count = doc.layout.rowCount
        guard count > 0 else { return "\(doc.name) (empty)" }
        let top = doc.top
        let bottom = min(doc.layout.endRow, top + contentRows) - 1
        let first = doc.layout.line(at: top).sourceLine
        let last = doc.layout.line(at: max(top, bottom)).sourceLine
        let pct = percent(top: top)
        var parts = [doc.name]
        if fileList.count > 1, let n = fileList.firstIndex(of: current) {
            parts.append("file \(n + 1) of \(fileList.count)")
        }
        parts.append("lines \(first)-\(last) of \(doc.content.sourceLineCount)")
        parts.append("rows \(top + 1)-\(bottom + 1) of \(count)")
        parts.append("\(pct)%")
        return parts.joined(separator: " · ")
    }

    /// Percentage through the document at the bottom row of the view: in a text document,
    /// of the input's bytes up to the end of the bottom row's line (less's `%`, exact before
    /// every row is counted); in Markdown, of the rows (see `jump(toPercent:)`).
    func percent(top: Row) -> Int {
        let count = active.layout.rowCount
        guard count > 0 else { return 100 }
        let bottom = min(active.layout.endRow, top + contentRows)
        if let text = active.content.asText, text.store.count > 0 {
            let unit = active.layout.locate(bottom - 1).unit
            let end = unit + 1 < text.endUnit ? text.startOffset(ofUnit: unit + 1) : text.store.count
            return Int(Double(end) * 100 / Double(text.store.count))
        }
        return bottom.index * 100 / count
    }

    mutating func jumpHeading(forward: Bool, count: Int) {
        let doc = active
        guard !doc.headings.isEmpty, doc.layout.rowCount > 0 else { message = "No headings"; return }
        let top = doc.top
        var target: Row?
        var remaining = count
        if forward {
            for h in doc.headings {
                let r = doc.layout.rows(ofUnit: h.unit)
                if !r.isEmpty, r.lowerBound > top { remaining -= 1; if remaining == 0 { target = r.lowerBound; break } }
            }
        } else {
            for h in doc.headings.reversed() {
                let r = doc.layout.rows(ofUnit: h.unit)
                if !r.isEmpty, r.lowerBound < top { remaining -= 1; if remaining == 0 { target = r.lowerBound; break } }
            }
        }
        guard let t = target else { message = forward ? "No next heading" : "No previous heading"; return }
        active.jump(toRow: t)
    }
}
