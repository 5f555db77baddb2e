// folio-bench: release-build benchmarks. `swift run -c release folio-bench [--write-doc PATH]`.
//
// Builds a ~20 MB document by repeating SampleDocs (each copy's headings numbered so anchors
// and searches stay distinct), then reports:
//   - parse MB/s (libcmark + conversion to the model), layout MB/s at width 80, peak memory;
//   - print mode (parse + layout + render in pieces on all cores, as `folio --print`);
//   - the cost of one keystroke (update + frame + frame diff) for 1,000 line-downs and
//     1,000 page-downs, on a 20 KB and on the 20 MB document;
//   - search: a word near the end of the 20 MB document, and `n` to a match on the same screen.
// Figures are min / median / p90 over repetitions. No assertions: numbers go in the notes.
import Foundation
import GrammarLoader
import LineLayout
import MarkdownModel
import Pager
import Print
import ReadingPositions
import TerminalScreen
import TextSearch
import Threads

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func stats(_ samples: [Double]) -> String {
    let s = samples.sorted()
    func ms(_ v: Double) -> String { String(format: "%.3f ms", v * 1000) }
    return "min \(ms(s.first ?? 0))  median \(ms(s[s.count / 2]))  p90 \(ms(s[min(s.count - 1, s.count * 9 / 10)]))"
}

func peakMemoryMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kb / 1024
    }
    return 0
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let sampleDir = root.appendingPathComponent("SampleDocs")
let names = ["tour.md", "long.md", "wide.md"]
let samples = names.compactMap { try? String(contentsOf: sampleDir.appendingPathComponent($0), encoding: .utf8) }
guard !samples.isEmpty else { print("folio-bench: SampleDocs not found at \(sampleDir.path)"); exit(1) }

func bigDocument(bytes target: Int) -> String {
    var out = ""
    out.reserveCapacity(target + 100_000)
    var copy = 0
    while out.utf8.count < target {
        copy += 1
        for s in samples {
            // Number the headings of each copy so sections stay distinct.
            out += s.replacingOccurrences(of: "\n## ", with: "\n## \(copy). ")
            out += "\n\n"
        }
    }
    out += "\n\nThe very last paragraph mentions the word xylophone-terminus once.\n"
    return out
}

