/// Where a name is among names kept in increasing order (`String`'s `<`), each once: for the names a library or a
/// template is asked for on every page, where a dictionary would hash the whole name each look-up.
enum SortedNames {
    /// The position of `name` in `names` (increasing, each once), or nil: the name there equal to it (`String`'s
    /// `==`, canonical equivalence, as a dictionary finds its key). Found by halving with `<` alone, then one `==`,
    /// which for the same string as the one kept compares its representation and nothing else.
    static func position(of name: String, in names: [String]) -> Int? {
        var low = 0
        var count = names.count
        while count > 0 {
            let half = count / 2
            if names[low + half] < name {
                low += half + 1
                count -= half + 1
            } else {
                count = half
            }
        }
        return low < names.count && names[low] == name ? low : nil
    }
}
