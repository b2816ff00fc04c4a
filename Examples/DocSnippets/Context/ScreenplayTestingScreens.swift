import Screenplay
import ScreenplayTesting

// The names the snippets of Screenplay's "Testing screens" use without declaring them: the demo's movie list and
// detail screens (MovieApp is the demo, not a product an app depends on, so stand-ins with the same factories), its
// store and read scheduler, and an application serving the counter with a client of it.

struct ScreenplayTestingScreensSnippets {
    /// A stand-in for the demo's store.
    final class MovieStore: Sendable {}

    /// A stand-in for the demo's MovieDetail screen, with its factory's signature.
    final class MovieDetailViewController: ViewController {
        static func make(
            request: ScreenRequest, store: MovieStore, readScheduler: any ImmediateSchedulerType
        ) throws -> MovieDetailViewController {
            MovieDetailViewController()
        }
    }

    /// A stand-in for the demo's MovieList screen, with its factory's signature.
    final class MovieListViewController: ViewController {
        static func make(store: MovieStore, request: ScreenRequest) -> MovieListViewController {
            MovieListViewController()
        }
    }

    let store: MovieStore
    let scheduler: ConcurrentDispatchQueueScheduler
    let app: Application
    let client: LiveClient
}
