import Screenplay
import ViewKit

/// The "More like this" strip of a movie's detail screen, a child view controller (`Templates/MoreLikeThis.html`):
/// a few movies that share a genre with it, each a link to its own detail page, in a collection view's strip.
final class MoreLikeThisViewController: ViewController {
    @Outlet("similarTable") var similarTable: CollectionView
    @Outlet("emptyLabel") var emptyLabel: Label

    /// Makes the strip of movie `movieID`, read from `store`, with its binder in its own bag.
    static func make(movieID: Int, store: any MovieStore) -> MoreLikeThisViewController {
        let viewController = MoreLikeThisViewController()
        viewController.bag.insert(MoreLikeThisBinder(viewController: viewController, movieID: movieID, store: store))
        return viewController
    }
}

/// Binds the strip: once loaded, the similar movies by identity in a collection view of its own.
final class MoreLikeThisBinder: ViewControllerBinder {
    unowned let viewController: MoreLikeThisViewController
    private let movieID: Int
    private let store: any MovieStore
    /// The movies the strip shows, in its order: a few, looked up by id in place. An array, not a dictionary by id:
    /// the binder lives as long as its screen, and a dictionary of four movies took more than twice the bytes of the
    /// array the search made (Benchmarks/History/37).
    private var movies: [Movie] = []

    /// The most movies the strip shows, and how far past the movie's id it looks for them (point reads, whatever
    /// the catalog's size).
    static let count = 4
    static let reach = 40

    init(viewController: MoreLikeThisViewController, movieID: Int, store: any MovieStore) {
        self.viewController = viewController
        self.movieID = movieID
        self.store = store
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        let similar = Self.similarMovies(to: movieID, in: store)
        movies = similar
        let dataSource = CollectionViewDiffableDataSource<Int, Int>(collectionView: viewController.similarTable) {
            [unowned self] collection, id in
            let cell = collection.dequeueReusableCell(withReuseIdentifier: "movie")
            if let movie = movies.first(where: { $0.id == id }) {
                cell.outlet("link", as: View.self).setAttribute("href", "/movies/\(movie.id)")
                cell.outlet("titleLabel", as: Label.self).text = movie.title
                cell.outlet("ratingLabel", as: Label.self).text = "★ " + MovieDetailData.rating(movie.rating)
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
    /// genre with it; none when the store cannot be read.
    ///
    /// The candidates are read a few at a time (``MovieStore/movies(ids:)``), in the order they are looked at: a
    /// store answers several at the cost of about one. The movie itself is read with the first batch (no movie, or
    /// a first batch the store cannot read: none); a later batch the store cannot read is skipped. Ids start at 1:
    /// offset `k` looks at `movieID + k`, then at `k` when `k < movieID` (a larger `k` was looked at as
    /// `movieID + (k - movieID)` already, and `k == movieID` is the movie itself).
    static func similarMovies(to movieID: Int, in store: any MovieStore) -> [Movie] {
        guard movieID >= 1 else { return [] }
        var movie: Movie?
        var found: [Movie] = []
        // Kept by the binder as long as its screen: room for the most it holds, not a doubling's spare.
        found.reserveCapacity(count)
        var offset = 1
        var batch: [Int] = []
        batch.reserveCapacity(2 * count + 2)
        while found.count < count && offset <= reach {
            batch.removeAll(keepingCapacity: true)
            if movie == nil { batch.append(movieID) }
            let end = batch.count + 2 * count
            while batch.count < end && offset <= reach {
                batch.append(movieID + offset)
                if offset < movieID { batch.append(offset) }
                offset += 1
            }
            var movies = (try? store.movies(ids: batch))?[...]
            if movie == nil {
                // The first batch: each read of a store checks that its cache is current, one check for both.
                guard let read = movies?.popFirst(), let read else { return [] }
                movie = read
            }
            guard let movie, let movies else { continue }
            for other in movies where found.count < count {
                // Genres are a few short names each: compared in place, not hashed into sets.
                if let other, other.genres.contains(where: movie.genres.contains) { found.append(other) }
            }
        }
        return found
    }
}
