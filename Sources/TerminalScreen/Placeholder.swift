// TerminalScreen