let args = CommandLine.arguments
// `--memory FILE`: heap in use (malloc) after each stage the pager goes through on a
// Markdown file, to attribute its memory: the bytes, the parse, the content and its counts,
// a second width's counts.
if let i = args.firstIndex(of: "--memory"), i + 1 < args.count {
    // Anonymous memory after giving free pages back (`malloc_trim`): the live heap, near enough.
    func heapMB() -> Double {
        Platform.trimHeap()
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return 0
    }
    // Bytes malloc has handed out and not had back (`mallinfo2`'s uordblks + hblkhd, all
    // arenas): what is live; anon minus this is the allocator's slack (free chunks in pages
    // that also hold live ones).
    // (From `malloc_stats`, which prints to standard error: its "Total (incl. mmap)" in use.)
    func liveMB() -> Double {
        let path = NSTemporaryDirectory() + "folio-bench-malloc-\(getpid())"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600), saved = dup(2)
        defer { try? FileManager.default.removeItem(atPath: path) }
        dup2(fd, 2); let wrote = Platform.writeHeapStatistics(); dup2(saved, 2); close(saved); close(fd)
        guard wrote, let text = try? String(contentsOfFile: path, encoding: .utf8),
              let total = text.range(of: "Total (incl. mmap):") else { return 0 }
        for line in text[total.upperBound...].split(separator: "\n") where line.contains("in use bytes") {
            return (Double(line.split(separator: "=").last?.trimmingCharacters(in: .whitespaces) ?? "0") ?? 0) / 1_048_576
        }
        return 0
    }
    var base = heapMB()
    func stage(_ name: String) {
        let now = heapMB()
        print(String(format: "%-34@ anon %7.1f MB (%+7.1f)  live %7.1f MB  VmHWM %6.0f MB", name as NSString, now,
                     now - base, liveMB(), peakMemoryMB()))
        base = now
    }
    print("strides: Block \(MemoryLayout<Block>.stride) B, InlineNode \(MemoryLayout<InlineNode>.stride) B, "
          + "BlockKind \(MemoryLayout<BlockKind>.size) B, InlineKind \(MemoryLayout<InlineKind>.size) B")
    stage("start")
    var source: [UInt8]? = [UInt8](FileManager.default.contents(atPath: args[i + 1]) ?? Data())
    let size = Double(source!.count) / 1_048_576
    stage(String(format: "source (%.1f MB)", size))
    let parsed = MarkdownParser.parse(source!)
    var document: Document? = parsed.document
    stage("Document (\(document!.blocks.count) blocks; \(parsed.report))")
    do {
        // What the model is made of: strings over 15 UTF-8 bytes live on the heap (a 32-byte
        // header, then malloc's rounding to 16 and its 8 bytes), arrays too (32-byte header).
        var nodes = 0, heapStrings = 0, stringBytes = 0, inlineArrays = 0, childArrays = 0, boxed = 0
        var packed = 0, packedBytes = 0
        func count(_ s: String) { let n = s.utf8.count; if n > 15 { heapStrings += 1; stringBytes += n } }
        func count(_ inlines: Inlines) {
            if inlines.isPacked { packed += 1; packedBytes += inlines.packedByteCount; return }
            if !inlines.nodes.isEmpty { inlineArrays += 1 }
            for node in inlines.nodes {
                nodes += 1
                switch node.kind {
                case .text(let t), .code(let t), .html(let t): count(t)
                case .link(let d, let t, _), .image(let d, let t): count(d); count(t); boxed += 1
                default: break
                }
            }
        }
        for block in document!.blocks {
            if block.children.count >= 2 { childArrays += 1 }  // one child is the next block: no array
            switch block.kind {
            case .paragraph(let i), .heading(_, let i), .summary(let i): count(i)
            case .codeBlock(let info, let literal, _): count(info); count(literal); boxed += 1
            case .htmlBlock(let t): count(t)
            case .table(let t): boxed += 1; t.header.forEach(count); t.rows.forEach { $0.forEach(count) }
            case .list: boxed += 1
            default: break
            }
        }
        print("model: \(nodes) inline nodes in \(inlineArrays) arrays, \(childArrays) child arrays, "
              + "\(heapStrings) heap strings (\(stringBytes / 1_048_576) MB of text), \(boxed) boxed payloads; "
              + "\(packed) packed inlines (\(packedBytes / 1_048_576) MB)")
    }
    source = nil
    stage("source freed")
    // As the parse worker does: the content and its navigation for the pager's width, then
    // the facts for the reading position; then the pager adopts the content.
    var spec: DocumentSpec? = DocumentSpec(name: "big", path: nil, document: document!)
    document = nil
    var probe = PagerState(documents: [DocumentSpec(name: "probe", path: nil, document: MarkdownParser.parse("x"))],
                           config: PagerConfig(), rows: 30, columns: 100)
    spec!.prebuild(for: probe.layoutOptions)
    _ = probe.update(.key(.char("q")))
    do {
        let content = spec!.prebuilt!.content
        stage("MarkdownContent + counts + navigation (\(content.unitCount) units)")
        print("content: \(content.textBytes / 1_048_576) MB of unit text; \(content.links.count) links")
    }
    var facts: DocumentFacts? = DocumentFacts(layout: DocumentLayout(content: spec!.prebuilt!.content,
                                                                     options: spec!.prebuilt!.options,
                                                                     rowCounts: spec!.prebuilt!.rowCounts),
                                              contentHash: StableHash(bytes: [UInt8]()))
    stage("DocumentFacts (\(facts!.leaves.count) leaves)")
    var state: PagerState? = PagerState(documents: [spec!], config: PagerConfig(), rows: 30, columns: 100)
    spec = nil
    stage("PagerState (adopts the content)")
    print("navigation: \(state!.active.headings.count) headings, \(state!.active.elements.count) Tab elements")
    _ = state!.update(.key(.char("G")))
    stage("G")
    _ = state!.update(.resize(rows: 20, columns: 70))
    stage("resize to 70 columns")
    _ = state!.update(.key(.char("g")))
    stage("g")
    state = nil
    facts = nil
    stage("all freed")
    exit(0)
}

