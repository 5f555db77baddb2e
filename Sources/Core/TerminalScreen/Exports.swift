// Colours and literal text attributes live in Styling (shared with the layout, which carries
// the styles of text documents); whoever imports TerminalScreen sees them too.
@_exported import Styling
