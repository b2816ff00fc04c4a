import Screenplay
import ViewKit

/// The MovieDetail screen, from `Templates/MovieDetail.html`.
final class MovieDetailViewController: ViewController {
    @Outlet("headerView") var headerView: MovieHeaderView
    @Outlet("tipsView") var tipsView: MovieTipsView
    @Outlet("posterImageView") var posterImageView: ImageView
    @Outlet("backButton") var backButton: Button
    @Outlet("refreshButton") var refreshButton: Button
}