let big = bigDocument(bytes: 20_000_000)
if let i = args.firstIndex(of: "--write-doc"), i + 1 < args.count {
    try big.write(toFile: args[i + 1], atomically: true, encoding: .utf8)
    print("wrote \(big.utf8.count) bytes to \(args[i + 1])")
    exit(0)
}
// `--store FILE`: decoding and encoding a reading-position store (`positions.v1`): what a save
// costs on the run loop (it reads, merges and writes the whole store) and what looking one
// entry up costs.
if let i = args.firstIndex(of: "--store"), i + 1 < args.count {
    let bytes = [UInt8](FileManager.default.contents(atPath: args[i + 1]) ?? Data())
    for _ in 0..<3 {
        let t0 = now()
        guard case .snapshot(let snapshot, _) = StoreFormat.decode(bytes) else { print("not a store"); exit(1) }
        let t1 = now()
        let encoded = StoreFormat.encode(snapshot)
        let t2 = now()
        let key = snapshot.entries.keys.sorted().last ?? ""
        _ = StoreFormat.decodeEntry(bytes, key: key, contentHash: StableHash(rawValue: 1))
        let t3 = now()
        print(String(format: "%d documents, %d KB: decode %.1f ms, encode %.1f ms (%d KB), one entry %.2f ms",
                     snapshot.entries.count, bytes.count / 1024, (t1 - t0) * 1000, (t2 - t1) * 1000, encoded.count / 1024,
                     (t3 - t2) * 1000))
    }
    // A save as the pager makes it (lock, read, merge one entry, write, replace), on a copy.
    let dir = NSTemporaryDirectory() + "folio-bench-store-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: dir + "/" + PositionStore.fileName, contents: Data(bytes))
    let store = PositionStore(directory: dir)
    guard case .snapshot(let snapshot, _) = StoreFormat.decode(bytes), let some = snapshot.entries.values.first else { exit(1) }
    var times: [Double] = []
    for k in 0..<10 {
        var entry = some
        entry.timestamp += Double(k + 1)
        let t0 = now()
        _ = store.updateReporting { $0.merge(entry) }
        times.append((now() - t0) * 1000)
    }
    print("one save:", times.map { String(format: "%.1f", $0) }.joined(separator: " "), "ms")
    try? FileManager.default.removeItem(atPath: dir)
    exit(0)
}

// `--print-cores FILE`: wall and CPU time of print mode's phases on a document parsed whole
// (parse in pieces, then runs of units laid out and rendered on all cores), coloured: how
// well each phase uses the cores.
if let i = args.firstIndex(of: "--print-cores"), i + 1 < args.count {
    let source = [UInt8](FileManager.default.contents(atPath: args[i + 1]) ?? Data())
    func cpu() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let options = LayoutOptions(width: 80, executor: .machine.foreground)  // as print mode
    for _ in 0..<2 {
        let (w0, c0) = (now(), cpu())
        let (document, report) = MarkdownParser.parse(source)
        let (w1, c1) = (now(), cpu())
        print("pieces: \(report)")
        let runs = PrintRenderer.renderRuns(document, options: options, theme: Theme(depth: .trueColor))
        let (w2, c2) = (now(), cpu())
        print(String(format: "parse %.0f ms wall %.0f ms CPU; runs (%d) %.0f ms wall %.0f ms CPU",
                     (w1 - w0) * 1000, (c1 - c0) * 1000, runs.count, (w2 - w1) * 1000, (c2 - c1) * 1000))
    }
    exit(0)
}

// `--print-phases FILE`: where print mode's time goes (plan, pieces, one-piece fallback).
if let i = args.firstIndex(of: "--print-phases"), i + 1 < args.count {
    let source = [UInt8](FileManager.default.contents(atPath: args[i + 1]) ?? Data())
    let options = LayoutOptions(width: 80, inlineLinkURLs: true, executor: .machine.foreground)  // as print mode
    for _ in 0..<3 {
        let t0 = now()
        let plan = ChunkPlan(source, targetBytes: 256 << 10)
        let t1 = now()
        let out = PrintRenderer.render(source: source, options: options, theme: nil)
        let t2 = now()
        print(String(format: "plan %.1f ms (%d pieces)  render(source:) %.1f ms  %d bytes out",
                     (t1 - t0) * 1000, plan?.chunks.count ?? 0, (t2 - t1) * 1000, out.reduce(0) { $0 + $1.count }))
    }
    let t0 = now()
    let layout = DocumentLayout(document: MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document, options: options)
    let t1 = now()
    let whole = PrintRenderer.render(layout, theme: nil)
    let t2 = now()
    print(String(format: "one piece: parse+layout %.1f ms  render %.1f ms", (t1 - t0) * 1000, (t2 - t1) * 1000))
    let pieces = PrintRenderer.render(source: source, options: options, theme: nil).flatMap { $0 }
    print("pieces print exactly as one piece: \(pieces == whole ? "yes" : "NO")")
    exit(0)
}

