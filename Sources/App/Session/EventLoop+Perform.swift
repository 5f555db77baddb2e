import Threads
import LineLayout
import MarkdownModel
import Pager
import ReadingPositions
import TextModel
import TerminalIO
import TerminalScreen
import Viewport
#if canImport(Glibc)
import Glibc
#endif

/// The pager's effects carried out: each returns what the pager must hear of it.
extension EventLoop {
    /// Carries out one of the pager's effects; what the pager must hear of it comes back as
    /// events (`send` them: the loop's way back into `update`). A `.quit` is the loop's own
    /// business (`loop`), and nothing here.
    mutating func perform(_ effect: PagerEffect) -> [PagerEvent] {
        switch effect {
        case .quit:
            return []
        case .suspend:
            saveAll()
            do { try terminal.suspend() } catch { /* the terminal went away; the next read reports it */ }
            if terminal.options.asks { replyExpectedSince = clock.now() }
            renderer.invalidate()
            graphics.reset()
            let size = terminal.size()
            return [.resize(rows: size.rows, columns: size.columns)]
        case .redrawAll:
            renderer.invalidate()
            graphics.reset()
            return []
        case .openURL(let url):
            if !ExternalOpener.open(url, environment: ProcessEnvironment.current) {
                try? terminal.write(OSC52.copy(url))
                return [.notice("\(url) (copied)")]
            }
            return []
        case .copy(let text):
            try? terminal.write(OSC52.copy(text))
            return []
        case .openFile(let path, let fragment):
            return openLinked(path: path, fragment: fragment)
        case .readToEnd(let index):
            guard inputs.indices.contains(index) else { return [] }
            // Markdown streams are read whole anyway; text streams are read on as the loop
            // demands (`demandInput`), so what is held never runs far ahead of what is indexed.
            if inputs[index].reader == nil { inputs[index].indexToEnd = true }
            // `F` on a text file: what the file gains is taken in as it comes (`pollFiles`).
            if state.following, index == state.current, inputs[index].reader == nil, inputs[index].isText {
                inputs[index].phase = .following
            }
            return []
        case .stopReading(let index):
            // (A Markdown stream is read whole whatever the keys: it is parsed whole.)
            guard inputs.indices.contains(index), inputs[index].isText else { return [] }
            inputs[index].reader?.readToEnd(false)
            inputs[index].indexToEnd = false
            if inputs[index].phase == .following {
                inputs[index].phase = .parsing
                inputs[index].settleTextFile()
            }
            if state.documents.indices.contains(index) { inputs[index].stoppedAt = state.documents[index].viewport.position }
            return []
        case .edit(let path, let line, let index):
            saveCurrent()
            let status = (try? terminal.handOver { Editor.run(path: path, line: line) }) ?? -1
            // The size first: the file read again below is laid out at it.
            send(tookTerminalBack())
            if status != 0 { say("The editor exited with status \(status)") }
            if inputs.indices.contains(index), inputs[index].source.filter != nil {
                // Shown through LESSOPEN or decompressed: the file's own bytes are not what it shows.
                say("\(inputs[index].source.name): not read again (shown through LESSOPEN or decompressed)")
            } else if inputs.indices.contains(index), inputs[index].isText {
                reopenText(index, path: path)
            } else {
                reloadFile(index, path: path, markChanges: false)
            }
            return []
        case .reread:
            return reread()
        case .leftDocumentForSearch(let index):
            leftDocumentForSearch(index)
            return []
        case .examine(let path):
            return examine(path)
        case .completePath(let prefix):
            return completePath(prefix)
        case .saveInput(let index, let path, let mode, let complete):
            return saveInput(index, to: path, mode: mode, complete: complete)
        case .shell(let command):
            return runShell(command)
        case .pipe(let command, let index, let lines):
            return pipe(lines, of: index, to: command)
        case .leftDocument(let index):
            positions.save(state: state, loaded: loaded, documentIndex: index)
            // The first time a file given on the command line is shown (`:n`), it opens
            // where the reader left it.
            if restoreOnFirstShow, inputs.indices.contains(state.current), !inputs[state.current].shown {
                inputs[state.current].shown = true
                if let m = restorePosition(state.current) { return [.notice(m)] }
            }
            return []
        }
    }
}
