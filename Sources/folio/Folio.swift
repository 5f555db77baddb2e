import LessOptions
import Session
import TerminalIO
#if canImport(Glibc)
import Glibc
#endif

@main
struct Folio {
    static let version = Options.version

    /// Reads the options (`Invocation`: `$LESS`, `$FOLIO`, then the command line, whose
    /// settings win) and runs. A mistake on the command line is one line on standard error
    /// (control characters made visible: an argument may hold an ESC) and status 64; a crash
    /// prints a short report instead of handing the terminal to the backtracer (see
    /// `CrashReport`).
    static func main() {
        let environment = ProcessEnvironment.current
        CrashReport.install(environment: environment)
        // From argv's bytes: a file operand that is not UTF-8 still names its file (`FileName`).
        let invocation = Invocation(commandLine: Array(FileName.commandLine().dropFirst()),
                                    less: environment["LESS"], folio: environment["FOLIO"])
        if invocation.options.showHelp {
            Swift.print(HelpText.text, terminator: "")
            Glibc.exit(0)
        }
        if let shell = invocation.options.completion {
            Swift.print(Completions.script(for: shell), terminator: "")
            Glibc.exit(0)
        }
        if invocation.options.showVersion {
            Swift.print(version)
            Glibc.exit(0)
        }
        if let error = invocation.error {
            reportError(error + " (\"folio --help\" for help)")
            Glibc.exit(64)
        }
        for warning in invocation.warnings { reportError(warning) }
        var launch = Launch(options: invocation.options, optionWarnings: invocation.warnings)
        Glibc.exit(launch.run())
    }

}
