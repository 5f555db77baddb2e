@testable import LineLayout
import MarkdownModel
import Testing
import Threads

/// Large documents are laid out on several threads; the result must not depend on it.
@Suite struct ParallelLayoutTests {
    @Test func parallelLayoutEqualsSequentialLayout() {
        var generator = MarkdownGenerator(seed: 7)
        let document = MarkdownParser.parse(generator.document(blocks: 300))
        for width in [1, 9, 40] {
            let options = LayoutOptions(width: width)
            let sequential = DocumentLayout(document: document, options: options, parallel: false)
            let parallel = DocumentLayout(document: document, options: options, parallel: true)
            #expect(sequential.rowCount == parallel.rowCount)
            #expect(sequential.allUnits.map(\.lines) == parallel.allUnits.map(\.lines))
            #expect(sequential.allUnits.map(\.text) == parallel.allUnits.map(\.text))
        }
    }

    /// The executor is passed in: on the calling thread alone (`.serial`), on two threads
    /// and on every core, a document lays out and counts its rows the same, also in the
    /// background count (which leaves a thread to the loop).
    @Test func everyExecutorLaysOutTheSame() throws {
        var generator = MarkdownGenerator(seed: 11)
        let document = MarkdownParser.parse(generator.document(blocks: 400))
        let layouts = [Executor.serial, Executor(threads: 2), .machine].map { executor in
            DocumentLayout(document: document, options: LayoutOptions(width: 30, executor: executor), parallel: true)
        }
        for layout in layouts.dropFirst() {
            #expect(layout.rowCount == layouts[0].rowCount)
            #expect(layout.allUnits.map(\.lines) == layouts[0].allUnits.map(\.lines))
        }
        let content = try #require(layouts[0].content.asMarkdown)
        let counts = [Executor.serial, Executor(threads: 2), .machine].map { executor in
            content.backgroundRowCounts(of: content.unitRange, options: LayoutOptions(width: 30, executor: executor))
        }
        #expect(counts.allSatisfy { $0 == counts[0] })
        #expect(counts[0].reduce(0, +) == layouts[0].rowCount)
    }

    @Test func anExecutorMapsInOrder() {
        for executor in [Executor.serial, Executor(threads: 2), .machine, .machine.foreground] {
            #expect(executor.map(count: 1000, slices: 7) { $0 * 3 } == (0..<1000).map { $0 * 3 })
            #expect(executor.map(count: 0) { $0 }.isEmpty)
        }
        #expect(Executor(threads: 0).threads == 1)
        #expect(!Executor.machine.foreground.background && Executor.machine.background)
    }
}
