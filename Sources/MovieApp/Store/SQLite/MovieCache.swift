/// Movies by id, for a store's cache of committed movies: the ids from 0 up to a bound kept by position in an array,
/// read without hashing (a detail page looks up its movie and each candidate of its strip), and any other id in a
/// dictionary.
///
/// The array grows only to an id within about twice the movies it holds (plus a first stretch), so a store whose ids
/// are sparse keeps the ones far apart in the dictionary rather than a long run of empty places.
struct MovieCache {
    private var byPosition: [Movie?] = []
    /// The movies `byPosition` holds, which bounds how far it may grow.
    private var positionedCount = 0
    private var others: [Int: Movie] = [:]

    /// The first stretch of ids kept by position however few movies are held.
    private static let firstStretch = 1024

    /// The movie with `id`, if cached; assigning nil forgets it.
    subscript(id: Int) -> Movie? {
        get {
            if id >= 0 && id < byPosition.count { return byPosition[id] }
            return others.isEmpty ? nil : others[id]
        }
        set {
            if id >= 0 && id < byPosition.count {
                switch (byPosition[id] != nil, newValue != nil) {
                case (false, true): positionedCount += 1
                case (true, false): positionedCount -= 1
                default: break
                }
                byPosition[id] = newValue
                return
            }
            guard let newValue else {
                if !others.isEmpty { others[id] = nil }
                return
            }
            if id >= 0 && id < 2 * positionedCount + Self.firstStretch {
                let start = byPosition.count
                byPosition.append(contentsOf: repeatElement(nil, count: id - start))
                byPosition.append(newValue)
                positionedCount += 1
                // Ids the array now covers move into it from the dictionary.
                if !others.isEmpty {
                    others[id] = nil
                    for (other, movie) in others where other >= start && other < id {
                        byPosition[other] = movie
                        positionedCount += 1
                    }
                    others = others.filter { $0.key < start || $0.key > id }
                }
            } else {
                others[id] = newValue
            }
        }
    }

    /// Forgets every movie.
    mutating func removeAll() {
        byPosition = []
        positionedCount = 0
        others = [:]
    }
}
