#if canImport(Glibc)
import Glibc
#endif

/// The process's environment, read once from `environ`. (Foundation's
/// `ProcessInfo.processInfo.environment` first sets up Foundation's process state, about a
/// third of folio's own start-up work before the first screen: measured with perf.)
public enum ProcessEnvironment {
    /// Variables by name; the first of duplicate names wins, as `getenv` finds it.
    public static let current: [String: String] = variables(environ)

    /// The variables of an `environ`-shaped list (`NAME=value` entries, nil at the end).
    static func variables(_ environ: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)  // no rehashing as it grows
        var p = environ
        while let entry = p.pointee {
            // (Split as bytes: split by Character, the first use of grapheme breaking, it was
            // most of the time this took.)
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(entry))
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<eq]), as: UTF8.self)
                if result[name] == nil {
                    result[name] = String(decoding: UnsafeBufferPointer(rebasing: bytes[(eq + 1)...]), as: UTF8.self)
                }
            }
            p += 1
        }
        return result
    }
}
