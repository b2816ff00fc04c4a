public import Reactive
public import Screenplay

/// Where the movies live: read them, create, update and delete them, and follow the catalog's changes and each
/// movie's.
///
/// Implementations are thread-safe: any method may be called from any thread at any time. Failures
/// are thrown as ``StoreError`` (``StoreError/Kind/notFound`` for an unknown id on update or delete,
/// ``StoreError/Kind/unavailable`` when the storage fails), never a crash. Every check-then-write is atomic: a
/// conditional update decides and writes in one transaction. ``SQLiteMovieStore`` is the embedded implementation,
/// ``PostgreSQLMovieStore`` the one several instances share. A read sees every commit made through the same store at
/// once; a commit made through another store on the same database, at once on SQLite, and on PostgreSQL once its
/// notification has reached the reading instance (which answers movies it has read from memory). Whatever the app needs of a store is on this protocol,
/// so the app never asks which kind it has.
///
/// ```swift
/// let store = try SQLiteMovieStore(path: ".data/movies.sqlite", seedingFrom: "Catalog/movies.json")
/// let movie = try store.movie(id: 1)
/// let updated = try store.update(id: 1, with: MoviePatch(rating: 9.1))
/// let created = try store.create(MovieDraft(title: "Dune", year: 2021, runtimeMinutes: 155, rating: 8, overview: "…"))
/// try store.delete(id: created.id)
/// store.changes(of: 1)
///     .subscribe(onNext: { movie in print("now rated", movie.rating) })
///     .disposed(by: bag)
/// ```
public protocol MovieStore: Sendable {
    /// Every movie, in ascending id order.
    func allMovies() throws -> [Movie]

    /// The movie with `id`, or `nil` when there is none.
    func movie(id: Int) throws -> Movie?

    /// The movies with these ids, in their order (nil for an id no movie has): for a screen that reads several at
    /// once, a store answers them together (one check of its cache, one lock). The default reads them one at a time.
    func movies(ids: [Int]) throws -> [Movie?]

    /// The movies with these ids, in their order, each handed to `body` (nil for an id no movie has) until `body`
    /// returns false: for a screen that looks through candidates until it has found enough, a store answers all it
    /// looks at together (one check of its cache, one lock), and reads none past the last one `body` takes. `body`
    /// may run under the store's lock: it must not call the store. A read that fails throws; what `body` took before
    /// it stays taken. The default reads them one at a time with ``movie(id:)``.
    func movies(ids: [Int], while body: (Movie?) -> Bool) throws

    /// At most `count` movies of `query`, from place `offset` (0-based) in its order: a list's window, read by range
    /// through the title index, never the whole table into memory. Empty past the end.
    func movies(matching query: MovieQuery, from offset: Int, count: Int) throws -> [Movie]

    /// How many movies `query` has; with `movie`, how many come before it in the query's order (its place, when it
    /// is among them).
    func count(of query: MovieQuery, before movie: Movie?) throws -> Int

    /// Applies `patch` to movie `id` in one transaction and returns the movie as committed.
    ///
    /// Observers of the movie's changes are told after the commit, and only when a field changed.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/notFound`` when no movie has `id`.
    func update(id: Int, with patch: MoviePatch) throws -> Movie

    /// Applies `patch` to movie `id` only if the movie is still `expected` (the version an edit form started from),
    /// in the same transaction as the write: an edit made meanwhile by someone else is never overwritten, and of two
    /// conditional updates from the same version, on any instances, at most one succeeds.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/conflict`` when the movie changed since `expected`.
    func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws -> Movie

    /// Creates a movie from `draft` in one transaction and returns it as committed, with its new id.
    ///
    /// Ids are never reused: a new movie's id is above every id the store has given or seeded, so a link to a deleted
    /// movie never leads to another. Observers of ``catalogChanges()`` are told ``CatalogChange/inserted(_:)`` after
    /// the commit, on every instance sharing the database.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/unavailable`` when the write fails (nothing is created).
    func create(_ draft: MovieDraft) throws -> Movie

    /// Deletes movie `id` in one transaction.
    ///
    /// Observers of ``catalogChanges()`` are told ``CatalogChange/deleted(id:)`` after the commit, on every instance
    /// sharing the database; the movie's followers learn it through ``deletion(of:)``, and ``changes(of:)`` emits
    /// nothing more for it.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/notFound`` when no movie has `id` (nothing changes).
    func delete(id: Int) throws

    /// Every committed creation, update and deletion of a movie, from now on, on this instance or (PostgreSQL) any
    /// instance sharing the database.
    ///
    /// Contract: emits only after the commit (a read at that moment sees it), each change once, a movie's changes in
    /// commit order (updates are not merged: a list places each); it never errors or completes and does not replay:
    /// read the range a list shows first, then follow. Elements arrive on a thread of the store's choosing (hop with a
    /// `Driver` or an `observe(on:)`); disposing the subscription stops delivery.
    func catalogChanges() -> Observable<CatalogChange>

