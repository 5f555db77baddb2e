import Foundation
import Pager
import Testing
@testable import Session

/// The help is a document of the session: the loop gives it an input slot (so a file
/// opened after it gets the next one) and keeps no reading position for it.
@Suite struct HelpRunLoopTests {
    @Test func theHelpHasASlotAndNoPositionAndAFileOpensAfterIt() throws {
        var h = try RunLoopHarness(terminal: FakeTerminal(script: []))
        let path = h.stateDirectory.appendingPathComponent("other.md").path
        try "# Other\n".write(toFile: path, atomically: false, encoding: .utf8)
        let terminal = FakeTerminal(rows: 6, columns: 30, script: [
            .typed("5j"), .typed("h"), .typed("jj"), .typed("q"),
            .typed(":e \(path)\r"),
            .typed("q"),
        ])
        h = try RunLoopHarness(terminal: terminal)
        defer { h.removeStateDirectory() }
        h.scriptTheWorld()

        #expect(h.run() == .quit(status: 0))
        let state = h.loop.state
        #expect(state.documents.count == 3)
        #expect(state.documents[1].isHelp)
        #expect(h.loop.inputs.count == 3, "inputs[i] is document i's")
        #expect(!PositionsBridge.keepsPosition(h.loop.loaded, 1))
        #expect(state.current == 2)
        #expect(state.documents[2].path?.hasSuffix("other.md") == true)
        #expect(state.fileList == [0, 2])
        #expect(h.top == 5, "the document came back from the help where it was")
        #expect(h.savedTop() == 5)
    }
}
