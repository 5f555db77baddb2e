import LessOptions
import Testing

typealias Setting = OptionScanner.Setting

/// Scans one string as `$LESS` is scanned.
func scan(_ text: String) -> [OptionScanner.Item] {
    var scanner = OptionScanner()
    return scanner.scan(text) + scanner.finish()
}

func set(_ id: OptionID, _ form: Setting.Form = .on) -> OptionScanner.Item { .setting(Setting(id, form)) }

/// less's `scan_option`, string by string: what each form of writing an option reads as.
@Suite struct OptionScannerTests {
    @Test func lettersRunTogetherWithOrWithoutADash() {
        #expect(scan("FRX") == [set(.quitIfOneScreen), set(.rawControlChars, .onPlus), set(.noInit)])
        #expect(scan("-FRX") == scan("FRX"))
        #expect(scan("-F -R\t-X") == scan("FRX"))
        // systemd's LESS: -M is the long prompt, -K quits on Ctrl-C.
        #expect(scan("FRSXMK") == [set(.quitIfOneScreen), set(.rawControlChars, .onPlus), set(.chopLongLines),
                                   set(.noInit), set(.longPrompt, .onPlus), set(.quitOnIntr)])
    }

    /// The examples: long options are names, not letters.
    @Test func longOptionsInLessAreNames() {
        #expect(scan("--quit-if-one-screen --no-init") == [set(.quitIfOneScreen), set(.noInit)])
        #expect(scan("--HILITE-UNREAD") == [set(.hiliteUnread, .onPlus)])
        #expect(scan("--IGNORE-CASE") == [set(.ignoreCase, .onPlus)])
        #expect(scan("--ignore-case") == [set(.ignoreCase)])
        #expect(scan("--LINE-NUMBERS --line-numbers") == [set(.lineNumbers, .onPlus), set(.lineNumbers)])
        #expect(scan("--quiet --silent --SILENT") == [set(.quiet), set(.quiet), set(.quiet, .onPlus)])
    }

    @Test func namesMayBeAbbreviatedWhileUnique() {
        #expect(scan("--quit-if") == [set(.quitIfOneScreen)])
        #expect(scan("--quit-o") == [set(.quitOnIntr)])
        #expect(scan("--quit") == [.error("--quit is an ambiguous abbreviation")])
        #expect(scan("--no-s") == [.error("--no-s is an ambiguous abbreviation")])
        // less's names first: an abbreviation unique in less means less's option.
        #expect(scan("--wi=5") == [set(.window, .number(5))])
        #expect(scan("--no-w") == [set(.noEditWarn)])
        #expect(scan("--no-wat") == [set(._noWatch)])
        #expect(scan("--width=40") == [set(._width, .number(40))])
        // A typed name that runs on past a table name is no option.
        #expect(scan("--no-initx") == [.error("There is no --no-initx option")])
        #expect(scan("--no-init5") == [.error("There is no --no-init5 option")])
        // less's quirk: an upper-case spelling matches any option, in lower case.
        #expect(scan("--NO-INIT") == [set(.noInit)])
        #expect(scan("--LOG-FILE=x") == [set(.logFile, .value("x"))])
        #expect(scan("--no-warn-edit --no-edit-warn") == [set(.noEditWarn), set(.noEditWarn)])
    }

    @Test func plusResetsEveryLetterUpToTheNextDash() {
        #expect(scan("-+iS") == [set(.ignoreCase, .reset), set(.chopLongLines, .reset)])
        #expect(scan("-+i -S") == [set(.ignoreCase, .reset), set(.chopLongLines)])
        #expect(scan("--+no-init") == [set(.noInit, .reset)])
        #expect(scan("-+I") == [set(.ignoreCase, .reset)])
        // A value option takes its value whatever the `+`.
        #expect(scan("-+j5") == [set(.jumpTarget, .value("5"))])
    }

    @Test func valuesEndWhereTheirSyntaxEnds() {
        #expect(scan("-j5X") == [set(.jumpTarget, .value("5")), set(.noInit)])
        #expect(scan("-j-5 -j.5 -j -5") == [set(.jumpTarget, .value("-5")), set(.jumpTarget, .value(".5")),
                                           set(.jumpTarget, .value("-5"))])
        #expect(scan("-x4,8S") == [set(.tabs, .value("4,8")), set(.chopLongLines)])
        #expect(scan("-#.25 -#8") == [set(.shift, .value(".25")), set(.shift, .value("8"))])
        #expect(scan("-z-2 -z10S") == [set(.window, .number(-2)), set(.window, .number(10)), set(.chopLongLines)])
        #expect(scan("-b64") == [set(.buffers, .number(64))])
        #expect(scan("--color=Sky --intr=^X") == [set(.color, .value("Sky")), set(.intr, .value("^X"))])
        #expect(scan("--jump-target=.5 --tabs 4") == [set(.jumpTarget, .value(".5")), set(.tabs, .value("4"))])
        // more's -N for -zN.
        #expect(scan("-5") == [set(.window, .number(5))])
        #expect(scan("-15S") == [set(.window, .number(15)), set(.chopLongLines)])
    }

    /// `-p`, `-P`, `-t`… run over blanks to a `$` or the end (man-db's prompt).
    @Test func promptsAndPatternsRunToADollar() {
        #expect(scan("-ix8RmPm Manual page ls(1) ?ltline %lt?L/%L.:$PM Manual page ls(1) ?ltline$") == [
            set(.ignoreCase), set(.tabs, .value("8")), set(.rawControlChars, .onPlus), set(.longPrompt),
            set(.prompt, .value("m Manual page ls(1) ?ltline %lt?L/%L.:")),
            set(.prompt, .value("M Manual page ls(1) ?ltline")),
        ])
        #expect(scan("-pfoo bar") == [set(.pattern, .value("foo bar"))])
        #expect(scan("-p foo$X") == [set(.pattern, .value("foo")), set(.noInit)])
        #expect(scan("--use-backslash -Pa\\$b$X") == [set(.useBackslash), set(.prompt, .value("a$b")), set(.noInit)])
        // Without it the `$` ends the prompt and `b` is the next option (with no number).
        #expect(scan("-Pa\\$b") == [set(.prompt, .value("a\\")), .error("Value is required after -b (--buffers)")])
    }

    @Test func commandsRunToTheEnd() {
        #expect(scan("+G") == [.command("G", everyFile: false)])
        #expect(scan("-X +/two words$S") == [set(.noInit), .command("/two words", everyFile: false), set(.chopLongLines)])
        #expect(scan("++G") == [.command("G", everyFile: true)])
    }

    @Test func aValueMissingAtTheEndIsPendingForTheNextString() {
        var scanner = OptionScanner()
        #expect(scanner.scan("-SP").isEmpty == false)
        #expect(scanner.isPending)
        #expect(scanner.scan("a prompt $ with all") == [set(.prompt, .value("a prompt $ with all"))])
        #expect(!scanner.isPending)
        #expect(scanner.scan("--width") == [])
        #expect(scanner.scan("80x") == [set(._width, .number(80))])
        #expect(scanner.scan("-j").isEmpty)
        #expect(scanner.finish() == [.error("Value is required after -j (--jump-target)")])
        #expect(!scanner.isPending)
    }

    /// What less refuses, in its words; an unknown option, an ambiguous name, `=` after a
    /// flag and a missing value end the string, a bad number only its option.
    @Test func errorsStopTheStringAsInLess() {
        #expect(scan("-Ä X") == [.error("There is no -Ä option")])
        #expect(scan("-H") == [.error("There is no -H option")])
        #expect(scan("S--foo X") == [set(.chopLongLines), .error("There is no --foo option")])
        #expect(scan("--quit-at-eof=5 X") == [.error("The --quit-at-eof option should not be followed by =")])
        #expect(scan("-bX") == [.error("Number is required after -b (--buffers)"), set(.noInit)])
        #expect(scan("-z99999999999S") == [.error("Number is too large after -z (--window)"), set(.chopLongLines)])
        #expect(scan("-P   ") == [.error("Value is required after -P (--prompt)")])
        #expect(scan("--") == [.error("There is no -- option")])
        // Values less takes and folio checks later.
        #expect(scan("-j99999999999999999999") == [set(.jumpTarget, .value("99999999999999999999"))])
    }

    @Test func blanksAndDollarsBetweenOptionsAreSkipped() {
        #expect(scan("") == [])
        #expect(scan("  $ - $") == [])
        #expect(scan("S$X") == [set(.chopLongLines), set(.noInit)])
    }
}