    /// The movie each time a change to movie `id` has been committed, from now on.
    ///
    /// Contract: emits only after the change is committed (a read at that moment sees it), only for
    /// movie `id`, in commit order, and only when a field actually changed. Changes may be merged: when
    /// commits come faster than they are delivered, the versions waiting for delivery are skipped for the
    /// latest (never an older one after a newer, always the last). It never errors or
    /// completes, and it does not replay: read the movie first, then follow its changes. Elements
    /// arrive on a thread of the store's choosing, never the subscriber's screen: hop with a
    /// `Driver` or an `observe(on:)`. Disposing the subscription stops delivery.
    func changes(of id: Int) -> Observable<Movie>

    /// Emits once movie `id` is deleted, then completes: how a screen showing the movie learns that it is gone.
    ///
    /// Contract: as ``catalogChanges()``'s ``CatalogChange/deleted(id:)`` for `id` (after the commit, on every
    /// instance sharing the database, on a thread of the store's choosing). The default filters the catalog's changes;
    /// a store gives each movie's followers their own (every screen of a movie follows its deletion).
    func deletion(of id: Int) -> Observable<Void>

    /// The movie each time a change to movie `id` has been committed, then `nil` once it is deleted, then completion:
    /// what a screen showing the movie follows, in one subscription.
    ///
    /// Contract: its movies as ``changes(of:)``'s (merged when they come faster than they are delivered; a deletion
    /// replaces a version still waiting), its deletion as ``deletion(of:)``'s, in commit order: no change after the
    /// `nil`. It never errors and does not replay. The stores' subscriptions pause as ``changes(of:)``'s do
    /// (``PausableDisposable``): one resumed after the movie was deleted meanwhile is given the `nil` first. The
    /// default merges ``changes(of:)`` and ``deletion(of:)``.
    func changesAndDeletion(of id: Int) -> Observable<Movie?>

    /// The key sign-in cookies are signed with when no `--signin-secret` is given: made at random the first time it
    /// is asked for and kept with the movies, so a restart keeps everyone signed in and every instance on the same
    /// database signs alike.
    ///
    /// Creating it is atomic: instances asking at once all get the same key.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/unavailable`` when the storage fails, or cannot keep a key
    ///   (a read-only database that holds none).
    func signInKey() throws -> String

    /// The store's lines for `/metrics`, in the Prometheus text format: at least `movies_store_info{kind="…"} 1`.
    func metricsExposition() -> String

    /// Stops what the store runs in the background (a listening connection); reads and writes still work after.
    func close()

    /// Where resumable uploads are kept when this store serves several instances, so that an upload started on one
    /// resumes on another (PostgreSQL: chunks in a table); `nil` keeps them in the upload folder (SQLite: one
    /// instance, a restart resumes from the folder).
    var uploadStorage: (any UploadStorage)? { get }
    /// A way for the instances on this store to reach each other's screens (``Application/connectInstances(through:)``),
    /// when it has one (PostgreSQL: `NOTIFY`); `nil` for a store of one instance (SQLite).
    func instanceMessenger() -> (any InstanceMessenger)?
}

extension MovieStore {
    /// How many movies `query` has.
    public func count(of query: MovieQuery) throws -> Int {
        try count(of: query, before: nil)
    }

    /// Emits once movie `id` is deleted, then completes (from the catalog feed, with its contract): how a screen
    /// showing the movie learns that it is gone.
    public func deletion(of id: Int) -> Observable<Void> {
        catalogChanges().filter { $0 == .deleted(id: id) }.map { _ in () }.take(1)
    }

    /// Movie `id`'s changes, then `nil` once it is deleted (``changes(of:)`` merged with ``deletion(of:)``, with their
    /// contracts).
    public func changesAndDeletion(of id: Int) -> Observable<Movie?> {
        Observable.merge(changes(of: id).map { Optional($0) }, deletion(of: id).map { nil })
            .take(while: { $0 != nil }, behavior: .inclusive)
    }

    /// None of its own: uploads go to the upload folder.
    public var uploadStorage: (any UploadStorage)? { nil }

    /// None: one instance.
    public func instanceMessenger() -> (any InstanceMessenger)? { nil }
}

extension MovieStore {
    /// Reads the movies one at a time with ``movie(id:)``.
    public func movies(ids: [Int]) throws -> [Movie?] {
        try ids.map { try movie(id: $0) }
    }

    /// Reads the movies one at a time with ``movie(id:)``, until `body` returns false.
    public func movies(ids: [Int], while body: (Movie?) -> Bool) throws {
        for id in ids where !body(try movie(id: id)) { return }
    }
}