let small = String(decoding: Array(samples[0].utf8.prefix(20_000)), as: UTF8.self)

if args.contains("--keys-only") {
    keystrokes(small, label: "20 KB")
    exit(0)
}

// Keystrokes on highlighted code (`--highlight`): documents that are mostly fenced code in
// five languages, 40 KB and 4 MB, with the tree-sitter highlighter folio uses (grammars from
// `make grammars`). Each block is highlighted once, when first laid out, so the figures
// include the highlighting of the blocks that scroll into view.
if args.contains("--highlight") {
    let loader = GrammarLoader.forThisProcess(environment: ProcessInfo.processInfo.environment)
    guard !loader.available().filter({ $0 != "diff" }).isEmpty else {
        print("folio-bench: no grammars found (run `make grammars`)"); exit(1)
    }
    let highlighter = loader.highlighter()
    let code = CodeHighlighter { info, text in highlighter.highlight(info: info, code: text) }
    let blocks: [(String, String)] = [
        ("swift", "struct Point {\n    var x = 0, y = 0 // origin\n    func moved(by d: Int) -> Point { Point(x: x + d, y: y - d) }\n}\nlet names = [\"a\", \"b\"].map { $0.uppercased() }\n"),
        ("python", "def fib(n: int) -> int:\n    \"\"\"Fibonacci.\"\"\"\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b  # step\n    return a\n"),
        ("rust", "fn main() {\n    let v: Vec<u32> = (1..10).filter(|x| x % 2 == 0).collect();\n    println!(\"{:?}\", v); // evens\n}\n"),
        ("javascript", "const add = (a, b) => a + b;\nclass Box { constructor(v) { this.v = v } get value() { return `${this.v}` } }\n"),
        ("c", "#include <stdio.h>\nint main(void) {\n    for (int i = 0; i < 3; i++) printf(\"%d\\n\", i); /* count */\n    return 0;\n}\n"),
    ]
    func codeDocument(bytes target: Int) -> String {
        var out = "", k = 0
        while out.utf8.count < target {
            let (lang, body) = blocks[k % blocks.count]
            out += "## Example \(k)\n\nSome prose between the listings.\n\n```\(lang)\n" + String(repeating: body, count: 4) + "```\n\n"
            k += 1
        }
        return out
    }
    let big = codeDocument(bytes: 4_000_000)
    keystrokes(codeDocument(bytes: 40_000), label: "40 KB code, highlighted", highlighter: code)
    keystrokes(big, label: "4 MB code, highlighted", highlighter: code)
    keystrokes(big, label: "4 MB code, highlighted", highlighter: code, idle: true)
    keystrokes(big, label: "4 MB code, not highlighted")
    exit(0)
}
let mb = Double(big.utf8.count) / 1_000_000
print("document: \(String(format: "%.1f", mb)) MB, \(big.split(separator: "\n", omittingEmptySubsequences: false).count) lines")

// Parse and layout throughput.
var parseTimes: [Double] = []
var layoutTimes: [Double] = []
var (document, pieceReport) = MarkdownParser.parse(Array(big.utf8))
print("pieces: \(pieceReport)")
var layout = DocumentLayout(document: document, options: LayoutOptions(width: 80))
for _ in 0..<3 {
    let t0 = now()
    document = MarkdownParser.parse(big)
    let t1 = now()
    layout = DocumentLayout(document: document, options: LayoutOptions(width: 80))
    let t2 = now()
    parseTimes.append(t1 - t0)
    layoutTimes.append(t2 - t1)
}
let parse = parseTimes.min()!, lay = layoutTimes.min()!
print(String(format: "parse:          %.2f s  %.1f MB/s  (%d blocks)", parse, mb / parse, document.blocks.count))
print(String(format: "layout (w=80):  %.2f s  %.1f MB/s  (%d rows)", lay, mb / lay, layout.rowCount))
print(String(format: "parse+layout:   %.1f MB/s", mb / (parse + lay)))
print(String(format: "peak memory:    %.0f MB", peakMemoryMB()))

