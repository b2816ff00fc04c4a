/// An answer remembered for each type asked about, kept in order of the types' identifiers and found by halving: no
/// hashing, where a dictionary's look-up hashed the identifier through `Hasher` (a page asks once for each subscription
/// in its controllers' bags, and for each controller's template name; Benchmarks/History/80-page-instructions-15.md).
/// A process asks about few types (each type of item ever put in a bag, each view controller class), so an insertion's
/// move of the ones after it is rare and short.
package struct TypeAnswers<Answer: Sendable>: Sendable {
    /// The identifiers of the types answered, in increasing order.
    private var keys: [ObjectIdentifier] = []
    /// The answer for each of `keys`, at the same place.
    private var answers: [Answer] = []

    package init() {}

    /// How many types have an answer.
    package var count: Int { keys.count }

    /// The answer remembered for `key`, or nil.
    package func answer(for key: ObjectIdentifier) -> Answer? {
        let place = place(of: key)
        return place < keys.count && keys[place] == key ? answers[place] : nil
    }

    /// Remembers `answer` for `key`, replacing any answer it had.
    package mutating func record(_ answer: Answer, for key: ObjectIdentifier) {
        let place = place(of: key)
        if place < keys.count, keys[place] == key {
            answers[place] = answer
        } else {
            keys.insert(key, at: place)
            answers.insert(answer, at: place)
        }
    }

    /// The first place whose key is not less than `key` (the count when there is none).
    private func place(of key: ObjectIdentifier) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            if keys[middle] < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
