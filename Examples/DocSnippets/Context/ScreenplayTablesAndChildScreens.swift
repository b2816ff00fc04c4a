import Screenplay

// The names the snippets of Screenplay's "Table views and child view controllers" use without declaring them: a
// table, a collection view, the table's data source, the movies' titles and identifiers, a binder's view controller
// and driver, a search query and the screen's request, and the child view controller the detail screen adds.

struct ScreenplayTablesAndChildScreensSnippets {
    let moviesTable: TableView
    let similarTable: CollectionView
    let titles: [Int: String]
    let ids: [Int]
    let dataSource: TableViewDiffableDataSource<Int, Int>
    let viewController: ViewController
    let driver: MovieListIntents
    let query: String
    let request: ScreenRequest
}

/// The intents the list's binder calls with an item's identifier.
final class MovieListIntents {
    func open(_ id: Int) {}
    func favorite(_ id: Int) {}
}

/// The "More like this" child of the snippets' detail screen.
final class SimilarMoviesViewController: ViewController {}
