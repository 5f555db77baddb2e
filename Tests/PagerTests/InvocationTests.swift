import Pager
import Testing

@Suite struct InvocationTests {
    @Test func lessOptionsBecomeFolioFlags() {
        #expect(Invocation.lessArguments("FRX") == ["--quit-if-one-screen", "--no-init"])
        #expect(Invocation.lessArguments("FRSXMK") == ["--quit-if-one-screen", "--chop-long-lines", "--no-init"])
        #expect(Invocation.lessArguments("-R -i -j5 -x4") == ["--smart-case", "--jump-target=5", "--tabs=4"])
        #expect(Invocation.lessArguments("-j-5 -N -z-2 -Ps$") == ["--jump-target=-5", "--line-numbers", "--window=-2"])
        #expect(Invocation.lessArguments("-I") == ["--ignore-case"])
        // man-db's LESS: the prompt runs to `$`, its words are not options.
        #expect(Invocation.lessArguments("-ix8RmPm Manual page ls(1) ?ltline %lt?L/%L.:$PM Manual page ls(1) ?ltline$")
                == ["--smart-case", "--tabs=8"])
        #expect(Invocation.lessArguments("").isEmpty)
    }

    @Test func environmentComesBeforeTheCommandLine() {
        let args = Invocation.arguments(commandLine: ["--no-init", "a.md"],
                                        environment: ["LESS": "S", "FOLIO": "--theme 'x y' -N"])
        #expect(args == ["--chop-long-lines", "--theme", "x y", "-N", "--no-init", "a.md"])
    }

    @Test func shellWordsSplitLikeAShell() {
        #expect(ShellWords.split("  a  b ") == ["a", "b"])
        #expect(ShellWords.split("'a b' \"c \\\" d\" e\\ f") == ["a b", "c \" d", "e f"])
        #expect(ShellWords.split("''") == [""])
    }
}
