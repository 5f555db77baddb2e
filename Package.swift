// swift-tools-version:6.0
// folio — a Markdown pager for the terminal. Module map and dependency direction:
// see DEVELOPERS.md. The folders of Sources/ are the floors: C (module maps and shims for C
// libraries), Threads (locks, workers, the platform's calls: the only unchecked module, under
// every floor), Core (pure: never a file descriptor, the clock or the environment), Edge (the
// I/O the core asks for) and App (the event loop, the executables). Dependencies point down:
// App → Edge → Core → Threads, C.
import PackageDescription

// Start-up: every shared library a process loads costs its mapping, its relocations and its
// symbol lookups before `main` (see docs/benchmarks.md, "Start-up: shared libraries"). On
// Linux the C libraries are therefore linked from their static archives (the Debian -dev
// packages ship them: `-l:libcmark.a`), and so, when the Swift runtime is linked in
// (`--static-swift-stdlib`, as `make release` does), are libstdc++ and libgcc: `folio` then
// loads only glibc. Elsewhere (macOS) the libraries are linked by name, as found.
func systemLink(_ names: String...) -> [LinkerSetting] {
    names.flatMap { name -> [LinkerSetting] in
        [.linkedLibrary(":lib\(name).a", .when(platforms: [.linux])), .linkedLibrary(name, .when(platforms: [.macOS]))]
    }
}

