// TerminalIO
