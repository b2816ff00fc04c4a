import FoundationEssentials
import Reactive
import Screenplay
import ViewKit

/// Binds the movie list the way the seed binds MovieDetail: style, state, actions.
final class MovieListBinder: ViewControllerBinder {
    unowned let viewController: MovieListViewController
    private let driver: MovieListDriving
    /// The movies of the table's window, by id, for its cell provider: read with the window, nothing more.
    private var moviesByID: [Int: Movie] = [:]
    private lazy var dataSource = TableViewRangeDataSource<Int>(
        tableView: viewController.moviesList,
        itemsProvider: { [unowned self] range in
            let movies = driver.movies(in: range)
            moviesByID = Dictionary(movies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return movies.map(\.id)
        },
        placeProvider: { [unowned self] id in driver.place(of: id) }
    ) { [unowned self] table, id in
        let cell = table.dequeueReusableCell(withIdentifier: MovieCellBinder.reuseIdentifier)
        if let movie = moviesByID[id] { MovieCellBinder().configure(cell, with: movie) }
        return cell
    }
    /// The search the table shows, once it shows one: a new search starts from the top.
    private var shownQuery: String?

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
            data.errorMessage ?? (data.total == 0 && !data.query.isEmpty ? "No movie matches “\(data.query)”." : nil)
        viewController.statusLabel.text = message ?? ""
        viewController.statusLabel.isHidden = message == nil
        viewController.navigationController?.replaceURL(
            MovieListData.url(path: viewController.searchPath, query: data.query))
        viewController.moviesList.pageLink = { [searchPath = viewController.searchPath, query = data.query] page in
            MovieListData.url(path: searchPath, query: query, page: page)
        }
        // The table reads its window again: new movies in view get a row, movies gone lose theirs, changed ones
        // shown are configured again; a change out of view sends nothing.
        let isNewSearch = shownQuery != nil && shownQuery != data.query
        shownQuery = data.query
        dataSource.reloadData(count: data.total, reloading: data.changed, fromTop: isNewSearch)
    }
}
