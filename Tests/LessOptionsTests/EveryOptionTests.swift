import LessOptions
import Testing

/// Every option of the table, in every way of writing it — letter, upper-case letter, long
/// name, upper-case name, in `$LESS`, in `$FOLIO` and on the command line (value joined or
/// in the next word) — reads as that option and is accepted.
@Suite struct EveryOptionTests {
    /// A value folio accepts for each option that takes one.
    static func sample(_ spec: OptionSpec) -> String? {
        switch spec.id {
        case .color: return "never"
        case ._theme: return "light"
        case ._align: return "center"
        case ._images: return "blocks"
        case ._restore: return "all"
        case ._completion: return "fish"
        case .jumpTarget: return "-3"
        case .tabs: return "4,8"
        case .shift: return ".25"
        case .header: return "2,1"
        case .matchShift: return ".5"
        default:
            switch spec.kind {
            case .number: return "7"
            case .string(.rest): return "some text"
            case .string: return "abc"
            default: return nil
            }
        }
    }

    /// The setting a sample reads as.
    static func expected(_ spec: OptionSpec, upper: Bool) -> OptionScanner.Setting.Form {
        guard let value = sample(spec) else { return upper ? .onPlus : .on }
        return spec.kind == .number ? .number(Int(value)!) : .value(value)
    }

    /// One way of writing an option: the environment string and the command-line words.
    struct Written: CustomTestStringConvertible, Sendable {
        let id: OptionID
        let environment: String
        let words: [String]
        let form: OptionScanner.Setting.Form
        var testDescription: String { environment }
    }

    static let writings: [Written] = OptionTable.all.flatMap { spec -> [Written] in
        var result: [Written] = []
        let value = sample(spec)
        var spellings: [(String, Bool)] = []
        if let letter = spec.letter {
            spellings.append(("-\(letter)", false))
            if spec.kind == .triple { spellings.append(("-\(letter.uppercased())", true)) }
        }
        for name in spec.names {
            spellings.append(("--\(name)", false))
            if spec.kind == .triple { spellings.append(("--\(name.uppercased())", true)) }
        }
        for (spelling, upper) in spellings {
            let form = expected(spec, upper: upper)
            // less's quirk: `--LOG-FILE` is `-o` (its upper-case pass finds log-file first).
            let id = spelling == "--LOG-FILE" ? OptionID.logFile : spec.id
            guard let value else {
                result.append(Written(id: id, environment: spelling, words: [spelling], form: form))
                continue
            }
            let long = spelling.hasPrefix("--")
            let joined = long ? "\(spelling)=\(value)" : spelling + value
            // `-Psome text` joins in `$LESS`; on a command line it is one quoted word.
            let end = spec.kind == .string(.rest) ? "$" : ""
            result.append(Written(id: id, environment: joined + end, words: [joined], form: form))
            result.append(Written(id: id, environment: "\(spelling) \(value)" + end, words: [spelling, value], form: form))
        }
        return result
    }

    @Test(arguments: writings)
    func readsAsItsOptionEverywhere(_ w: Written) {
        let setting = OptionScanner.Item.setting(OptionScanner.Setting(w.id, w.form))
        // In `$LESS` (and `$FOLIO`: the same scanner), alone and between two others.
        #expect(scan(w.environment) == [setting])
        #expect(scan("-S " + w.environment + " -X") == [set(.chopLongLines), setting, set(.noInit)])
        // On the command line.
        var scanner = OptionScanner()
        let items = w.words.flatMap { scanner.scan($0) } + scanner.finish()
        #expect(items == [setting])
    }

    /// None is refused: in `$LESS`, `$FOLIO` or on the command line, it is no error and no
    /// warning.
    @Test(arguments: writings)
    func noneIsRefused(_ w: Written) {
        let fromLess = Invocation(commandLine: [], less: w.environment, folio: nil)
        #expect(fromLess.warnings.isEmpty && fromLess.error == nil)
        let fromFolio = Invocation(commandLine: [], less: nil, folio: w.environment)
        #expect(fromFolio.warnings.isEmpty && fromFolio.error == nil)
        let fromCommandLine = Invocation(commandLine: w.words + ["file.md"], less: nil, folio: nil)
        #expect(fromCommandLine.error == nil && fromCommandLine.warnings.isEmpty)
        #expect(fromCommandLine.options.files == ["file.md"])
    }

    /// Each letter less knows is an option here, and the letters less leaves free are not.
    @Test func everyLessLetterIsKnown() {
        for letter in "aAbBcCdDeEfFgGhiIjJkKLmMnNoOpPqQrRsStTuUVwWxXyz\"~?#" {
            #expect(OptionTable.spec(letter: letter) != nil, "-\(letter)")
        }
        for letter in "HlvYZ!@%^&*" {
            #expect(OptionTable.spec(letter: letter) == nil, "-\(letter)")
        }
        // folio's own options have no letter: every letter means what it means in less.
        #expect(OptionTable.all.filter { $0.id.rawValue.first == "_" }.allSatisfy { $0.letter == nil })
    }

    @Test func theTableIsConsistent() {
        #expect(Set(OptionTable.all.map(\.id)) == Set(OptionID.allCases))
        #expect(OptionTable.all.count == OptionID.allCases.count)
        let names = OptionTable.all.flatMap(\.names)
        #expect(Set(names).count == names.count)
        let letters = OptionTable.all.compactMap(\.letter)
        #expect(Set(letters).count == letters.count)
        // Every folio name is reachable whole (no less name takes it as an abbreviation).
        for spec in OptionTable.all {
            for name in spec.names {
                let id = name == "LOG-FILE" ? .logFile : spec.id  // less's quirk, as above
                #expect(OptionTable.find(name: Array(name.utf8)[...]) == .found(id, length: name.utf8.count), "--\(name)")
            }
        }
    }

    /// `--help` lists every option but hidden aliases.
    @Test func helpListsEveryOption() {
        let help = HelpText.text
        for spec in OptionTable.all where !spec.hidden {
            #expect(help.contains("--\(spec.names[0])"), "--\(spec.names[0])")
        }
        #expect(!help.contains("--no-restore"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
}
