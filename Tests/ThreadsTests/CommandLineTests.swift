import CPlatform
import Foundation
import Testing

/// The command line CPlatform keeps from the C library's constructor arguments, which the
/// Swift runtime's `CommandLine` reads in a release (static) build instead of searching the
/// stack for it: the process's own arguments, as the kernel has them and as `CommandLine` says.
/// (The test binary links the runtime dynamically, which binds its own definition: that the
/// release build uses this one shows in `nm` (no `argvGrabber`) and in the start-up order,
/// where `_GLOBAL__sub_I_CommandLine.cpp` no longer appears.)
@Suite struct CommandLineTests {
    #if os(Linux) && canImport(Glibc)
    @Test func theKeptCommandLineIsTheProcesssOwn() throws {
        var count: Int32 = -1
        let argv = try #require(folio_command_line(&count))
        let kept = (0..<Int(count)).map { String(cString: argv[$0]!) }
        #expect(argv[Int(count)] == nil, "argv ends with NULL")
        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/cmdline"))
        let kernel = cmdline.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(count > 0)
        #expect(kept == kernel)
        #expect(kept == CommandLine.arguments)
    }
    #endif
}
