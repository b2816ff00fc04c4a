import Reactive
import ReactiveTesting

// The names the snippets of Reactive's "Migrating from RxSwift" use without declaring them: the movie API a view
// model calls, a fake of it for the test, and the movie the fake answers with.

struct ReactiveMigratingFromRxSwiftSnippets {
    struct Movie: Equatable, Sendable {
        var title: String
    }

    static let movie = Movie(title: "Heat")

    /// The network calls, as RxSwift code returns them: a `Single` read and a `Completable` save.
    protocol MovieAPI {
        func movie(id: Int) -> Single<Movie>
        func save(id: Int) -> Completable
    }

    /// Answers with what the test scheduled, and saves at once.
    struct FakeAPI: MovieAPI {
        private let movies: Observable<Movie>

        init<Source: ObservableConvertibleType>(movie: Source) where Source.Element == Movie {
            movies = movie.asObservable()
        }

        init() {
            movies = .empty()
        }

        func movie(id: Int) -> Single<Movie> { movies.asSingle() }
        func save(id: Int) -> Completable { .empty() }
    }
}
