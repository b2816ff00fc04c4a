import Screenplay
import ViewKit

/// The movie list at `/`, from `Templates/MovieList.html`.
final class MovieListViewController: ViewController {
    @Outlet("moviesList") var moviesList: ListView
    @Outlet("statusLabel") var statusLabel: Label
}
