import LineLayout
import MarkdownModel

extension PagerState {
    /// Code blocks of `content` got their syntax runs (`PagerEvent.codeHighlighted`): every
    /// open document showing that content (the help among them) lays their units out again. The
    /// first note of a document goes on the status line.
    mutating func codeHighlighted(content: MarkdownContent, blocks: [BlockID], note: String?) {
        for i in documents.indices where documents[i].layout.content as AnyObject === content {
            if documents[i].codeHighlighted(blocks: blocks, note: note), i == current, message == nil {
                message = documents[i].highlightNote
            }
        }
    }
}
