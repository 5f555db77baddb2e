#if canImport(Glibc)
import Glibc
#endif

/// File names are bytes, not strings: any byte but NUL, in no particular encoding. folio
/// carries a name (an argument, a canonical path, a link's file) in a `String` without loss,
/// and turns it back into its bytes for every system call that takes it.
///
/// The form: a name that is valid UTF-8 is its own string (nearly every name, and every
/// position saved before). Each byte that is not part of a well-formed UTF-8 sequence
/// becomes one scalar of `escapes` (U+10FE80...U+10FEFF, private use: byte 0xE9 is
/// U+10FEE9). A name that holds such a scalar itself has its UTF-8 bytes escaped the same
/// way, so two names never share a form and `bytes(string(b)) == b` for every `b`. The form
/// is stable, so it keys reading positions like any path.
///
/// Shown to a user (the status line, messages), an escaped byte reads `<E9>`, as text
/// documents show an undecodable byte and as less shows it (`display`).
public enum FileName {
    /// The scalars that stand for the bytes 0x80...0xFF: U+10FE00 + byte.
    static let escapes: ClosedRange<UInt32> = 0x10FE80...0x10FEFF

    /// The string form of a name's bytes.
    static func string(_ bytes: some Collection<UInt8>) -> String {
        let array = Array(bytes)
        if let plain = String(validating: array, as: UTF8.self), !hasEscapes(plain) { return plain }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = array[i...].makeIterator()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if escapes.contains(scalar.value) {
                    for byte in array[i..<i + encoded.count] { scalars.append(escape(byte)) }
                } else {
                    scalars.append(scalar)
                }
                i += encoded.count
            case .error(let length):
                for byte in array[i..<i + length] { scalars.append(escape(byte)) }
                i += length
            case .emptyInput:
                i = array.count
            }
        }
        return String(scalars)
    }

    /// The bytes a string form stands for (the inverse of `string`).
    static func bytes(_ name: String) -> [UInt8] {
        guard hasEscapes(name) else { return Array(name.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if escapes.contains(scalar.value) {
                result.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Calls `body` with the name's bytes as a NUL-terminated C string (for `open`, `stat`, …).
    static func withCString<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard hasEscapes(name) else { return try name.withCString(body) }
        let terminated = bytes(name).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The name as a user reads it: each escaped byte as `<E9>`. (Control characters are
    /// left for `VisibleControls`, which every message and the status line go through.)
    static func display(_ name: String) -> String {
        guard hasEscapes(name) else { return name }
        return mapEscapes(name) { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "<" + (hex.count < 2 ? "0" : "") + hex + ">"
        }
    }

    /// The name as text to search for (a pattern given on the command line): each escaped
    /// byte as U+FFFD, as Swift decodes undecodable bytes anywhere else.
    static func text(_ name: String) -> String {
        guard hasEscapes(name) else { return name }
        return mapEscapes(name) { _ in "\u{FFFD}" }
    }

    /// The command line (`argv`, program name first), each argument in the string form: an
    /// operand that is not UTF-8 still names its file (`CommandLine.arguments` would have
    /// replaced its bytes with U+FFFD).
    public static func commandLine() -> [String] {
        (0..<Int(CommandLine.argc)).map { i in
            guard let argument = CommandLine.unsafeArgv[i] else { return "" }
            // (UTF-8 is checked by the C string first: the generic check costs 0.1 ms of
            // first use at start-up.)
            if let plain = String(validatingCString: argument), !hasEscapes(plain) { return plain }
            return string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    static func hasEscapes(_ name: String) -> Bool {
        // Every escape is four UTF-8 bytes starting F4 8F: a byte scan finds none in most names.
        guard name.utf8.contains(0xF4) else { return false }
        return name.unicodeScalars.contains { escapes.contains($0.value) }
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x10FE00 + UInt32(byte))!
    }

    private static func mapEscapes(_ name: String, _ form: (UInt8) -> String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if escapes.contains(scalar.value) {
                out += form(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// The system calls folio makes on file names, taking the string form (`FileName`).
extension FileName {
    static func stat(_ name: String, _ status: inout stat) -> Int32 {
        withCString(name) { systemStat($0, &status) }
    }

    static func open(_ name: String, _ flags: Int32) -> Int32 {
        withCString(name) { Glibc.open($0, flags) }
    }

    /// The working directory, in the string form ("" when it cannot be told).
    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "" }
        defer { free(cwd) }
        return string(UnsafeRawBufferPointer(start: cwd, count: strlen(cwd)))
    }

    /// The canonical absolute path, in the string form; nil when it cannot be resolved.
    static func realpath(_ name: String) -> String? {
        guard let resolved = withCString(name, { Glibc.realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}

/// `stat(2)`, out of `FileName`'s scope, where `stat` names its own method.
private func systemStat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 {
    stat(path, &status)
}
