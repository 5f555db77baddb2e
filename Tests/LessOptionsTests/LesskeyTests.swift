import LessOptions
import Testing

/// lesskey source files as lesskey(1) documents them.
@Suite struct LesskeyTests {
    static func bytes(_ s: String) -> [Lesskey.Piece] { s.utf8.map { .byte($0) } }

    @Test func aFileSwappingJAndK() {
        let file = Lesskey(name: "lk", text: """
            # swap j and k
            j back-line
            k\tforw-line
            x  quit
            """)
        #expect(file.errors.isEmpty)
        #expect(file.commands == [
            Lesskey.Binding(line: 2, keys: Self.bytes("j"), action: "back-line"),
            Lesskey.Binding(line: 3, keys: Self.bytes("k"), action: "forw-line"),
            Lesskey.Binding(line: 4, keys: Self.bytes("x"), action: "quit"),
        ])
        #expect(file.commandStop == nil)
    }

    @Test func notation() {
        let file = Lesskey(name: "lk", text: ##"""
            #command
            \e[A     back-line
            \ev      back-screen
            ^X^X     goto-mark
            \kd\ku   noaction
            \40      forw-screen
            \#       status
            \\       status
            \^       status
            \101     quit
            \r\n\t\b noaction
            \e\kl    noaction
            :t       toggle-option t
            \e/      forw-search *
            {        forw-bracket {}
            """##)
        #expect(file.errors.isEmpty, "\(file.errors)")
        let keys = file.commands.map(\.keys)
        #expect(keys[0] == Self.bytes("\u{1B}[A"))
        #expect(keys[1] == [.byte(0x1B), .byte(UInt8(ascii: "v"))])
        #expect(keys[2] == [.byte(0x18), .byte(0x18)])
        #expect(keys[3] == [.special("d"), .special("u")])
        #expect(keys[4] == [.byte(0x20)])
        #expect(keys[5] == Self.bytes("#"))
        #expect(keys[6] == Self.bytes("\\"))
        #expect(keys[7] == Self.bytes("^"))
        #expect(keys[8] == Self.bytes("A"))
        #expect(keys[9] == [.byte(13), .byte(10), .byte(9), .byte(8)])
        #expect(keys[10] == [.byte(0x1B), .special("l")])
        #expect(file.commands[11].extra == Array("t".utf8))
        #expect(file.commands[12].extra == Array("*".utf8))
        #expect(file.commands[13].extra == Array("{}".utf8))
    }

    @Test func stopSectionsVersionsAndEnv() {
        let file = Lesskey(name: "lk", text: """
            q quit
            #stop
            #line-edit
            ^A home
            #stop
            #env
            LESS = -R
            LESS += S
            EDITOR=vi
            #command
            #version >= 600 z forw-screen
            #version < 500 y back-line
            #version >= 600 w back-screen
            #version < 500 v visual
            """)
        #expect(file.errors.isEmpty, "\(file.errors)")
        #expect(file.commandStop == 2)
        #expect(file.lineEditStop == 5)
        #expect(file.commands.map(\.action) == ["quit", "forw-screen", "back-screen"])
        #expect(file.lineEdits.map(\.action) == ["home"])
        #expect(file.variables.map(\.name) == ["LESS", "EDITOR"])
        #expect(file.variables.map(\.value) == ["-RS", "vi"])
    }

    /// `$LESSKEY_CONTENT`: `;` ends a line as a newline does, `\;` is a semicolon.
    @Test func contentInAVariable() {
        let file = Lesskey(name: "$LESSKEY_CONTENT", content: #"j back-line;k forw-line\#n\; status;#env;LESS=-S"#)
        #expect(file.errors.isEmpty, "\(file.errors)")
        #expect(file.commands.map(\.action) == ["back-line", "forw-line", "status"])
        #expect(file.commands[2].keys == [.byte(UInt8(ascii: ";"))])
        #expect(file.variables.first?.value == "-S")
    }

    @Test func errorsNameTheLine() {
        let file = Lesskey(name: "lk", text: "j\n\\kz quit\nk back-line\n#version ~ 3 x quit\n")
        #expect(file.errors == ["lk:1: missing action", "lk:2: invalid escape sequence \"\\kz\"",
                                "lk:4: invalid operator in #version line"])
        #expect(file.commands.map(\.action) == ["quit", "back-line"])
    }
}
