internal import CSQLite
import FoundationEssentials
import Primitives
public import Reactive
internal import Screenplay

/// The embedded ``MovieStore``: one SQLite database file in WAL mode.
///
/// On first use it creates the file (and its folder), the schema, and seeds the movies from a
/// catalog file when the database is empty; later opens keep what is there. Every write runs in a
/// transaction with prepared statements. One connection is shared behind a lock (`Locked`), so the store is
/// safe from any thread; WAL mode lets other processes read while it writes.
///
/// Change observers (``changes(of:)``) are called after the commit, in commit order, on the
/// store's delivery queue, with no lock held. They see changes made through this object, not those
/// another process writes to the same file.
///
/// The store keeps each movie it has read or written in memory, so that a screen opened on an unchanged
/// movie costs one `PRAGMA data_version` instead of a query and the JSON decoding of its lists.
/// ``update(id:with:)`` replaces the cached movie under the same lock, right after the commit and before
/// the change feed fires; a commit by any other connection (another store object, another process)
/// changes the data version, and the next read drops the whole cache.
///
/// Failures (a read-only or full disk, a corrupt file, a bad catalog) are thrown as ``StoreError``.
///
/// ```swift
/// let store = try SQLiteMovieStore(path: ".data/movies.sqlite", seedingFrom: "Catalog/movies.json")
/// let movies = try store.allMovies()
/// ```
public final class SQLiteMovieStore: MovieStore {
    /// The database file's path, as given.
    public let path: String

    /// The connection and the movies as last committed, under one lock so that a read never sees the
    /// cache and the file disagree.
    private struct Database {
        let connection: SQLiteConnection
        /// Movies as committed when `version` was read.
        var cache = MovieCache()
        /// The connection's data version the cache is valid for: it changes with every commit of another
        /// connection, never with this one's.
        var version: Int?

        mutating func movie(id: Int) throws(StoreError) -> Movie? {
            let current = try connection.dataVersion()
            if current != version {
                cache.removeAll()
                version = current
            } else if let movie = cache[id] {
                return movie
            }
            let movie = try SQLiteMovieStore.movie(id: id, in: connection)
            cache[id] = movie
            return movie
        }

        /// The movies with `ids`, after one check of the data version for all of them.
        mutating func movies(ids: [Int]) throws(StoreError) -> [Movie?] {
            var found: [Movie?] = []
            found.reserveCapacity(ids.count)
            try movies(ids: ids) { movie in
                found.append(movie)
                return true
            }
            return found
        }

        /// The movies with `ids` handed to `body` in order until it returns false, after one check of the data
        /// version for all of them.
        mutating func movies(ids: [Int], while body: (Movie?) -> Bool) throws(StoreError) {
            let current = try connection.dataVersion()
            if current != version {
                cache.removeAll()
                version = current
            }
            for id in ids {
                let movie: Movie?
                if let cached = cache[id] {
                    movie = cached
                } else {
                    movie = try SQLiteMovieStore.movie(id: id, in: connection)
                    cache[id] = movie
                }
                if !body(movie) { return }
            }
        }
    }

    private let database: Locked<Database>
    private let feed = MovieChangeFeed()
    private let catalogFeed = CatalogChangeFeed()

    private static let schemaVersion = 2
    private static let columns = "id, title, year, runtime_minutes, genres, rating, overview, tips, poster_url"

