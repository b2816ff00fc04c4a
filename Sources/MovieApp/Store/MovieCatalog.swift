import FoundationEssentials
internal import Screenplay

/// The catalog file a store seeds an empty database from: `{"movies": [Movie, …]}`.
///
/// Every movie must satisfy ``MoviePatch``'s rules and have a unique positive id, so a database is
/// never seeded with data the API would refuse to write.
struct MovieCatalog: Decodable {
    var movies: [Movie]

    /// Reads and validates the catalog at `path`.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/invalidCatalog`` naming the file, the movie
    ///   and the field at fault.
    static func load(from path: String) throws(StoreError) -> [Movie] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StoreError(
                .invalidCatalog, message: "catalog \(path): cannot be read (\(systemErrorDescription(error)))")
        }
        let catalog: MovieCatalog
        do {
            catalog = try JSONDecoder().decode(MovieCatalog.self, from: data)
        } catch {
            throw StoreError(
                .invalidCatalog, message: "catalog \(path): not of the form {\"movies\": [...]} (\(error))")
        }
        var ids: Set<Int> = []
        var movies: [Movie] = []
        for (index, movie) in catalog.movies.enumerated() {
            do {
                movies.append(try MoviePatch.validated(movie))
            } catch {
                throw StoreError(.invalidCatalog, message: "catalog \(path): movie at index \(index): \(error)")
            }
            guard ids.insert(movie.id).inserted else {
                throw StoreError(.invalidCatalog, message: "catalog \(path): id \(movie.id) appears more than once")
            }
        }
        return movies
    }
}
