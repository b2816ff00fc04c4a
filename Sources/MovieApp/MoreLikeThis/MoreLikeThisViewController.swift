import Screenplay
import ViewKit

/// The "More like this" strip of a movie's detail screen, a child view controller (`Templates/MoreLikeThis.html`):
/// a few movies that share a genre with it, each a link to its own detail page, in a collection view's strip.
final class MoreLikeThisViewController: ViewController {
    @Outlet("similarTable") var similarTable: CollectionView
    @Outlet("emptyLabel") var emptyLabel: Label

    /// Makes the strip showing `similar` (``MoreLikeThisBinder/similarMovies(to:in:)``, or the similar movies read
    /// with the movie by ``MoreLikeThisBinder/movieAndSimilarMovies(to:in:)``), with its binder in its own bag.
    static func make(similar: [Movie]) -> MoreLikeThisViewController {
        let viewController = MoreLikeThisViewController()
        viewController.bag.insert(MoreLikeThisBinder(viewController: viewController, similar: similar))
        return viewController
    }
}

/// Binds the strip: once loaded, the similar movies by identity in a collection view of its own.
final class MoreLikeThisBinder: ViewControllerBinder {
    unowned let viewController: MoreLikeThisViewController
    /// The movies the strip shows, in its order: a few, looked up by id in place. An array, not a dictionary by id:
    /// the binder lives as long as its screen, and a dictionary of four movies took more than twice the bytes of the
    /// array the search made (Benchmarks/History/37).
    private let movies: [Movie]

    /// The most movies the strip shows, and how far past the movie's id it looks for them (point reads, whatever
    /// the catalog's size).
    static let count = 4
    static let reach = 40

    /// Binds the strip of `similar`, read with the movie it is shown beside: the screen's one read of the store
    /// (Benchmarks/History/73-page-instructions-13.md).
    init(viewController: MoreLikeThisViewController, similar: [Movie]) {
        self.viewController = viewController
        self.movies = similar
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        let similar = movies
        let dataSource = CollectionViewDiffableDataSource<Int, Int>(collectionView: viewController.similarTable) {
            [unowned self] collection, id in
            let cell = collection.dequeueReusableCell(withReuseIdentifier: "movie")
            if let movie = movies.first(where: { $0.id == id }) {
                cell.outlet("link", as: View.self).setAttribute("href", "/movies/\(movie.id)")
                cell.outlet("titleLabel", as: Label.self).text = movie.title
                cell.outlet("ratingLabel", as: Label.self).text = MovieDetailData.starredRating(movie.rating)
            }
            return cell
        }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(similar.map(\.id))
        dataSource.apply(snapshot)
        viewController.emptyLabel.isHidden = !similar.isEmpty
        viewController.similarTable.isHidden = similar.isEmpty
    }

    /// Up to ``count`` movies after `movieID` (by id, within ``reach``, wrapping to the first ids) that share a
    /// genre with it; none when the store cannot be read (``movieAndSimilarMovies(to:in:)``'s similar movies).
    static func similarMovies(to movieID: Int, in store: any MovieStore) -> [Movie] {
        (try? movieAndSimilarMovies(to: movieID, in: store))?.similar ?? []
    }

    /// Movie `movieID` and up to ``count`` movies after it (by id, within ``reach``, wrapping to the first ids) that
    /// share a genre with it, read in one go: a detail screen's only read of the store, so that a page checks the
    /// store's cache once (Benchmarks/History/73-page-instructions-13.md).
    ///
    /// The movie and then its candidates, in the order they are looked at, are read together
    /// (``MovieStore/movies(ids:while:)``: one check of a store's cache however many it looks at), which stops at
    /// the last one the strip takes. No movie (none has an id below 1): nil and none. Throws what the store throws
    /// when it cannot read the movie; a read that fails later keeps the movie and what was found before it. Ids start
    /// at 1: offset `k` looks at `movieID + k`, then at `k` when `k < movieID` (a larger `k` was looked at as
    /// `movieID + (k - movieID)` already, and `k == movieID` is the movie itself).
    static func movieAndSimilarMovies(to movieID: Int, in store: any MovieStore) throws -> (
        movie: Movie?, similar: [Movie]
    ) {
        guard movieID >= 1 else { return (nil, []) }
        var ids: [Int] = []
        ids.reserveCapacity(1 + reach + min(reach, movieID - 1))
        ids.append(movieID)
        for offset in 1...reach {
            ids.append(movieID + offset)
            if offset < movieID { ids.append(offset) }
        }
        var movieWasRead = false
        var movie: Movie?
        var found: [Movie] = []
        // Kept by the binder as long as its screen: room for the most it holds, not a doubling's spare.
        found.reserveCapacity(count)
        do {
            try store.movies(ids: ids) { read in
                guard let movie else {
                    movieWasRead = true
                    movie = read
                    return read != nil
                }
                // Genres are a few short names each: compared in place, not hashed into sets.
                if let read, read.genres.contains(where: movie.genres.contains) { found.append(read) }
                return found.count < count
            }
        } catch {
            guard movieWasRead else { throw error }
        }
        return (movie, found)
    }
}
