import LessOptions
import TextSearch
import Viewport

/// less's `-` and `_` commands while reading: `-x` changes option x (a bool on/off, a triple's
/// letter on/off, a value option asks for its value at a prompt with less's words), `-+x`
/// sets it back to folio's default, `-!x` to the opposite of less's default, `--name` names
/// it, `_x` shows its setting. The status line says the new setting as less words it.
///
/// Changed here: `-i` `-I` (search case), `-n` `-N` (line numbers), `-S`, `-j`, `-z`, `-#`,
/// `-K`, `-e` `-E`, `-g` `-G`, `-a` `-A`, `--literal`, `--search-wrap`. Options folio uses
/// only at the start (`-X`, `-F`, `-x`, `--mouse`…) say so; options folio ignores say why.
extension PagerState {
    mutating func optionCommand(_ letter: Character, _ change: OptionChange) -> [PagerEffect] {
        guard let spec = OptionTable.spec(letter: letter) else {
            message = "There is no -\(letter) option"
            return []
        }
        return optionCommand(spec, lowerCase: spec.kind != .triple || !letter.isUppercase, change)
    }

    mutating func optionCommand(_ spec: OptionSpec, lowerCase: Bool, _ change: OptionChange) -> [PagerEffect] {
        let name = spec.display(upper: !lowerCase)
        if change != .query && spec.fixedAtStart {
            message = "Cannot change the \(name) option"
            return []
        }
        if case .ignored(let why) = spec.use {
            // A value option takes its value at its prompt even so, as in less (`-P` then
            // `prompt: `), and says it is ignored once it is typed: the value must not be
            // read as keys (`-Ps%f` would run `s`).
            if change == .toggle, spec.prompt != nil, spec.kind != .bool, spec.kind != .triple, spec.kind != .action {
                startOptionPrompt(.optionValue(spec.id))
                return []
            }
            message = "\(name): \(why)"
            return []
        }
        switch spec.kind {
        case .string, .number:
            switch change {
            case .toggle: startOptionPrompt(.optionValue(spec.id))
            case .reset: resetValueOption(spec)
            case .setOpposite: message = "Cannot use \"-!\" for an option with a value"
            case .query: describeValueOption(spec)
            }
            return []
        case .action:
            if spec.id == .help { return openHelp() }
            message = "folio \(Options.version)"
            return []
        case .bool, .triple:
            changeSwitch(spec, lowerCase: lowerCase, change)
            return []
        }
    }

    /// A bool or triple option: its state, less's rules for the change, the new state said.
    private mutating func changeSwitch(_ spec: OptionSpec, lowerCase: Bool, _ change: OptionChange) {
        /// The new state of a triple whose less default is `lessDefault`, folio's `folioDefault`.
        func triple(_ now: Triple, lessDefault: Triple, folioDefault: Triple) -> Triple {
            switch change {
            case .toggle: return now.flipped(lowerCase: lowerCase)
            case .reset: return folioDefault
            case .setOpposite: return lessDefault.flipped(lowerCase: lowerCase)
            case .query: return now
            }
        }
        func bool(_ now: Bool) -> Bool {
            switch change {
            case .toggle: return !now
            case .reset: return false
            case .setOpposite: return true
            case .query: return now
            }
        }
        switch spec.id {
        case .ignoreCase:
            let cases: [CaseSensitivity] = [.sensitive, .smart, .insensitive]
            let now = Triple(rawValue: cases.firstIndex(of: config.searchCase) ?? 1)!
            let new = cases[triple(now, lessDefault: .off, folioDefault: .on).rawValue]
            config.searchCase = new
            message = ["Case is significant in searches", "Ignore case in searches (unless the pattern has capitals)",
                       "Ignore case in searches"][cases.firstIndex(of: new)!]
        case .lineNumbers:
            let new = triple(config.lineNumbers ? .onPlus : .on, lessDefault: .on, folioDefault: .on) == .onPlus
            if new != config.lineNumbers {
                config.lineNumbers = new
                relayoutAll()
            }
            message = new ? "Line numbers on" : "Line numbers off"
        case .chopLongLines:
            let new = bool(config.chopLongLines)
            if new != config.chopLongLines {
                config.chopLongLines = new
                horizontalShift = 0
                relayoutAll()
            }
            // Markdown's prose always wraps; `-S` shows its too-wide tables as whole grids.
            message = !active.isText
                ? (new ? "Wide tables as whole grids, cut at the width (← → scroll sideways)" : "Wide tables fitted to the width")
                : new ? "Chop long lines (← → scroll sideways)" : "Fold long lines"
        case .quitOnIntr:
            config.quitOnInterrupt = bool(config.quitOnInterrupt)
            message = config.quitOnInterrupt ? "Interrupt (ctrl-C) quits folio" : "Interrupt (ctrl-C) does not quit"
        case .quitAtEOF:
            let states: [QuitAtEOF] = [.never, .atSecondEnd, .atEnd]
            let now = Triple(rawValue: states.firstIndex(of: config.quitAtEOF)!)!
            let new = triple(now, lessDefault: .off, folioDefault: .off)
            config.quitAtEOF = states[new.rawValue]
            message = ["Don't quit at end-of-file", "Quit at end-of-file", "Quit immediately at end-of-file"][new.rawValue]
        case .hiliteSearch:
            let states: [MatchHighlight] = [.none, .current, .all]
            let now = Triple(rawValue: states.firstIndex(of: config.matchHighlight)!)!
            let new = triple(now, lessDefault: .onPlus, folioDefault: .onPlus)
            config.matchHighlight = states[new.rawValue]
            message = ["Don't highlight search matches", "Highlight matches for previous search only",
                       "Highlight all matches for previous search pattern"][new.rawValue]
        case .searchSkipScreen:
            let new = triple(config.searchSkipsScreen ? .on : .onPlus, lessDefault: .onPlus, folioDefault: .onPlus)
            config.searchSkipsScreen = new == .on
            message = ["Search includes displayed screen", "Search skips displayed screen",
                       "Search includes all of displayed screen"][new.rawValue]
        case ._literal:
            config.literalSearch = bool(config.literalSearch)
            message = config.literalSearch ? "Search patterns are literal text" : "Search patterns are regular expressions"
        case ._searchWrap:
            config.searchWraps = bool(config.searchWraps)
            message = config.searchWraps ? "Searches wrap around the ends" : "Searches stop at the ends"
        case ._noSearchWrap:
            config.searchWraps = !bool(!config.searchWraps)
            message = config.searchWraps ? "Searches wrap around the ends" : "Searches stop at the ends"
        default:
            // Used at the start only (-F, --follow-name, --mouse…).
            message = "\(spec.display()) acts at the start only"
        }
    }

