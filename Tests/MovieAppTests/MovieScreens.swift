import Dispatch
import Foundation
import Reactive
import ReactiveTesting
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport

@testable import MovieApp

/// The app's screens in a `ScreenHarness`, over a real SQLite store in a temporary folder seeded from the
/// shipped catalog, with a `TestScheduler` as the detail driver's read scheduler (re-reads run when the test
/// says so, so the refreshing state can be looked at) and another as the edit driver's write scheduler (a finished
/// poster is kept when the test says so).
struct MovieScreens {
    let folder: TemporaryFolder
    let store: SQLiteMovieStore
    let readScheduler = TestScheduler(initialClock: 0)
    let writeScheduler = TestScheduler(initialClock: 0)

    /// The app's templates, from the repository.
    static let templates = repositoryRoot.appendingPathComponent("Templates").path

    /// Seeds from `Catalog/movies.json`, or from `movies` when given.
    init(movies: [Movie]? = nil) throws {
        let folder = try TemporaryFolder()
        self.folder = folder
        let catalog =
            try movies.map { try folder.catalog($0) }
            ?? repositoryRoot.appendingPathComponent("Catalog/movies.json").path
        store = try SQLiteMovieStore(path: folder.path("movies.sqlite"), seedingFrom: catalog)
    }

    /// The MovieDetail screen of movie `id`, as `/movies/{id}` builds it.
    func detail(_ id: Int, store: (any MovieStore)? = nil) throws -> ScreenHarness {
        let (store, readScheduler) = (store ?? self.store, readScheduler)
        return try ScreenHarness(
            templates: Self.templates, views: MovieServer.register, url: "/movies/\(id)", parameters: ["id": "\(id)"],
            parent: "/"
        ) { request in
            try MovieDetailViewController.make(request: request, store: store, readScheduler: readScheduler)
        }
    }

    /// The MovieDetail screen with the seed's binder over `driver`, for states the store cannot hold still.
    func detail(driver: StubMovieDetailDriver) throws -> ScreenHarness {
        try ScreenHarness(templates: Self.templates, views: MovieServer.register, url: "/movies/1", parent: "/") { _ in
            let viewController = MovieDetailViewController()
            viewController.bag.insert(MovieDetailBinder(viewController: viewController, driver: driver))
            return viewController
        }
    }

    /// The movie list at `url` (`/`, or `/?q=…` for a search).
    func list(store: (any MovieStore)? = nil, url: String = "/") throws -> ScreenHarness {
        let store = store ?? self.store
        return try ScreenHarness(templates: Self.templates, views: MovieServer.register, url: url) { request in
            MovieListViewController.make(store: store, request: request)
        }
    }

    /// The MovieEdit screen of movie `id`, as `/movies/{id}/edit` builds it.
    func edit(_ id: Int, store: (any MovieStore)? = nil) throws -> ScreenHarness {
        let (store, writeScheduler) = (store ?? self.store, self.writeScheduler)
        return try ScreenHarness(
            templates: Self.templates, views: MovieServer.register, url: "/movies/\(id)/edit",
            parameters: ["id": "\(id)"], parent: "/"
        ) { request in
            try MovieEditViewController.make(request: request, store: store, writeScheduler: writeScheduler)
        }
    }
}

/// A driver that shows fixed data and counts the intents it receives.
final class StubMovieDetailDriver: MovieDetailDriving, Sendable {
    private let fixed: MovieDetailData
    private let counts = TestMutex((close: 0, refresh: 0))

    init(_ data: MovieDetailData) {
        fixed = data
    }

    var data: Driver<MovieDetailData> { Driver.just(fixed) }
    var closeCount: Int { counts.withLock { $0.close } }
    var refreshCount: Int { counts.withLock { $0.refresh } }

    func close() { counts.withLock { $0.close += 1 } }
    func refresh() { counts.withLock { $0.refresh += 1 } }
}

extension MovieScreens {
    /// The app's three screen routes as `/`, `/movies/:id` and `/movies/:id/edit` serve them, for a `ScreenFlow`.
    func flow() -> ScreenFlow {
        let (store, readScheduler, writeScheduler) = (self.store, self.readScheduler, self.writeScheduler)
        return ScreenFlow(
            templates: Self.templates, views: MovieServer.register,
            routes: [
                .init("/") { request in MovieListViewController.make(store: store, request: request) },
                .init("/movies/:id", parent: "/") { request in
                    try MovieDetailViewController.make(request: request, store: store, readScheduler: readScheduler)
                },
                .init("/movies/:id/edit", parent: "/") { request in
                    try MovieEditViewController.make(request: request, store: store, writeScheduler: writeScheduler)
                },
            ])
    }
}
