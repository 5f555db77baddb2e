import FuzzSupport
import GrammarLoader
import Highlight
import LineLayout
import MarkdownModel
import Styling
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer target: the syntax highlighter, every grammar, bounded as the product bounds it.
///
/// The first byte picks a language of `Languages.supported` (its low seven bits) and whether
/// the code is also laid out as a fenced block (its high bit); the rest is the code. Grammars
/// come from a `GrammarLoader` on `FOLIO_GRAMMARS` (built with AddressSanitizer for real
/// coverage of tree-sitter, and with `-fsanitize=fuzzer-no-link` for libFuzzer to follow
/// their code: see DEVELOPERS.md; every grammar loads before the first input). Checked on
/// every input:
/// - `Highlighter.highlight(language:code:)` within `HighlightBudget.standard` returns runs
///   that are non-empty, sorted, non-overlapping and within the code's UTF-8 bytes;
/// - laid out at a width of 1...16 with those runs, no row is wider than the width and the
///   rows hold the code's text (highlighting never changes wrapping).
enum FuzzHighlight {
    static let loader = GrammarLoader.forThisProcess(environment: Dictionary(uniqueKeysWithValues:
        ["FOLIO_GRAMMARS", "HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"].compactMap { name in getenv(name).map { (name, String(cString: $0)) } }))
    static let highlighter = Highlighter(grammar: { loader.grammar($0) })

    /// Loads every grammar before the first input (so that libFuzzer knows the code of those
    /// built with coverage from the start), and fails at once when one does not load: fuzzing
    /// the diff highlighter alone would report millions of clean runs of nothing.
    static let checkedGrammars: Void = {
        for name in Languages.supported where name != "diff" && loader.grammar(name) == nil {
            fatalError("grammar \(name) not found on the search path (set FOLIO_GRAMMARS)"
                       + (loader.runtimeProblem.map { ": \($0)" } ?? ""))
        }
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        _ = checkedGrammars
        guard let first = bytes.first else { return }
        let name = Languages.supported[Int(first & 0x7F) % Languages.supported.count]
        let code = String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
        guard let highlighting = highlighter.highlight(language: name, code: code) else {
            fatalError("\(name): no grammar")
        }
        let count = code.utf8.count
        var end = 0
        for run in highlighting.runs {
            guard run.range.lowerBound >= end, run.range.lowerBound < run.range.upperBound, run.range.upperBound <= count else {
                fatalError("\(name): run \(run.range) after \(end), code of \(count) bytes")
            }
            end = run.range.upperBound
        }
        if first >= 0x80 { layOut(code, language: name, highlighting: highlighting, width: 1 + Int(first % 16)) }
    }

    /// The code as a fenced block highlighted with `highlighting` (the block's literal is the
    /// code and a line end, unless the code closes the fence: then whatever the block holds is
    /// highlighted).
    static func layOut(_ code: String, language: String, highlighting: Highlighting, width: Int) {
        let fence = String(repeating: "`", count: 3 + (code.utf8.contains(UInt8(ascii: "`")) ? 8 : 0))
        let source = Array((fence + language + "\n" + code + "\n" + fence + "\n").utf8)
        let syntax = CodeHighlighter { info, literal in
            literal == code || literal == code + "\n" ? highlighting : highlighter.highlight(language: language, code: literal)
        }
        let document = MarkdownParser.parse(source, options: ParseOptions(inPieces: false, packed: false)).document
        var highlighted: [String] = []
        MarkdownContent.forEachRow(document, options: LayoutOptions(width: width, highlighter: syntax), parallel: false) { line in
            let columns = line.spans.reduce(0) { $0 + $1.width }
            if line.width > width || columns > width {
                fatalError("\(language): a row of \(columns) columns at width \(width): \(line.spans.map(\.text))")
            }
            highlighted.append(line.plainText)
        }
        var plain: [String] = []
        MarkdownContent.forEachRow(document, options: LayoutOptions(width: width), parallel: false) { plain.append($0.plainText) }
        if highlighted != plain { fatalError("\(language): highlighting changed the rows at width \(width)") }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = FuzzHighlight.checkedGrammars
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHighlight.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzHighlightMain {
    /// Without libFuzzer: runs the files given (a corpus) through the target once each.
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzHighlight.run($0) }
    }
}
#endif
