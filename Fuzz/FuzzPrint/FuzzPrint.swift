import FuzzSupport
import LineLayout
import MarkdownModel
import Pager
import Print

/// libFuzzer target: parse + lay out + print an arbitrary document at a small width.
///
/// The first byte picks the width (1...40) and whether escapes are written; the rest is the
/// Markdown source. Checked on every input:
/// - output stays proportional to the input: at most `perRow(width)` bytes for each of at most
///   `4 × input + 16` rows (a wrapped link repeating a long URL on every row broke this:
///   80 KB of URL gave 80 MB);
/// - plain output holds no control character but LF: nothing a document holds reaches the
///   terminal as a control sequence.
enum FuzzPrint {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else { return }
        let width = 1 + Int(first % 40)
        let colour = first >= 128
        let source = Array(bytes.dropFirst())
        let theme: Theme? = colour ? Theme(depth: .trueColor) : nil
        let options = LayoutOptions(width: width, inlineLinkURLs: !colour)
        var total = 0
        var sawControl = false
        for piece in PrintRenderer.render(source: source, options: options, theme: theme) {
            total += piece.count
            if !colour {
                var i = 0
                while i < piece.count {
                    let b = piece[i]
                    if (b < 0x20 && b != 0x0A) || b == 0x7F { sawControl = true }
                    if b == 0xC2, i + 1 < piece.count, piece[i + 1] >= 0x80, piece[i + 1] < 0xA0 { sawControl = true }
                    i += 1
                }
            }
        }
        let bound = (4 * source.count + 16) * (60 * width + 64)
        if total > bound {
            fatalError("output \(total) bytes for \(source.count) bytes of input at width \(width) (bound \(bound))")
        }
        if sawControl { fatalError("a control character reached plain output (width \(width))") }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzPrint.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum FuzzPrintMain {
    /// Without libFuzzer: runs the files given (a corpus) through the target once each.
    static func main() {
        FuzzReplay.replay(CommandLine.arguments.dropFirst()) { FuzzPrint.run($0) }
    }
}
#endif
