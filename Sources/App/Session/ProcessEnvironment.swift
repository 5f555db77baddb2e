#if canImport(Glibc)
import Glibc
#endif

/// The process's environment, read once from `environ`. (Foundation's
/// `ProcessInfo.processInfo.environment` first sets up Foundation's process state, about a
/// third of folio's own start-up work before the first screen: measured with perf.)
public enum ProcessEnvironment {
    /// Variables by name; the first of duplicate names wins, as `getenv` finds it.
    public static let current: [String: String] = {
        var count = 0
        while environ[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)  // no rehashing as it grows
        var p = environ
        while let entry = p.pointee {
            let pair = String(cString: entry)
            if let eq = pair.firstIndex(of: "=") {
                let name = String(pair[..<eq])
                if result[name] == nil { result[name] = String(pair[pair.index(after: eq)...]) }
            }
            p += 1
        }
        return result
    }()
}
