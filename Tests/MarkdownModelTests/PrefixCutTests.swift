import MarkdownModel
import Testing

@Suite struct PrefixCutTests {
    let source = Array("# A\n\npara\nmore\n\n- item\n\n".utf8)

    @Test func cutsJustAfterABlankLine() {
        #expect(PrefixCut.last(in: source) == source.count)
        #expect(PrefixCut.first(in: source, atOrAfter: 0) == 5)
        #expect(PrefixCut.first(in: source, atOrAfter: 5) == 5)
        #expect(PrefixCut.first(in: source, atOrAfter: 6) == 16)
        #expect(PrefixCut.first(in: source, atOrAfter: 17) == source.count)
        #expect(PrefixCut.first(in: source, atOrAfter: source.count + 1) == nil)
        #expect(PrefixCut.last(in: Array("one line\n".utf8)) == nil)
        #expect(PrefixCut.last(in: []) == nil)
    }

    /// Every cut is a boundary of the full parse: the blocks of the prefix are the first
    /// blocks of the whole (the preview's first screen is the document's first screen).
    @Test func aPrefixParsesToTheFirstBlocksOfTheWhole() {
        let whole = MarkdownParser.parse(source).document
        for offset in 0...source.count {
            guard let cut = PrefixCut.first(in: source, atOrAfter: offset) else { continue }
            let prefix = MarkdownParser.parse(Array(source[..<cut])).document
            let n = prefix.blocks.count
            #expect(n <= whole.blocks.count)
            for i in 0..<n { #expect(prefix.blocks[i].kind == whole.blocks[i].kind) }
        }
    }
}
