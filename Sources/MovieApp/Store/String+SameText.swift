extension String {
    /// Whether both are the same text, code point for code point.
    ///
    /// `==` compares canonical equivalence: it calls "é" and "e\u{301}" (an "e" and a combining accent) equal. A
    /// movie's text is kept, sent and shown as the code points it was given, so the store and the screens ask this
    /// when they decide whether a text changed.
    func isSameText(as other: String) -> Bool {
        unicodeScalars.elementsEqual(other.unicodeScalars)
    }
}

extension [String] {
    /// Whether both hold the same texts in the same order, each compared by ``Swift/String/isSameText(as:)``.
    func isSameText(as other: [String]) -> Bool {
        elementsEqual(other) { $0.isSameText(as: $1) }
    }
}
