import Screenplay
import ViewKit

/// The MovieDetail screen, from `Templates/MovieDetail.html`.
final class MovieDetailViewController: ViewController {
    @Outlet("headerView") var headerView: MovieHeaderView
    @Outlet("tipsView") var tipsView: MovieTipsView
    @Outlet("posterImageView") var posterImageView: ImageView
    @Outlet("backButton") var backButton: Button
    @Outlet("refreshButton") var refreshButton: Button
    @Outlet("editLink") var editLink: Label
    @Outlet("similarContainer") var similarContainer: View

    /// The movie title the page title and the poster's text alternative were last made from, and whether there was
    /// a movie: every change of the movie reaches every screen of it, and most leave its title as it was.
    var titlesMadeFrom: (title: String, hasMovie: Bool)?
}
