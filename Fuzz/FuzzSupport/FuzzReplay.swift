import Foundation

/// Replays corpus files (or every file of a folder) through a fuzz target, for builds
/// without libFuzzer: `swift run FUZZ_TARGET Fuzz/corpus/NAME`. Shared by every fuzz target.
public enum FuzzReplay {
    public static func replay(_ arguments: ArraySlice<String>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var files: [String] = []
        for a in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: a, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: a)) ?? []
                files += names.sorted().map { a + "/" + $0 }
            } else {
                files.append(a)
            }
        }
        for f in files {
            guard let data = FileManager.default.contents(atPath: f) else { continue }
            [UInt8](data).withUnsafeBufferPointer(body)
        }
        print("replayed \(files.count) inputs")
    }
}