    /// Opens the database at `path`, creating it and its folder when missing, and seeds it from the
    /// catalog at `catalogPath` when it holds no movie.
    ///
    /// - Parameters:
    ///   - path: The database file; `:memory:` for a private in-memory database.
    ///   - catalogPath: A JSON catalog of the form `{"movies": [...]}`, read only when the database
    ///     is empty; `nil` leaves an empty database empty.
    ///   - readOnly: Opens an existing database without ever writing to it: no schema, no seeding,
    ///     and every ``update(id:with:)`` throws. For inspecting a database another process owns.
    ///     A file this process cannot write is opened the same way.
    /// - Throws: ``StoreError`` when the folder or file cannot be created or opened, the schema is
    ///   newer than this program, or the catalog is invalid.
    public init(path: String, seedingFrom catalogPath: String? = nil, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        if !readOnly && path != ":memory:" {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw StoreError(
                    .unavailable, message: "creating the folder \(folder.path): \(systemErrorDescription(error))")
            }
        }
        let connection = try SQLiteConnection(path: path, readOnly: readOnly)
        // A file the process may not write (SQLite then opens it read-only) still serves reads;
        // its updates throw.
        if !readOnly && !connection.isReadOnly {
            try Self.prepare(connection, seedingFrom: catalogPath)
        }
        database = Locked(Database(connection: connection))
    }

    /// Sets WAL mode, creates the schema and seeds an empty database, in one transaction.
    private static func prepare(_ connection: SQLiteConnection, seedingFrom catalogPath: String?) throws(StoreError) {
        let journal = try connection.statement("PRAGMA journal_mode = WAL")
        try journal.reset()
        guard try journal.step(), let mode = journal.text(at: 0), mode == "wal" || mode == "memory" else {
            throw StoreError(.unavailable, message: "the database cannot use write-ahead logging")
        }
        try journal.reset()
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.inTransaction { () throws(StoreError) in
            let version = try connection.statement("PRAGMA user_version")
            try version.reset()
            let found = try version.step() ? version.integer(at: 0) : 0
            try version.reset()
            guard found <= schemaVersion else {
                throw StoreError(
                    .unavailable, message: "the database has schema version \(found), newer than this program's")
            }
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS movies (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    year INTEGER NOT NULL,
                    runtime_minutes INTEGER NOT NULL,
                    genres TEXT NOT NULL,
                    rating REAL NOT NULL,
                    overview TEXT NOT NULL,
                    tips TEXT NOT NULL,
                    poster_url TEXT
                ) STRICT;
                CREATE TABLE IF NOT EXISTS settings (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) STRICT;
                CREATE TABLE IF NOT EXISTS movie_posters (
                    key TEXT PRIMARY KEY,
                    movie_id INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    bytes BLOB NOT NULL
                ) STRICT;
                CREATE INDEX IF NOT EXISTS movies_by_title ON movies (title, id);
                CREATE INDEX IF NOT EXISTS movie_posters_by_movie ON movie_posters (movie_id);
                DELETE FROM movie_posters WHERE movie_id NOT IN (SELECT id FROM movies);
                PRAGMA user_version = \(schemaVersion);
                """)
            let count = try connection.statement("SELECT count(*) FROM movies")
            try count.reset()
            let isEmpty = try count.step() && count.integer(at: 0) == 0
            try count.reset()
            guard isEmpty, let catalogPath else { return }
            for movie in try MovieCatalog.load(from: catalogPath) {
                let insert = try connection.statement(
                    "INSERT INTO movies (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
                try insert.reset(binding: try values(of: movie))
                _ = try insert.step()
            }
        }
    }

    /// Every movie, in ascending id order.
    ///
    /// - Throws: ``StoreError`` when the database cannot be read.
    public func allMovies() throws(StoreError) -> [Movie] {
        try database.withLock { database throws(StoreError) in
            let connection = database.connection
            let select = try connection.statement("SELECT \(Self.columns) FROM movies ORDER BY id")
            try select.reset()
            defer { try? select.reset() }
            var movies: [Movie] = []
            while try select.step() {
                movies.append(try Self.movie(from: select))
            }
            return movies
        }
    }

    /// A page of `query`: `LIMIT`/`OFFSET` over the `movies_by_title` index (title, id), the search a `LIKE` on
    /// title and genres (ASCII case ignored) checked as the index is walked.
    ///
    /// - Throws: ``StoreError`` when the database cannot be read.
    public func movies(matching query: MovieQuery, from offset: Int, count: Int) throws(StoreError) -> [Movie] {
        guard count > 0 else { return [] }
        return try database.withLock { database throws(StoreError) in
            let select = try database.connection.statement(
                """
                SELECT \(Self.columns) FROM movies
                WHERE ?1 = '' OR title LIKE ?2 ESCAPE '\\' OR genres LIKE ?2 ESCAPE '\\'
                ORDER BY title, id LIMIT ?3 OFFSET ?4
                """)
            try select.reset(binding: [
                .text(query.search), .text(query.likePattern), .integer(count), .integer(max(0, offset)),
            ])
            defer { try? select.reset() }
            var movies: [Movie] = []
            movies.reserveCapacity(min(count, 1000))
            while try select.step() {
                movies.append(try Self.movie(from: select))
            }
            return movies
        }
    }

    /// How many movies `query` has (or has before `movie`, a range of the title index): the table's count, or the
    /// matches of a walk over the index.
    ///
    /// - Throws: ``StoreError`` when the database cannot be read.
    public func count(of query: MovieQuery, before movie: Movie?) throws(StoreError) -> Int {
        try database.withLock { database throws(StoreError) in
            let select = try database.connection.statement(
                """
                SELECT count(*) FROM movies
                WHERE (?1 = '' OR title LIKE ?2 ESCAPE '\\' OR genres LIKE ?2 ESCAPE '\\')
                """ + (movie == nil ? "" : " AND (title, id) < (?3, ?4)"))
            var values: [SQLiteValue] = [.text(query.search), .text(query.likePattern)]
            if let movie { values += [.text(movie.title), .integer(movie.id)] }
            try select.reset(binding: values)
            defer { try? select.reset() }
            return try select.step() ? select.integer(at: 0) : 0
        }
    }

    /// The movie with `id`, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError`` when the database cannot be read.
    public func movie(id: Int) throws(StoreError) -> Movie? {
        try database.withLock { database throws(StoreError) in try database.movie(id: id) }
    }

    /// The movies with `ids` under one lock and one `PRAGMA data_version`, which each ``movie(id:)`` pays for itself
    /// (most of a cached read's cost: Benchmarks/History/34).
    public func movies(ids: [Int]) throws(StoreError) -> [Movie?] {
        try database.withLock { database throws(StoreError) in try database.movies(ids: ids) }
    }

    /// The movies with `ids`, handed to `body` until it returns false, under one lock and one `PRAGMA data_version`
    /// however many it takes (Benchmarks/History/44).
    public func movies(ids: [Int], while body: (Movie?) -> Bool) throws(StoreError) {
        try database.withLock { database throws(StoreError) in try database.movies(ids: ids, while: body) }
    }

    /// Applies `patch` to movie `id` in one transaction and returns the movie as committed.
    ///
    /// A patch that changes nothing writes nothing and notifies no one.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/notFound`` for an unknown id, of kind
    ///   ``StoreError/Kind/unavailable`` when the write fails (the transaction is then rolled back).
    public func update(id: Int, with patch: MoviePatch) throws(StoreError) -> Movie {
        try update(id: id, with: patch, expected: nil)
    }

    public func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws(StoreError) -> Movie {
        try update(id: id, with: patch, expected: expected)
    }

    private func update(id: Int, with patch: MoviePatch, expected: Movie?) throws(StoreError) -> Movie {
        try database.withLock { database throws(StoreError) in
            // `{}` is a valid merge patch; answering it needs no write lock (nor a writable file).
            if patch.isEmpty && expected == nil {
                guard let movie = try database.movie(id: id) else { throw .movieNotFound(id) }
                return movie
            }
            let connection = database.connection
            let result: (movie: Movie, changed: Bool)
            do throws(StoreError) {
                result = try connection.inTransaction { () throws(StoreError) in
                    // Read from the file inside the transaction: the write is decided on what is committed.
                    guard let current = try Self.movie(id: id, in: connection) else { throw .movieNotFound(id) }
                    if let expected, current != expected { throw .changedMeanwhile(id) }
                    var updated = patch.applied(to: current)
                    // Read anew, its unchanged text is new strings: the cached movie's, when the same bytes, are
                    // what the open screens show (they then compare each by its storage, not its bytes).
                    if let cached = database.cache[id] { updated = updated.sharingText(with: cached) }
                    guard updated != current else { return (current, false) }
                    let write = try connection.statement(
                        """
                        UPDATE movies SET title = ?2, year = ?3, runtime_minutes = ?4, genres = ?5, rating = ?6,
                            overview = ?7, tips = ?8, poster_url = ?9
                        WHERE id = ?1
                        """)
                    try write.reset(binding: try Self.values(of: updated))
                    _ = try write.step()
                    return (updated, true)
                }
            } catch {
                // Whatever state the failure left, the next read goes to the file.
                database.cache[id] = nil
                throw error
            }
            // The cache follows the commit under the same lock, before any observer hears of it: the next read,
            // from any thread, sees the new movie. (A commit of another connection before this transaction
            // changed the data version: the next read drops the cache anyway.)
            database.cache[id] = result.movie
            // Queued while the lock is held so deliveries follow commit order; delivered after it.
            if result.changed {
                feed.publish(result.movie)
                catalogFeed.publish(.updated(result.movie))
            }
            return result.movie
        }
    }

    /// Inserts the movie in one transaction, under an id above every id given or seeded (the highest is kept in the
    /// `settings` table, so a deleted movie's id is never given again), and returns it.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/unavailable`` when the write fails (nothing is created).
    public func create(_ draft: MovieDraft) throws(StoreError) -> Movie {
        try database.withLock { database throws(StoreError) in
            let connection = database.connection
            let movie = try connection.inTransaction { () throws(StoreError) in
                let last = try connection.statement(
                    """
                    SELECT max(coalesce((SELECT max(id) FROM movies), 0),
                        coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE name = 'last_movie_id'), 0))
                    """)
                try last.reset()
                let id = (try last.step() ? last.integer(at: 0) : 0) + 1
                try last.reset()
                let movie = draft.movie(id: id)
                let insert = try connection.statement(
                    "INSERT INTO movies (\(Self.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
                try insert.reset(binding: try Self.values(of: movie))
                _ = try insert.step()
                try insert.reset()
                try Self.recordLastID(id, in: connection)
                return movie
            }
            database.cache[movie.id] = movie
            catalogFeed.publish(.inserted(movie))
            return movie
        }
    }

    /// Deletes the movie in one transaction; its id stays taken.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/notFound`` for an unknown id, of kind
    ///   ``StoreError/Kind/unavailable`` when the write fails (nothing is deleted).
    public func delete(id: Int) throws(StoreError) {
        try database.withLock { database throws(StoreError) in
            let connection = database.connection
            defer { database.cache[id] = nil }
            try connection.inTransaction { () throws(StoreError) in
                let delete = try connection.statement("DELETE FROM movies WHERE id = ?1 RETURNING id")
                try delete.reset(binding: [.integer(id)])
                let found = try delete.step()
                try delete.reset()
                guard found else { throw .movieNotFound(id) }
                try Self.dropPosters(of: id, but: nil, in: connection)
                try Self.recordLastID(id, in: connection)
            }
            catalogFeed.publish(.deleted(id: id))
            feed.publishDeletion(of: id)
        }
    }

    /// Removes movie `id`'s kept posters but the one `posterUrl` names (all of them for `nil` or another address):
    /// a movie keeps the bytes of the poster it shows, no other.
    private static func dropPosters(of id: Int, but posterUrl: String?, in connection: SQLiteConnection)
        throws(StoreError)
    {
        let drop = try connection.statement(
            "DELETE FROM movie_posters WHERE movie_id = ?1 AND '\(postersPath)' || key IS NOT ?2")
        try drop.reset(binding: [.integer(id), posterUrl.map { .text($0) } ?? .null])
        _ = try drop.step()
        try drop.reset()
    }

    /// Keeps `id` as the highest id given, unless a higher one is kept.
    private static func recordLastID(_ id: Int, in connection: SQLiteConnection) throws(StoreError) {
        let record = try connection.statement(
            """
            INSERT INTO settings (name, value) VALUES ('last_movie_id', ?1)
            ON CONFLICT (name) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
            """)
        try record.reset(binding: [.text(String(id))])
        _ = try record.step()
        try record.reset()
    }

    /// Every change committed through this store, on its catalog delivery queue. See ``MovieStore/catalogChanges()``.
    public func catalogChanges() -> Observable<CatalogChange> {
        catalogFeed.changes()
    }

    /// Movie `id`'s deletion, followed by that movie alone. See ``MovieStore/deletion(of:)``.
    public func deletion(of id: Int) -> Observable<Void> {
        catalogFeed.deletion(of: id)
    }

    /// Changes movie `id` as `change` says (given the connection, inside a transaction, and the movie as committed),
    /// writes the movie it answers, and publishes it: the poster's write path, beside ``update(id:with:)``'s.
    fileprivate func write(
        id: Int, _ change: (SQLiteConnection, Movie) throws(StoreError) -> Movie
    ) throws(StoreError) -> Movie {
        try database.withLock { database throws(StoreError) in
            let connection = database.connection
            let result: (movie: Movie, changed: Bool)
            do throws(StoreError) {
                result = try connection.inTransaction { () throws(StoreError) in
                    guard let current = try Self.movie(id: id, in: connection) else { throw .movieNotFound(id) }
                    let updated = try change(connection, current)
                    guard updated != current else { return (current, false) }
                    let write = try connection.statement("UPDATE movies SET poster_url = ?2 WHERE id = ?1")
                    try write.reset(binding: [.integer(id), updated.posterUrl.map { .text($0) } ?? .null])
                    _ = try write.step()
                    try Self.dropPosters(of: id, but: updated.posterUrl, in: connection)
                    return (updated, true)
                }
            } catch {
                database.cache[id] = nil
                throw error
            }
            database.cache[id] = result.movie
            if result.changed {
                feed.publish(result.movie)
                catalogFeed.publish(.updated(result.movie))
            }
            return result.movie
        }
    }

    /// Runs `body` with the connection, under the store's lock.
    fileprivate func read<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try database.withLock { database throws(StoreError) in try body(database.connection) }
    }

    /// The sign-in key kept in the file's `settings` table, made the first time it is asked for.
    ///
    /// Made in a write transaction (`BEGIN IMMEDIATE`) that inserts unless a key is there and reads what is there, so
    /// processes opening the file at once all get the one key that was committed.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/unavailable`` when the file cannot be read or written, or is
    ///   read-only and holds no key.
    public func signInKey() throws(StoreError) -> String {
        try database.withLock { database throws(StoreError) in
            let connection = database.connection
            if connection.isReadOnly {
                guard let key = try? Self.storedSignInKey(in: connection) else {
                    throw StoreError(
                        .unavailable,
                        message: "the read-only database \(path) holds no sign-in key; give one with --signin-secret")
                }
                return key
            }
            if let key = try Self.storedSignInKey(in: connection) { return key }
            return try connection.inTransaction { () throws(StoreError) in
                let insert = try connection.statement(
                    "INSERT INTO settings (name, value) VALUES ('signin_key', ?1) ON CONFLICT (name) DO NOTHING")
                try insert.reset(binding: [.text(SignInKey.make())])
                _ = try insert.step()
                try insert.reset()
                guard let key = try Self.storedSignInKey(in: connection) else {
                    throw StoreError(.unavailable, message: "the sign-in key was not kept")
                }
                return key
            }
        }
    }

    private static func storedSignInKey(in connection: SQLiteConnection) throws(StoreError) -> String? {
        let select = try connection.statement("SELECT value FROM settings WHERE name = 'signin_key'")
        try select.reset()
        defer { try? select.reset() }
        return try select.step() ? select.text(at: 0) : nil
    }

    /// `movies_store_info{kind="sqlite"} 1`.
    public func metricsExposition() -> String {
        "# HELP movies_store_info The store the movies live in.\n# TYPE movies_store_info gauge\n"
            + "movies_store_info{kind=\"sqlite\"} 1\n"
    }

    /// Nothing runs in the background: the connection stays open for the store's life.
    public func close() {}

    /// The movie after each committed change of movie `id` made through this store.
    ///
    /// Elements arrive on the store's delivery queue, in commit order (versions committed while one waits for
    /// delivery merged into the latest), with no lock held (an observer may read or update the store). See
    /// ``MovieStore/changes(of:)`` for the contract.
    public func changes(of id: Int) -> Observable<Movie> {
        feed.changes(of: id)
    }

    /// How many subscriptions to movie `id`'s changes (``changes(of:)``, ``changesAndDeletion(of:)``) are open now.
    func changeObserverCount(of id: Int) -> Int {
        feed.observerCount(of: id)
    }

    /// Movie `id`'s changes, then `nil` once it is deleted, from the one feed (so in commit order), pausable as
    /// ``changes(of:)``. See ``MovieStore/changesAndDeletion(of:)``.
    public func changesAndDeletion(of id: Int) -> Observable<Movie?> {
        feed.changesAndDeletion(of: id)
    }

    private static func movie(id: Int, in connection: SQLiteConnection) throws(StoreError) -> Movie? {
        let select = try connection.statement("SELECT \(columns) FROM movies WHERE id = ?1")
        try select.reset(binding: [.integer(id)])
        defer { try? select.reset() }
        return try select.step() ? try movie(from: select) : nil
    }

    private static func movie(from row: SQLiteStatement) throws(StoreError) -> Movie {
        let id = row.integer(at: 0)
        return Movie(
            id: id, title: row.text(at: 1) ?? "", year: row.integer(at: 2), runtimeMinutes: row.integer(at: 3),
            genres: try StoredList.list(from: row.text(at: 4), column: "genres", id: id), rating: row.real(at: 5),
            overview: row.text(at: 6) ?? "", tips: try StoredList.list(from: row.text(at: 7), column: "tips", id: id),
            posterUrl: row.text(at: 8))
    }

    private static func values(of movie: Movie) throws(StoreError) -> [SQLiteValue] {
        [
            .integer(movie.id), .text(movie.title), .integer(movie.year), .integer(movie.runtimeMinutes),
            .text(try StoredList.text(of: movie.genres)), .real(movie.rating), .text(movie.overview),
            .text(try StoredList.text(of: movie.tips)),
            movie.posterUrl.map { .text($0) } ?? .null,
        ]
    }
}

// MARK: Posters

extension SQLiteMovieStore: MoviePosters {
    public func setPoster(id: Int, _ poster: StoredPoster) throws(StoreError) -> Movie {
        try write(id: id) { connection, current throws(StoreError) in
            let keep = try connection.statement(
                "INSERT INTO movie_posters (key, movie_id, kind, bytes) VALUES (?1, ?2, ?3, ?4) "
                    + "ON CONFLICT (key) DO NOTHING")
            try keep.reset(binding: [.text(poster.key), .integer(id), .text(poster.kind.rawValue), .blob(poster.bytes)])
            _ = try keep.step()
            var updated = current
            updated.posterUrl = Self.path(key: poster.key)
            return updated
        }
    }

    public func poster(key: String) throws(StoreError) -> StoredPoster? {
        try read { connection throws(StoreError) in
            let select = try connection.statement("SELECT kind, bytes FROM movie_posters WHERE key = ?1")
            try select.reset(binding: [.text(key)])
            guard try select.step(), let kind = FileKind(stored: select.text(at: 0)), let bytes = select.blob(at: 1)
            else { return nil }
            return StoredPoster(key: key, kind: kind, bytes: bytes)
        }
    }
}
