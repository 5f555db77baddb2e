import Styling
import Testing
@testable import TextModel

/// Decodes a line written as a Swift string (escapes as `\u{1B}`, backspace as `\u{08}`).
func decode(_ s: String, tabWidth: Int = 8) -> StyledLine {
    TerminalTextDecoder.decode(Array(s.utf8), tabWidth: tabWidth)
}

/// Decodes raw bytes.
func decode(bytes: [UInt8], tabWidth: Int = 8) -> StyledLine {
    TerminalTextDecoder.decode(bytes, tabWidth: tabWidth)
}

let control = TerminalTextDecoder.controlAttributes

@Test func controlRenderingsAreMarked() {
    #expect(control == TextAttributes(reverse: true))
}

/// The runs of a line as (text, attributes) pairs, easier to read in assertions.
func styled(_ line: StyledLine) -> [(String, TextAttributes)] {
    let bytes = Array(line.text.utf8)
    return line.runs.map { (String(decoding: bytes[$0.range], as: UTF8.self), $0.attributes) }
}

/// The linked text of a line as (text, url) pairs.
func linked(_ line: StyledLine) -> [(String, String)] {
    let bytes = Array(line.text.utf8)
    return line.links.map { (String(decoding: bytes[$0.range], as: UTF8.self), $0.url) }
}

/// Checks every invariant `StyledLine` promises; records an issue for each broken one.
func expectWellFormed(_ line: StyledLine, _ context: @autoclosure () -> String = "",
                      sourceLocation: SourceLocation = #_sourceLocation) {
    let text = line.text
    for scalar in text.unicodeScalars {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) {
            Issue.record("control U+\(String(v, radix: 16)) in text \(text.debugDescription) \(context())",
                         sourceLocation: sourceLocation)
        }
    }
    let count = text.utf8.count
    func onBoundary(_ offset: Int) -> Bool {
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return index.samePosition(in: text.unicodeScalars) != nil
    }
    var previousEnd = 0
    var previousAttributes: TextAttributes?
    for run in line.runs {
        let ok = !run.range.isEmpty && run.range.lowerBound >= previousEnd && run.range.upperBound <= count
            && !run.attributes.isPlain && onBoundary(run.range.lowerBound) && onBoundary(run.range.upperBound)
            && !(run.range.lowerBound == previousEnd && previousAttributes == run.attributes)
        if !ok { Issue.record("bad run \(run) in \(line) \(context())", sourceLocation: sourceLocation) }
        previousEnd = run.range.upperBound
        previousAttributes = run.attributes
    }
    previousEnd = 0
    for link in line.links {
        let ok = !link.range.isEmpty && link.range.lowerBound >= previousEnd && link.range.upperBound <= count
            && onBoundary(link.range.lowerBound) && onBoundary(link.range.upperBound)
            && !link.url.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
        if !ok { Issue.record("bad link \(link) in \(line) \(context())", sourceLocation: sourceLocation) }
        previousEnd = link.range.upperBound
    }
}
