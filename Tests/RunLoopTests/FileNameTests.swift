import Foundation
import Testing
@testable import Session

/// File names are bytes: every byte string but NUL comes back from its string form, names
/// that are UTF-8 are their own form, and undecodable bytes read `<E9>` (issue 31).
@Suite struct FileNameTests {
    @Test(arguments: ["README.md", "café.txt", "日本語/ノート.md", "👍🏽 notes", "a\u{1B}[2Jb", "", "/"])
    func aUTF8NameIsItsOwnForm(name: String) {
        #expect(FileName.string(Array(name.utf8)) == name)
        #expect(FileName.bytes(name) == Array(name.utf8))
        #expect(FileName.display(name) == name)
        #expect(FileName.text(name) == name)
    }

    /// Every byte string of one or two bytes (NUL excepted: no name holds it) comes back.
    @Test func everyShortByteStringComesBack() {
        for a in UInt8(1)...255 {
            #expect(FileName.bytes(FileName.string([a])) == [a])
            for b in UInt8(1)...255 {
                let bytes = [a, b]
                let form = FileName.string(bytes)
                if FileName.bytes(form) != bytes { Issue.record("\(bytes) -> \(form.debugDescription)") }
            }
        }
    }

    /// Four bytes from an alphabet of every kind of UTF-8 byte (ASCII, continuation bytes at
    /// both ends, lead bytes of each length, the leads of overlong forms and surrogates, bytes
    /// that never occur) and the UTF-8 of the escape scalars themselves: each string comes
    /// back, and no two share a form.
    @Test func byteStringsFromEveryKindOfByteComeBack() {
        let alphabet: [UInt8] = [0x41, 0x2F, 0x80, 0x8F, 0xBB, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0xED, 0xA0, 0xF0, 0xF4, 0xF5, 0xFF]
        var forms: [String: [UInt8]] = [:]
        for a in alphabet { for b in alphabet { for c in alphabet { for d in alphabet {
            let bytes = [a, b, c, d]
            let form = FileName.string(bytes)
            if FileName.bytes(form) != bytes { Issue.record("\(bytes) -> \(form.debugDescription)") }
            if let other = forms.updateValue(bytes, forKey: form) { Issue.record("\(bytes) and \(other) share a form") }
        } } } }
        #expect(forms.count == alphabet.count * alphabet.count * alphabet.count * alphabet.count)
    }

    @Test func undecodableBytesReadAsHex() {
        let name = FileName.string(Array("caf".utf8) + [0xE9] + Array(".txt".utf8))
        #expect(name != "caf\u{FFFD}.txt")
        #expect(FileName.display(name) == "caf<E9>.txt")
        #expect(FileName.text(name) == "caf\u{FFFD}.txt")
        #expect(FileName.bytes(name) == Array("caf".utf8) + [0xE9] + Array(".txt".utf8))
        // A truncated sequence, a lone continuation byte, an overlong slash, a surrogate.
        #expect(FileName.display(FileName.string([0xE2, 0x82, 0x41, 0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80]))
            == "<E2><82>A<80><C0><AF><ED><A0><80>")
    }

    /// A name that holds an escape scalar itself (valid UTF-8) is escaped byte by byte, so it
    /// cannot pass for the byte that scalar stands for.
    @Test func aNameHoldingAnEscapeScalarKeepsItsBytes() {
        let scalar = String(Unicode.Scalar(0x10FEE9)!)
        let bytes = Array(("x" + scalar).utf8)
        let form = FileName.string(bytes)
        #expect(form != "x" + scalar)
        #expect(FileName.bytes(form) == bytes)
        #expect(FileName.display(form) == "x<F4><8F><BB><A9>")
    }

    @Test func cStringsHoldTheBytes() {
        let bytes: [UInt8] = [0x2F, 0x74, 0xE9, 0xFF, 0x2E, 0x6D, 0x64]
        let seen = FileName.withCString(FileName.string(bytes)) { p in
            Array(UnsafeRawBufferPointer(start: p, count: strlen(p)))
        }
        #expect(seen == bytes)
    }

    /// The system calls reach a file whose name is not UTF-8, and its canonical path comes
    /// back in the string form (with the undecodable byte kept, not replaced).
    @Test func systemCallsReachAByteNamedFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-filename-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = FileName.string(Array(dir.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".md".utf8))
        let fd = FileName.withCString(path) { Glibc.open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        #expect(fd >= 0)
        _ = write(fd, "# x\n", 4)
        close(fd)

        var st = stat()
        #expect(FileName.stat(path, &st) == 0)
        #expect(st.st_size == 4)
        let opened = FileName.open(path, O_RDONLY)
        #expect(opened >= 0)
        close(opened)
        let canonical = try #require(FileName.realpath(path))
        #expect(FileName.display(canonical).hasSuffix("/caf<E9>.md"))
        #expect(FileName.stat(canonical, &st) == 0)

        switch Input.load(path) {
        case .success(let doc):
            #expect(doc.bytes == Array("# x\n".utf8))
            #expect(doc.name.hasSuffix("/caf<E9>.md"))
            #expect(doc.path == canonical)
        case .failure(let error):
            Issue.record("\(error)")
        }
        let missing = path + "x"
        if case .failure(let error) = Input.openFile(missing, regularOnly: false) {
            #expect(error.description.hasSuffix("/caf<E9>.mdx: No such file or directory"))
        } else {
            Issue.record("a missing file opened")
        }
    }
}
