import LineLayout

extension DocumentLayout {
    /// Every unit laid out, in order (the pager never needs them all at once).
    var allUnits: [BlockLayout] { unitRange.map { unit($0) } }
}