    /// `-+j`, `-+z`, `-+#`: back to folio's default.
    private mutating func resetValueOption(_ spec: OptionSpec) {
        switch spec.id {
        case .jumpTarget: config.jumpTarget = .minimal
        case .window: config.pageStep = .overlap(1)
        case .shift: config.horizontalShift = .fraction(0.5)
        default:
            message = "\(spec.display()) acts at the start only"
            return
        }
        describeValueOption(spec)
    }

    /// `_j`, `_z`, `_#` and the message after a change, in less's words.
    private mutating func describeValueOption(_ spec: OptionSpec) {
        switch spec.id {
        case .jumpTarget:
            switch config.jumpTarget {
            case .minimal: message = "Position target: as little as needed (the default)"
            case .row(let r): message = "Position target at screen line \(r >= 0 ? r + 1 : r)"
            case .fraction(let f): message = "Position target at screen position \(Self.fractionText(f))"
            }
        case .window:
            message = "Scroll window size is \(config.pageStep.rows(contentRows: contentRows)) lines"
        case .shift:
            switch config.horizontalShift {
            case .columns(let n): message = "Horizontal shift \(n) columns"
            case .fraction(let f): message = "Horizontal shift \(Self.fractionText(f)) of screen width"
            }
        default:
            message = "\(spec.display()) acts at the start only"
        }
    }

    /// `.5`, `.25`: as less writes a fraction.
    static func fractionText(_ f: Double) -> String {
        var digits = String(Int((f * 1_000_000).rounded()))
        digits = String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }

    /// The value typed at an option's prompt (`-j` then `5` Enter), checked as on the command
    /// line.
    mutating func setOptionValue(_ id: OptionID, _ text: String) {
        let spec = OptionTable.spec(id)
        switch id {
        case .jumpTarget:
            guard let target = JumpTarget(text) else { message = "Invalid target line: \(text)"; return }
            config.jumpTarget = PagerConfig.revealPolicy(target)
        case .window:
            guard let n = Int(text.filter { $0 != " " }), abs(n) <= Options.rowRange.upperBound else {
                message = "Invalid window size: \(text)"
                return
            }
            config.pageStep = n < 0 ? .screenMinus(-n) : .rows(n)
        case .shift:
            guard let shift = HorizontalShift(text) else { message = "Invalid horizontal shift: \(text)"; return }
            config.horizontalShift = shift
        default:
            if case .ignored(let why) = spec.use {
                message = "\(spec.display()): \(why)"
            } else {
                message = "\(spec.display()) acts at the start only"
            }
            return
        }
        describeValueOption(spec)
    }

    /// `--name` typed at its prompt (`--quit-on` Enter; `--jump-target=5` sets the value).
    mutating func namedOption(_ text: String, _ change: OptionChange) -> [PagerEffect] {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        switch OptionTable.find(name: bytes[...]) {
        case .ambiguous:
            message = "--\(text) is an ambiguous abbreviation"
        case .none:
            message = "There is no --\(text) option"
        case .found(let id, let length):
            let spec = OptionTable.spec(id)
            let rest = bytes[length...]
            let lowerCase = !(bytes[0] >= 0x41 && bytes[0] <= 0x5A)
            if rest.isEmpty { return optionCommand(spec, lowerCase: lowerCase, change) }
            guard rest.first == UInt8(ascii: "="), change == .toggle,
                  case .used = spec.use, !spec.fixedAtStart else {
                message = "There is no --\(text) option"
                return []
            }
            setOptionValue(id, String(decoding: rest.dropFirst(), as: UTF8.self))
        }
        return []
    }

    /// Opens the prompt of the `-` command (a value, or an option's name).
    mutating func startOptionPrompt(_ kind: Prompt.Kind) {
        prompt = Prompt(kind: kind, literal: false, origin: active.viewport.position)
    }
}
