extension StringProtocol {
    /// The text without the white space at its ends: Unicode's spaces and tabs, and line breaks too with
    /// `includingNewlines` (what Foundation's `trimmingCharacters(in:)` does with `.whitespaces` and
    /// `.whitespacesAndNewlines`).
    ///
    /// ```swift
    /// "  Heat \n".trimmingWhitespace()                          // "Heat \n"
    /// "  Heat \n".trimmingWhitespace(includingNewlines: true)   // "Heat"
    /// ```
    public func trimmingWhitespace(includingNewlines: Bool = false) -> String {
        let isKept = { (character: Character) in
            !character.isWhitespace || (character.isNewline && !includingNewlines)
        }
        guard let first = firstIndex(where: isKept), let last = lastIndex(where: isKept) else { return "" }
        return String(self[first...last])
    }
}
