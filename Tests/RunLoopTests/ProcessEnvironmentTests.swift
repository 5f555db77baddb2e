import Testing
@testable import Session
#if canImport(Glibc)
import Glibc
#endif

/// `environ` read as `getenv` reads it: split at the first `=`, the first of two entries of one
/// name wins, bytes that are not UTF-8 repaired rather than dropped.
@Suite struct ProcessEnvironmentTests {
    @Test func entriesAreSplitAtTheFirstEqualsSign() {
        let entries: [[UInt8]] = [
            Array("LESS=-R --mouse".utf8), Array("EMPTY=".utf8), Array("EQ=a=b".utf8), Array("LESS=second".utf8),
            Array("NOEQUALS".utf8), Array("CAFÉ=crème".utf8), [0x42, 0x3D, 0xFF, 0x41],
        ]
        let pointers: [UnsafeMutablePointer<CChar>?] = entries.map { bytes in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return p
        } + [nil]
        defer { for p in pointers { p?.deallocate() } }
        let variables = pointers.withUnsafeBufferPointer { ProcessEnvironment.variables($0.baseAddress!) }
        #expect(variables == ["LESS": "-R --mouse", "EMPTY": "", "EQ": "a=b", "CAFÉ": "crème", "B": "\u{FFFD}A"])
    }
}