// The static Swift runtime asks for `-lstdc++` (its static-stdlib-args.lnk), which the linker
// would take from libstdc++.so; `Sources/C/StaticCxx` holds a `libstdc++.so` that is a linker
// script naming the archive instead, found first. A link without the static runtime never asks
// for libstdc++, so debug builds and tests are unchanged. The same file asks for
// `-export-dynamic`, which put 5,300 of folio's own symbols in the dynamic symbol table that
// the runtime's start-up `dladdr` walks; nothing loads symbols from the executable (the
// grammars and the image plugin are looked up by their own handles), so it is turned off.
//
// The executable is linked by lld (the toolchain's own) for `--symbol-ordering-file`: the
// functions a first screen runs come first and together (`Sources/Link/startup-order.txt`,
// written by `make startup-order`), so the code a start touches is a few contiguous pages
// rather than a page here and there in 8 MB (figures in docs/benchmarks.md, "Start-up").
let startupOrder = Context.packageDirectory + "/Sources/Link/startup-order.txt"
let staticCxxRuntime: [LinkerSetting] = [
    .unsafeFlags(["-L", Context.packageDirectory + "/Sources/C/StaticCxx", "-Xclang-linker", "-static-libgcc",
                  "-Xlinker", "--no-export-dynamic", "-use-ld=lld",
                  "-Xlinker", "--symbol-ordering-file=" + startupOrder, "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(platforms: [.linux])),
]

let package = Package(
    name: "folio",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "folio", targets: ["folio"]),
        .executable(name: "folio-bench", targets: ["folio-bench"]),
    ],
    targets: [
        // C libraries from the system (Debian: libcmark-dev, libpcre2-dev), linked by the
        // targets that use them (`systemLink`, below): on Linux from their static archives.
        .systemLibrary(name: "CCmark", path: "Sources/C/CCmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CPCRE2", path: "Sources/C/CPCRE2", providers: [.apt(["libpcre2-dev"])]),
        // Compressed files (Debian: zlib1g-dev, libbz2-dev, liblzma-dev, libzstd-dev).
        .systemLibrary(name: "CZlib", path: "Sources/C/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBzip2", path: "Sources/C/CBzip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CLzma", path: "Sources/C/CLzma", providers: [.apt(["liblzma-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/C/CZstd", providers: [.apt(["libzstd-dev"])]),
        // tree-sitter's runtime, loaded at run time from the grammar directory (see its header).
        .target(name: "CTreeSitter", path: "Sources/C/CTreeSitter", linkerSettings: [.linkedLibrary("dl")]),
        // The image plugin's interface and its loader (dlopen): the plugin itself is built beside
        // the grammars (scripts/build-grammars.sh), so no folio start loads its libraries.
        .target(name: "CImages", path: "Sources/C/CImages", linkerSettings: [.linkedLibrary("dl")]),
        // The C library's heap controls (glibc's <malloc.h>; no-ops elsewhere).
        .target(name: "CPlatform", path: "Sources/C/CPlatform"),

        // pthread locks and threads, so no module needs Foundation's; and `Platform`, the one
        // place that asks the system what the machine is, starts commands and controls memory.
        .target(name: "Threads", dependencies: ["CPlatform"], path: "Sources/Threads"),

        // Core: pure modules.
        .target(name: "CellWidth", path: "Sources/Core/CellWidth"),
        // Substring search and replace without Foundation or _StringProcessing.
        .target(name: "TextBasics", path: "Sources/Core/TextBasics"),
        .target(name: "Styling", path: "Sources/Core/Styling"),
        .target(name: "MarkdownModel", dependencies: ["CCmark", "Threads", "TextBasics"], path: "Sources/Core/MarkdownModel",
                linkerSettings: systemLink("cmark")),
        .target(name: "TextModel", dependencies: ["Styling", "CellWidth"], path: "Sources/Core/TextModel"),
        .target(name: "LineLayout", dependencies: ["MarkdownModel", "TextModel", "CellWidth", "Styling", "Threads"], path: "Sources/Core/LineLayout"),
        .target(name: "Viewport", dependencies: ["LineLayout"], path: "Sources/Core/Viewport"),
        .target(name: "TextSearch", dependencies: ["CPCRE2", "Threads"], path: "Sources/Core/TextSearch",
                linkerSettings: systemLink("pcre2-8")),
        .target(name: "Highlight", dependencies: ["CTreeSitter", "Styling", "TextSearch", "Threads"], path: "Sources/Core/Highlight"),
        .target(name: "TerminalScreen", dependencies: ["CellWidth", "Styling"], path: "Sources/Core/TerminalScreen"),
        // less's options and folio's: the table, less's way of reading them, folio's settings.
        .target(name: "LessOptions", dependencies: ["TextBasics"], path: "Sources/Core/LessOptions"),
        .target(name: "Pager", dependencies: [
            "MarkdownModel", "LineLayout", "Viewport", "TextSearch", "TerminalScreen", "CellWidth", "LessOptions", "Threads",
            "TextBasics",
        ], path: "Sources/Core/Pager"),
        // Print mode: a document laid out and written as text for standard output.
        .target(name: "Print", dependencies: ["Pager", "LineLayout", "MarkdownModel", "TerminalScreen"], path: "Sources/Core/Print"),

        // Edge: effects. The reading positions' store: its format and the state file.
        .target(name: "ReadingPositions", dependencies: ["MarkdownModel", "LineLayout", "Threads"], path: "Sources/Edge/ReadingPositions"),
        .target(name: "TerminalIO", dependencies: ["TerminalScreen", "Threads"], path: "Sources/Edge/TerminalIO"),
        .target(name: "GrammarLoader", dependencies: ["Highlight", "Threads"], path: "Sources/Edge/GrammarLoader"),
        .target(name: "Images", dependencies: ["CImages", "LineLayout", "TerminalScreen", "Threads"], path: "Sources/Edge/Images"),
        // Each input's bytes as they arrive: a file read where asked, a pipe's chunks.
        .target(name: "ByteInput", dependencies: ["LineLayout", "Threads"], path: "Sources/Edge/ByteInput"),
        // What stands between a named file and its bytes: LESSOPEN/LESSCLOSE, decompression.
        .target(name: "Preprocess", dependencies: ["CZlib", "CBzip2", "CLzma", "CZstd", "Threads"], path: "Sources/Edge/Preprocess",
                linkerSettings: systemLink("z", "bz2", "lzma", "zstd")),
        // App: the event loop (the only caller of the pager's `update`), each document's
        // input, background jobs, position keeping; then the executable, arguments and wiring.
        .target(name: "Session", dependencies: [
            "MarkdownModel", "LineLayout", "Viewport", "Pager", "TerminalScreen", "TerminalIO",
            "ReadingPositions", "TextSearch", "TextModel", "CellWidth", "Highlight", "GrammarLoader", "Threads",
            "LessOptions", "Preprocess", "CZstd", "Print", "Images", "ByteInput",
        ], path: "Sources/App/Session"),
        .executableTarget(name: "folio", dependencies: ["Session", "LessOptions", "TerminalIO"], path: "Sources/App/folio",
                         linkerSettings: staticCxxRuntime),
        .executableTarget(name: "folio-bench", dependencies: [
            "MarkdownModel", "TextModel", "LineLayout", "Viewport", "Pager", "TerminalScreen", "TextSearch", "Highlight", "GrammarLoader",
            "ReadingPositions", "Print", "Threads",
        ], path: "Sources/App/folio-bench"),

        // libFuzzer targets (`make fuzz`; without -DFUZZING they replay a corpus).
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "FuzzPrint", dependencies: ["Pager", "Print", "LineLayout", "MarkdownModel", "FuzzSupport"], path: "Fuzz/FuzzPrint"),
        .executableTarget(name: "FuzzKeys", dependencies: ["TerminalScreen", "FuzzSupport"], path: "Fuzz/FuzzKeys"),
        .executableTarget(name: "FuzzStore", dependencies: ["ReadingPositions", "LineLayout", "MarkdownModel", "ByteInput", "FuzzSupport"],
                          path: "Fuzz/FuzzStore"),
        .executableTarget(name: "FuzzLess", dependencies: ["LessOptions", "FuzzSupport"], path: "Fuzz/FuzzLess"),
        .executableTarget(name: "FuzzHighlight", dependencies: [
            "Highlight", "GrammarLoader", "LineLayout", "MarkdownModel", "Styling", "FuzzSupport",
        ], path: "Fuzz/FuzzHighlight"),
        .executableTarget(name: "FuzzText", dependencies: ["TextModel", "LineLayout", "ByteInput", "FuzzSupport"], path: "Fuzz/FuzzText"),

        // Test helpers shared by the test targets (a seeded generator).
        // (and a small terminal emulator that replays the renderer's bytes into a grid).
        .target(name: "TestSupport", dependencies: ["TerminalScreen"], path: "Tests/TestSupport"),
        // Keys written as the tests type them (`<C-f>/foo<CR>`), parsed and encoded.
        .target(name: "KeyNotationSupport", dependencies: ["TerminalScreen"], path: "Tests/KeyNotationSupport"),
        .testTarget(name: "CellWidthTests", dependencies: ["CellWidth"]),
        .testTarget(name: "LessOptionsTests", dependencies: ["LessOptions"]),
        .testTarget(name: "MarkdownModelTests", dependencies: ["TestSupport", "MarkdownModel"]),
        .testTarget(name: "LineLayoutTests", dependencies: ["TestSupport", "LineLayout", "MarkdownModel", "CellWidth", "ByteInput", "Threads"]),
        .testTarget(name: "ViewportTests", dependencies: ["Viewport", "LineLayout", "MarkdownModel"]),
        .testTarget(name: "TextSearchTests", dependencies: ["TestSupport", "TextSearch", "CPCRE2"]),
        .testTarget(name: "TextModelTests", dependencies: ["TestSupport", "TextModel"]),
        .testTarget(name: "TerminalScreenTests", dependencies: ["TestSupport", "TerminalScreen", "KeyNotationSupport", "CellWidth"]),
        .testTarget(name: "TerminalIOTests", dependencies: ["TerminalIO", "TerminalScreen"]),
        .testTarget(name: "PreprocessTests", dependencies: ["Preprocess"]),
        .testTarget(name: "ByteInputTests", dependencies: ["ByteInput"]),
        .testTarget(name: "PagerTests", dependencies: ["TestSupport", "KeyNotationSupport", "Pager", "TerminalScreen", "MarkdownModel", "LineLayout", "Viewport", "Print", "ByteInput"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "PrintTests", dependencies: ["TestSupport", "Print", "Pager", "LineLayout", "MarkdownModel", "ByteInput"]),
        .testTarget(name: "TextBasicsTests", dependencies: ["TextBasics", "Threads"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads", "CPlatform"]),
        .testTarget(name: "ReadingPositionsTests", dependencies: ["TestSupport", "ReadingPositions", "MarkdownModel", "LineLayout", "ByteInput"]),
        .testTarget(name: "HighlightTests", dependencies: ["Highlight", "GrammarLoader", "Styling", "LineLayout", "MarkdownModel", "Pager", "TerminalScreen"]),
        // The event loop over a scripted terminal (`@testable import Session`; no tmux, no tty).
        .testTarget(name: "RunLoopTests", dependencies: [
            "TestSupport", "Session", "TerminalIO", "TerminalScreen", "Pager", "MarkdownModel", "LineLayout", "LessOptions", "ByteInput", "TextModel", "Threads",
        ]),
        .testTarget(name: "ImagesTests", dependencies: ["Images", "GrammarLoader", "LineLayout"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"], exclude: ["Scripts"]),
    ]
)

// Release builds reach generic types' metadata through the accessors the compiler writes
// for each type, not through its mangled name: by name, the first use of every generic type
// in a process (a `[String: String]`, a dictionary of theme roles, an array of spans) is
// demangled and its conformances found by scanning every conformance the binary holds, a
// fixed cost the first screen paid (see docs/benchmarks.md, "First screen"). The cost of
// the accessors is a little code.
for target in package.targets where target.type != .system && target.name != "CTreeSitter" {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
    ]
}
