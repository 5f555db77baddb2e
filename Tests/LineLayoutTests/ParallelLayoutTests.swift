@testable import LineLayout
import MarkdownModel
import Testing

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
}
