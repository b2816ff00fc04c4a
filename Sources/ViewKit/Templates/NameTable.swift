/// Names that are looked up on every page (a library's templates, a template's outlets), each once, and where a name
/// is among them: found by its length in UTF-8 first, then compared with the few names of that length, where a
/// dictionary would hash the whole name each look-up.
struct NameTable: Sendable {
    /// The names, shorter first (in UTF-8), those of one length in increasing order (`String`'s `<`), each once.
    let names: [String]
    /// Each name's length in UTF-8, at its position in `names` (so in increasing order).
    private let lengths: [Int]
    /// Whether every name is ASCII: then a name of another length in UTF-8 can equal one of them only if it is not
    /// ASCII itself.
    private let isASCII: Bool

    /// The table of `names`; each must be there once (a dictionary's keys).
    init(_ names: some Sequence<String>) {
        self.names = names.sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
        lengths = self.names.map(\.utf8.count)
        isASCII = self.names.allSatisfy(Self.isASCIIName)
    }

    /// The position in ``names`` of the name equal to `name` (`String`'s `==`, canonical equivalence, as a dictionary
    /// finds its key), or nil. A name of `name`'s length in UTF-8 is found by halving over the lengths and comparing
    /// those of that length; strings of other lengths can be equal only where one is not ASCII (a composed and a
    /// decomposed accent, the Kelvin sign and `K`), so for such a `name` or table a miss is checked against every name.
    func position(of name: String) -> Int? {
        let length = name.utf8.count
        var index = 0
        var count = lengths.count
        while count > 0 {
            let half = count / 2
            if lengths[index + half] < length {
                index += half + 1
                count -= half + 1
            } else {
                count = half
            }
        }
        while index < lengths.count, lengths[index] == length {
            if names[index] == name { return index }
            index += 1
        }
        if isASCII && Self.isASCIIName(name) { return nil }
        return names.firstIndex { $0 == name }
    }

    /// Whether `name` is ASCII: its bytes read where they are (a small string's from a copy on the stack) rather than
    /// through the UTF-8 view's iterator.
    private static func isASCIIName(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? name.utf8.allSatisfy { $0 < 0x80 }
    }
}
