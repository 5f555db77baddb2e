import LessOptions
import Session
import TerminalIO
#if canImport(Glibc)
import Glibc
#endif

@main
struct Folio {
    static let version = Options.version

    /// Reads the options (`Invocation`: the config file, `$LESS`, `$FOLIO`, then the command
    /// line, whose settings win) and the key files, and runs. A mistake on the command line is one line on standard error
    /// (control characters made visible: an argument may hold an ESC) and status 64; a crash
    /// prints a short report instead of handing the terminal to the backtracer (see
    /// `CrashReport`).
    static func main() {
        // A large Markdown file's preview is parsed on another core from now on (`EarlyPreview`).
        let early = EarlyPreview.start(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
        // From argv's bytes: a file operand that is not UTF-8 still names its file (`FileName`).
        let arguments = Array(FileName.commandLine().dropFirst())
        let environment = ProcessEnvironment.current
        CrashReport.install(environment: environment)
        // The config file, `$LESS`, `$FOLIO`, the command line (`UserConfig`).
        let (invocation, configStatus) = UserConfig.invocation(commandLine: arguments,
                                                               environment: environment)
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
        let keys = UserConfig.keys(environment: environment, noConfig: invocation.options.noConfig)
        // `--show-config`, `--show-keys`, `--dump-theme`.
        if let status = UserConfig.answer(invocation, configStatus: configStatus, keys: keys, environment: environment) {
            Glibc.exit(status)
        }
        for warning in invocation.warnings { reportError(warning) }
        var options = invocation.options
        options.keyFiles = keys.files
        var launch = Launch(options: options, optionWarnings: invocation.warnings, sections: invocation,
                            keyWarnings: keys.errors)
        launch.earlyPreview = early
        Glibc.exit(launch.run())
    }

}
