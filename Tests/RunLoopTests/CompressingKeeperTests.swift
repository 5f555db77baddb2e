import Foundation
import MarkdownModel
import Testing
@testable import Session

/// A stream's parsed bytes are kept compressed while their pages are given back
/// (`CompressingKeeper`), and given back whole if the pieces fail.
@Suite struct CompressingKeeperTests {
    /// Runs of any size (empty, one byte, pages, megabytes; text and noise) at their offsets
    /// come back as they were into a source whose runs were zeroed, and the copy is smaller
    /// than the text.
    @Test func keptRunsComeBackIntoTheSource() throws {
        var rng = SystemRandomNumberGenerator()
        let text = Array(String(repeating: "- [#12345](https://github.com/rust-lang/rust/pull/12345) Stabilize `x`.\n", count: 40_000).utf8)
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let source = text + noise + Array("tail".utf8)
        let keeper = CompressingKeeper()
        var zeroed = source
        var at = 0
        for size in [0, 1, 4096, 1 << 20, 777, text.count - (1 << 20) - 4096 - 1 - 777, 250_000, source.count] {
            let run = at..<min(source.count, at + size)
            let kept = source.withUnsafeBufferPointer { keeper.keep(UnsafeBufferPointer(rebasing: $0[run]), at: run.lowerBound) }
            #expect(kept)
            for i in run { zeroed[i] = 0 }
            at = run.upperBound
        }
        #expect(at == source.count)
        #expect(keeper.keptBytes < text.count / 3 + noise.count + 1000)
        keeper.restore(&zeroed)
        let same = zeroed == source  // (a Bool: a failure would print every byte)
        #expect(same)
    }

    /// Through a parse: a source whose pieces fail once all are done and let go (cmark's
    /// reference budget over the whole) is parsed whole from the kept copy, as one parse
    /// gives it.
    @Test func aParseWhosePiecesFailIsParsedWholeFromTheKeptBytes() throws {
        let definitions = (0..<5000).map { "[d\($0)]: /" + String(repeating: "u", count: 95) + "\n\n" }.joined()
        let heavy = (0..<5000).map { "[d\($0)]" }.joined(separator: " ")
        let filler = String(repeating: "# Filler\n\nplain text only\n\n", count: 7500)
        let source = Array((definitions + (0..<4).map { _ in "# H\n\n" + heavy + "\n\n" + filler }.joined()).utf8)
        let keeper = CompressingKeeper()
        var handed = source
        let document = MarkdownParser.parse(handingOver: &handed, options: ParseOptions(keeper: keeper)).document
        #expect(handed.isEmpty)
        let same = document.dump() == MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document.dump()
        #expect(same)
        #expect(keeper.keptBytes == 0, "restored: the copy is let go")
    }

    /// A parse whose pieces are in lets the copy go at once (the pager builds the content
    /// next, at its peak, while the parse worker still holds the keeper).
    @Test func aParseWhosePiecesAreInLetsTheCopyGo() throws {
        let section = "# Part\n\nSome *text* with a [link](https://example.org/a/b) and `code`.\n\n- item\n- item\n\n"
        let source = Array(String(repeating: section, count: (MarkdownParser.piecewiseBytes / section.utf8.count) * 3).utf8)
        final class Watching: SourceKeeper {
            let inner: CompressingKeeper
            var keptAtMost = 0
            init(_ inner: CompressingKeeper) { self.inner = inner }
            func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
                defer { keptAtMost = max(keptAtMost, inner.keptBytes) }
                return inner.keep(bytes, at: offset)
            }
            func restore(_ source: inout [UInt8]) { inner.restore(&source) }
            func discard() { inner.discard() }
        }
        let keeper = Watching(CompressingKeeper())
        var handed = source
        let document = MarkdownParser.parse(handingOver: &handed, options: ParseOptions(keeper: keeper)).document
        let same = document.dump() == MarkdownParser.parse(source, options: ParseOptions(inPieces: false)).document.dump()
        #expect(same)
        #expect(keeper.keptAtMost > 0)
        #expect(keeper.inner.keptBytes == 0)
    }
}

/// The periodic save waits for a large Markdown document's full parse: its key is the hash
/// of the whole input, which the parse takes off the loop (hashing 102 MB on the loop made
/// a key wait ~150 ms).
@Suite struct AutosaveTests {
    @Test func noPeriodicSaveWhileMarkdownAwaitsItsFullParse() throws {
        for preview in [false, true] {
            let h = try RunLoopHarness(terminal: FakeTerminal(script: []), preview: preview)
            defer { h.removeStateDirectory() }
            #expect(h.loop.awaitingFullParse == preview)
        }
    }
}
