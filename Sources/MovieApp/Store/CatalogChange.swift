/// One committed change to the catalog, as ``MovieStore/catalogChanges()`` tells it: a movie created, updated or
/// deleted.
///
/// A list follows these to insert, reload or remove only the rows they touch; the movie comes with an insertion or
/// an update so that a sorted list can place it without reading the store.
public enum CatalogChange: Sendable, Equatable {
    /// Movie created, as committed.
    case inserted(Movie)
    /// A field of the movie changed; the movie as committed.
    case updated(Movie)
    /// The movie with this id was deleted.
    case deleted(id: Int)

    /// The id of the movie that changed.
    public var id: Int {
        switch self {
        case .inserted(let movie), .updated(let movie): movie.id
        case .deleted(let id): id
        }
    }
}
