import LessOptions
import Testing
@testable import Session

/// Which documents resume (`--restore`): files and piped Markdown are documents one comes
/// back to; piped text is a command's output (git, man, a build) and opens at the top, its
/// old place one `''` away (issue 27).
@Suite struct RestorePolicyTests {
    @Test(arguments: [
        // (policy, file, markdown, mode)
        (RestorePolicy.documents, true, true, RestorePolicy.Mode.resume),
        (.documents, true, false, .resume),     // a text file (a log): resumes
        (.documents, false, true, .resume),     // curl … | folio: resumes
        (.documents, false, false, .offer),     // git log, man ls (MAN_PN is a pipe too): top
        (.all, false, false, .resume),
        (.all, true, true, .resume),
        (.never, true, true, .none),
        (.never, false, false, .none),
    ])
    func modeByKindAndSource(policy: RestorePolicy, isFile: Bool, isMarkdown: Bool, mode: RestorePolicy.Mode) {
        #expect(policy.mode(isFile: isFile, isMarkdown: isMarkdown) == mode)
    }
}
