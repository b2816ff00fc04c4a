import Foundation
import Reactive
import Screenplay
import ViewKit

/// Binds the movie list the way the seed binds MovieDetail: style, state, actions.
final class MovieListBinder: ViewControllerBinder {
    unowned let viewController: MovieListViewController
    private let driver: MovieListDriving
    /// The movies the table shows, by id, for its cell provider.
    private var moviesByID: [Int: Movie] = [:]
    private lazy var dataSource = TableViewDiffableDataSource<Int, Int>(tableView: viewController.moviesList) {
        [unowned self] table, id in
        let cell = table.dequeueReusableCell(withIdentifier: MovieCellBinder.reuseIdentifier)
        if let movie = moviesByID[id] { MovieCellBinder().configure(cell, with: movie) }
        return cell
    }

    /// The page of the list the request asked for (`?page=N`, for pages without the script).
    private let page: Int

    init(viewController: MovieListViewController, driver: MovieListDriving, page: Int = 1) {
        self.viewController = viewController
        self.driver = driver
        self.page = page
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.statusBarStyle = .default
        viewController.title = "Movies · Screenplay"

        // 2. State
        if page > 1 { viewController.moviesList.showPage(page) }
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: MovieListBinder.viewWillAppear)),
            driver.data
                .drive(onNext: unowned(self, in: MovieListBinder.configure)),
            driver.data.map(\.query)
                .drive(viewController.searchField.rx.text)
        )

        // 3. Action
        viewController.bag.insert(
            viewController.searchField.rx.text.orEmpty.changed
                .bind(onNext: driver.search)
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    private func configure(_ data: MovieListData) {
        let message =
            data.errorMessage
            ?? (data.movies.isEmpty && !data.query.isEmpty ? "No movie matches “\(data.query)”." : nil)
        viewController.statusLabel.text = message ?? ""
        viewController.statusLabel.isHidden = message == nil
        viewController.navigationController?.replaceURL(
            MovieListData.url(path: viewController.searchPath, query: data.query))
        // The table by identity: new movies get a cell, movies gone lose theirs, changed ones are reloaded.
        let previous = moviesByID
        moviesByID = Dictionary(data.movies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(data.movies.map(\.id))
        snapshot.reloadItems(
            data.movies.compactMap { movie in previous[movie.id].flatMap { $0 == movie ? nil : movie.id } })
        viewController.moviesList.pageLink = { [searchPath = viewController.searchPath, query = data.query] page in
            MovieListData.url(path: searchPath, query: query, page: page)
        }
        dataSource.apply(snapshot)
    }
}