// Print mode as `folio --print` does it (pieces on all cores), plain text at width 80.
do {
    let source = Array(big.utf8)
    var times: [Double] = []
    var outBytes = 0
    for _ in 0..<3 {
        let t0 = now()
        let pieces = PrintRenderer.render(source: source, options: LayoutOptions(width: 80, inlineLinkURLs: true, executor: .machine.foreground), theme: nil)
        times.append(now() - t0)
        outBytes = pieces.reduce(0) { $0 + $1.count }
    }
    let best = times.min()!
    print(String(format: "print (pieces): %.2f s  %.1f MB/s  (%d bytes out)", best, mb / best, outBytes))
}

// Keystrokes: update + frame + diff, as the run loop does per key.
// With `idle`, the pager's idle work (laying out the pages ahead) runs between keys, as the
// run loop does when no key is waiting, and only the key is timed.
func keystrokes(_ markdown: String, label: String, highlighter: CodeHighlighter? = nil, idle: Bool = false) {
    var config = PagerConfig()
    config.theme = Theme(depth: .trueColor)
    config.highlighter = highlighter
    let doc = MarkdownParser.parse(markdown)
    for (name, key) in [("line-down", Key.char("j")), ("page-down", Key.char(" "))] {
        var state = PagerState(documents: [DocumentSpec(name: label, path: nil, document: doc)], config: config, rows: 50, columns: 120)
        var renderer = FrameRenderer()
        _ = renderer.render(state.frame(), depth: .trueColor, scrollRows: 0..<state.contentRows)
        var samples: [Double] = []
        var bytes = 0
        for _ in 0..<1000 {
            if idle { while state.wantsIdle { _ = state.update(.idle) } }
            let t0 = now()
            _ = state.update(.key(key))
            let out = renderer.render(state.frame(), depth: .trueColor, scrollRows: 0..<state.contentRows)
            samples.append(now() - t0)
            bytes += out.count
        }
        print("\(label)\(idle ? ", idle between keys" : "") 1000 × \(name): \(stats(samples))  avg \(bytes / 1000) bytes/frame")
    }
}
keystrokes(small, label: "20 KB")
keystrokes(big, label: "20 MB")

// Search near the end, then `n` to a match on the same screen.
do {
    var config = PagerConfig()
    config.theme = Theme(depth: .trueColor)
    var state = PagerState(documents: [DocumentSpec(name: "big", path: nil, document: document)], config: config, rows: 50, columns: 120)
    _ = state.update(.resize(rows: 50, columns: 81))  // lay out at 80 + the indicator column, reuse nothing
    var times: [Double] = []
    for _ in 0..<3 {
        var s = state
        let t0 = now()
        for k in "/xylophone-terminus" { _ = s.update(.key(.char(k))) }
        _ = s.update(.key(.enter))
        times.append(now() - t0)
    }
    print("search (typed incrementally) for a word at the end of 20 MB: \(stats(times))")
    var s = state
    for k in "/tide" { _ = s.update(.key(.char(k))) }
    _ = s.update(.key(.enter))
    var nTimes: [Double] = []
    for _ in 0..<200 {
        let t0 = now()
        _ = s.update(.key(.char("n")))
        _ = s.frame()
        nTimes.append(now() - t0)
    }
    print("n (next match, mostly on screen), 200 ×: \(stats(nTimes))")
}

// Resize of the 20 MB document in its middle: a new width lays the document out again; the
// width before it comes from the layout cache.
do {
    var config = PagerConfig()
    config.theme = Theme(depth: .trueColor)
    var state = PagerState(documents: [DocumentSpec(name: "big", path: nil, document: document)], config: config, rows: 50, columns: 120)
    for k in "50%" { _ = state.update(.key(.char(k))) }
    var fresh: [Double] = []
    var cached: [Double] = []
    for columns in [100, 90, 110] {
        var t0 = now()
        _ = state.update(.resize(rows: 50, columns: columns))
        _ = state.frame()
        fresh.append(now() - t0)
        t0 = now()
        _ = state.update(.resize(rows: 50, columns: 120))
        _ = state.frame()
        cached.append(now() - t0)
    }
    print("resize 20 MB to a new width: \(stats(fresh)); back to a cached width: \(stats(cached))")
}
