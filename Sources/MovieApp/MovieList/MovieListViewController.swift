import Screenplay
import ViewKit

/// The movie list at `/`, from `Templates/MovieList.html`.
final class MovieListViewController: ViewController {
    @Outlet("moviesList") var moviesList: TableView
    @Outlet("statusLabel") var statusLabel: Label
    @Outlet("searchField") var searchField: TextField
    /// The path the list was opened at (`/` or `/movies`), which the search's URL keeps.
    var searchPath = "/"
}
