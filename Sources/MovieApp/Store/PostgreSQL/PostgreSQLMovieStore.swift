internal import FoundationEssentials
import Primitives
public import Reactive
public import Screenplay

/// A ``MovieStore`` on PostgreSQL, for several `movies` instances sharing one database.
///
/// Every write commits its row, with the movie's `version` increased, and a `NOTIFY movie_changes` carrying
/// `id:version:commit-time` in one transaction. Each store listens on a connection of its own
/// (``PostgreSQLChangeListener``) and hands each change to its open screens through the same change feed as the
/// SQLite store, so an update on any instance reaches the screens of all of them. A change is published once per
/// version, newest winning: a notification that arrives twice, late or out of order changes nothing; the writing
/// instance publishes its own change at once, before its notification comes back. When the listening connection is
/// lost the store reconnects, listens again and resyncs by reading every movie's version, so no change is missed.
///
/// Queries run on a pool of connections (``PostgreSQLConnectionPool``, `connections` of them at most, made when
/// needed), so reads from several threads do not wait for each other's round trips; a lost connection is replaced by
/// the next query, and a read that found its connection lost runs once more on a new one. Movies read are kept
/// (``PostgreSQLMovieCache``) and answered from memory, exact: the store's own commits update them, and every
/// notification drops an older one before it counts as received, so once an instance has received the notification
/// of a change it never answers the movie as it was before; while the listener is down, and when it is back, the
/// cache is emptied (it may have missed notifications). While
/// PostgreSQL is unreachable every method throws ``StoreError`` of kind ``StoreError/Kind/unavailable`` (the API
/// answers 503, `/readyz` fails) and a write leaves nothing half-written (its transaction rolls back). Messages name
/// the host and user, never the password.
///
/// ```swift
/// let store = try PostgreSQLMovieStore(url: "postgresql://movies@db/movies", seedingFrom: "Catalog/movies.json")
/// ```
public final class PostgreSQLMovieStore: MovieStore {
    /// The schema version this program writes (the SQLite store records the same number).
    static let schemaVersion = 2
    private static let columns = "id, title, year, runtime_minutes, genres, rating, overview, tips, poster_url, version"
    static let channel = "movie_changes"

    /// Where the store connects (host and user; the password never shows).
    public var location: String { address.description }
    /// Counts of what the listener did, for `/metrics`.
    public let statistics = PostgreSQLStoreStatistics()

    /// The pool's size when none is given: the I/O threads' reads, the listener's and a few writes side by side.
    public static let defaultConnections = 4

    private let address: PostgreSQLAddress
    private let pool: PostgreSQLConnectionPool
    /// Resumable uploads, in the database every instance shares.
    private let uploads: PostgreSQLUploadStorage
    private let feed = MovieChangeFeed()
    private let catalogFeed = CatalogChangeFeed()
    let cache = PostgreSQLMovieCache()
    private let logger: Logger?
    private let listener: Locked<PostgreSQLChangeListener?> = Locked(nil)

    /// Connects to `url` (`postgresql://user:password@host:port/database`, or `?host=/socket/folder`), creates the
    /// schema and seeds it from `catalogPath` when it holds no movie, and starts listening for changes. Queries use
    /// at most `connections` connections at once (at least one), besides the listener's.
    ///
    /// - Throws: ``StoreError`` when PostgreSQL cannot be reached or refuses the credentials (naming host and user),
    ///   the schema is newer than this program, or the catalog is invalid.
    public init(
        url: String, seedingFrom catalogPath: String? = nil, connections: Int = defaultConnections,
        logger: Logger? = nil
    ) throws(StoreError) {
        guard let address = PostgreSQLAddress(url) else {
            throw StoreError(.unavailable, message: "not a postgresql:// URL")
        }
        self.address = address
        self.logger = logger
        let first = try PostgreSQLConnection(address)
        try Self.prepare(first, seedingFrom: catalogPath)
        let known = try first.execute("SELECT id, version FROM movies", [], "reading the versions")
        var versions: [Int: Int] = [:]
        for row in known {
            if let id = row[0].flatMap(Int.init), let v = row[1].flatMap(Int.init) { versions[id] = v }
        }
        cache.start(publishedVersions: versions)
        pool = PostgreSQLConnectionPool(address: address, size: connections, first: first)
        uploads = PostgreSQLUploadStorage(pool: pool)
        let listener = PostgreSQLChangeListener(
            address: address, channel: Self.channel,
            onNotification: { [weak self] payload in self?.received(payload) },
            onReconnect: { [weak self] in
                self?.cache.listenerBack()
                self?.resync()
            },
            onLoss: { [weak self] error in
                self?.cache.listenerLost()
                self?.logger?.log(.warning, "store.listener_lost", ["store": address.description, "error": "\(error)"])
            })
        try listener.start()
        self.listener.withLock { $0 = listener }
    }

    deinit {
        listener.withLock { $0 }?.stop()
    }

    /// Uploads in the `uploads` and `upload_chunks` tables, so that one started on any instance resumes on any other.
    public var uploadStorage: (any UploadStorage)? { uploads }

    /// Messages between the instances on this database, over `NOTIFY` (``PostgreSQLInstanceMessenger``).
    public func instanceMessenger() -> (any InstanceMessenger)? {
        PostgreSQLInstanceMessenger(address: address, pool: pool, logger: logger)
    }

    /// Stops listening (and so holding a connection) for changes; queries still work after.
    public func close() {
        listener.withLock { $0 }?.stop()
    }

    /// Creates the schema and seeds the movies in one transaction, under an advisory lock, so instances starting
    /// together create and seed once.
    private static func prepare(_ connection: PostgreSQLConnection, seedingFrom catalogPath: String?) throws(StoreError)
    {
        try connection.inTransaction { () throws(StoreError) in
            try connection.execute("SELECT pg_advisory_xact_lock(7268351)", [], "locking the schema")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS screenplay_schema (version integer NOT NULL)", [], "creating the schema")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS settings (name text PRIMARY KEY, value text NOT NULL)", [],
                "creating the schema")
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS movies (
                    id integer PRIMARY KEY,
                    title text NOT NULL,
                    year integer NOT NULL,
                    runtime_minutes integer NOT NULL,
                    genres text NOT NULL,
                    rating double precision NOT NULL,
                    overview text NOT NULL,
                    tips text NOT NULL,
                    poster_url text,
                    version bigint NOT NULL DEFAULT 1
                )
                """, [], "creating the schema")
            // Version 2: lists read pages by range in title order (by code point, as SQLite compares).
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS movies_by_title ON movies (title COLLATE \"C\", id)", [],
                "creating the title index")
            try PostgreSQLUploadStorage.createTables(on: connection)
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS movie_posters (
                    key text PRIMARY KEY, movie_id integer NOT NULL, kind text NOT NULL, bytes bytea NOT NULL
                )
                """, [], "creating the schema")
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS movie_posters_by_movie ON movie_posters (movie_id)", [],
                "creating the posters' index")
            try connection.execute(
                "DELETE FROM movie_posters WHERE movie_id NOT IN (SELECT id FROM movies)", [],
                "removing the posters of deleted movies")
            let found = try connection.execute("SELECT max(version) FROM screenplay_schema", [], "reading the schema")
            let version = Self.firstInteger(found) ?? 0
            guard version <= schemaVersion else {
                throw StoreError(
                    .unavailable, message: "the database has schema version \(version), newer than this program's")
            }
            if version < schemaVersion {
                try connection.execute("DELETE FROM screenplay_schema", [], "recording the schema version")
                try connection.execute(
                    "INSERT INTO screenplay_schema (version) VALUES ($1)", [String(schemaVersion)],
                    "recording the schema version")
            }
            let count = try connection.execute("SELECT count(*) FROM movies", [], "counting the movies")
            guard Self.firstInteger(count) == 0, let catalogPath else { return }
            for movie in try MovieCatalog.load(from: catalogPath) {
                try connection.execute(
                    "INSERT INTO movies (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)",
                    try values(of: movie), "seeding movie \(movie.id)")
            }
        }
    }

    /// Every movie, read from the database (on a connection of the pool's); the rows read fill the cache.
    public func allMovies() throws(StoreError) -> [Movie] {
        let ticket = cache.startRead()
        let rows = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
            try connection.execute("SELECT \(Self.columns) FROM movies ORDER BY id", [], "reading the movies")
        }
        return try rows.map { row throws(StoreError) in
            let movie = try Self.movie(from: row)
            cache.read(movie, version: row[9].flatMap(Int.init) ?? 0, ticket: ticket)
            return movie
        }
    }

    /// The search of `query` as SQL: `$1` the search, `$2` its `LIKE` pattern in ASCII lower case, matched against
    /// title and genres with ASCII letters lowered (what SQLite's `LIKE` ignores, and only that).
    private static let searchCondition = """
        $1 = '' OR translate(title, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') LIKE $2
            OR translate(genres, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') LIKE $2
        """

    /// A page of `query`: `OFFSET`/`LIMIT` over the `movies_by_title` index; the rows read fill the cache.
    public func movies(matching query: MovieQuery, from offset: Int, count: Int) throws(StoreError) -> [Movie] {
        guard count > 0 else { return [] }
        let ticket = cache.startRead()
        let rows = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
            try connection.execute(
                """
                SELECT \(Self.columns) FROM movies WHERE \(Self.searchCondition)
                ORDER BY title COLLATE "C", id OFFSET $3 LIMIT $4
                """, [query.search, query.likePattern.lowercasedASCII, String(max(0, offset)), String(count)],
                "reading a page of movies")
        }
        return try rows.map { row throws(StoreError) in
            let movie = try Self.movie(from: row)
            cache.read(movie, version: row[9].flatMap(Int.init) ?? 0, ticket: ticket)
            return movie
        }
    }

    /// How many movies `query` has, or has before `movie` (a range of the title index).
    public func count(of query: MovieQuery, before movie: Movie?) throws(StoreError) -> Int {
        var parameters: [String?] = [query.search, query.likePattern.lowercasedASCII]
        if let movie { parameters += [movie.title, String(movie.id)] }
        let rows = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
            try connection.execute(
                "SELECT count(*) FROM movies WHERE (\(Self.searchCondition))"
                    + (movie == nil ? "" : #" AND (title COLLATE "C", id) < ($3 COLLATE "C", $4::integer)"#),
                parameters, "counting movies")
        }
        return Self.firstInteger(rows) ?? 0
    }

    /// The movie from the cache, or read from the database and kept.
    public func movie(id: Int) throws(StoreError) -> Movie? {
        let (cached, ticket) = cache.movie(id: id)
        if let cached { return cached }
        guard let (movie, version) = try readMovie(id: id) else { return nil }
        cache.read(movie, version: version, ticket: ticket)
        return movie
    }

    public func update(id: Int, with patch: MoviePatch) throws(StoreError) -> Movie {
        try update(id: id, with: patch, expected: nil)
    }

    public func update(id: Int, with patch: MoviePatch, ifUnchangedSince expected: Movie) throws(StoreError) -> Movie {
        try update(id: id, with: patch, expected: expected)
    }

    private func update(id: Int, with patch: MoviePatch, expected: Movie?) throws(StoreError) -> Movie {
        if patch.isEmpty && expected == nil {
            guard let movie = try movie(id: id) else { throw .movieNotFound(id) }
            return movie
        }
        // The row locked for the write is the newest committed: it refreshes the cache even when nothing is written,
        // so a save refused because another instance changed the movie is followed by reads of that change.
        let ticket = cache.startRead()
        let result = try pool.withConnection { connection throws(StoreError) -> (Movie, version: Int, isNew: Bool) in
            try connection.inTransaction { () throws(StoreError) -> (Movie, version: Int, isNew: Bool) in
                guard let current = try Self.movie(id: id, in: connection, forUpdate: true) else {
                    throw .movieNotFound(id)
                }
                cache.read(current.movie, version: current.version, ticket: ticket)
                if let expected, current.movie != expected { throw .changedMeanwhile(id) }
                let updated = patch.applied(to: current.movie)
                guard updated != current.movie else { return (current.movie, current.version, false) }
                var parameters = try Self.values(of: updated)
                parameters.append(Self.channel)
                let rows = try connection.execute(
                    """
                    WITH written AS (
                        UPDATE movies SET title = $2, year = $3, runtime_minutes = $4, genres = $5, rating = $6,
                            overview = $7, tips = $8, poster_url = $9, version = version + 1
                        WHERE id = $1 RETURNING id, version
                    )
                    SELECT version, pg_notify($10, id || ':' || version || ':'
                        || (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) FROM written
                    """, parameters, "updating movie \(id)")
                guard let version = Self.firstInteger(rows) else {
                    throw StoreError(.unavailable, message: "updating movie \(id): no version came back")
                }
                return (updated, version, true)
            }
        }
        let (movie, version, isNew) = result
        guard isNew else { return movie }
        // Taken after the commit, as a receiving instance's is (the commit's clock time, in the notification).
        publish(movie, version: version, committedAt: Date())
        return movie
    }

    /// Inserts the movie in one transaction with its `NOTIFY`, under an id above every id given or seeded (the
    /// highest is kept in the `settings` table; an advisory lock makes instances creating at once take turns).
    public func create(_ draft: MovieDraft) throws(StoreError) -> Movie {
        let movie = try pool.withConnection { connection throws(StoreError) -> Movie in
            try connection.inTransaction { () throws(StoreError) -> Movie in
                try connection.execute("SELECT pg_advisory_xact_lock(7268352)", [], "locking the movie ids")
                let last = try connection.execute(
                    """
                    SELECT greatest(coalesce((SELECT max(id) FROM movies), 0),
                        coalesce((SELECT value::bigint FROM settings WHERE name = 'last_movie_id'), 0))
                    """, [], "choosing a movie id")
                let movie = draft.movie(id: (Self.firstInteger(last) ?? 0) + 1)
                try connection.execute(
                    "INSERT INTO movies (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)",
                    try Self.values(of: movie), "creating movie \(movie.id)")
                try Self.recordLastID(movie.id, on: connection)
                try Self.notify("\(movie.id):1", on: connection)
                return movie
            }
        }
        publish(movie, version: 1, committedAt: Date())
        return movie
    }

    /// Deletes the movie in one transaction with its `NOTIFY`; its id stays taken.
    public func delete(id: Int) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            try connection.inTransaction { () throws(StoreError) in
                let rows = try connection.execute(
                    "DELETE FROM movies WHERE id = $1 RETURNING version", [String(id)], "deleting movie \(id)")
                guard let version = Self.firstInteger(rows) else { throw .movieNotFound(id) }
                try Self.dropPosters(of: id, but: nil, on: connection)
                try Self.recordLastID(id, on: connection)
                try Self.notify("\(id):\(version + 1)", kind: "deleted", on: connection)
            }
        }
        publishDeletion(of: id)
    }

    /// Removes movie `id`'s kept posters but the one `posterUrl` names (all of them for `nil` or another address):
    /// a movie keeps the bytes of the poster it shows, no other.
    private static func dropPosters(of id: Int, but posterUrl: String?, on connection: PostgreSQLConnection)
        throws(StoreError)
    {
        try connection.execute(
            "DELETE FROM movie_posters WHERE movie_id = $1 AND '\(postersPath)' || key IS DISTINCT FROM $2",
            [String(id), posterUrl], "removing movie \(id)'s earlier posters")
    }

    /// Keeps `id` as the highest id given, unless a higher one is kept.
    private static func recordLastID(_ id: Int, on connection: PostgreSQLConnection) throws(StoreError) {
        try connection.execute(
            """
            INSERT INTO settings (name, value) VALUES ('last_movie_id', $1)
            ON CONFLICT (name) DO UPDATE SET value = greatest(settings.value::bigint, excluded.value::bigint)::text
            """, [String(id)], "keeping the last movie id")
    }

    /// Sends `id:version:commit-micros`, then `:kind` if given, on the change channel when the transaction commits.
    private static func notify(_ idAndVersion: String, kind: String? = nil, on connection: PostgreSQLConnection)
        throws(StoreError)
    {
        try connection.execute(
            """
            SELECT pg_notify($1::text,
                $2::text || ':' || (extract(epoch FROM clock_timestamp()) * 1000000)::bigint || $3::text)
            """, [channel, idAndVersion, kind.map { ":" + $0 } ?? ""], "notifying the change")
    }

    /// Every change committed on any instance sharing the database, as this one hears of it (its own at once,
    /// others' when their notification arrives, or at a resync). See ``MovieStore/catalogChanges()``.
    public func catalogChanges() -> Observable<CatalogChange> {
        catalogFeed.changes()
    }

    /// Movie `id`'s deletion, followed by that movie alone. See ``MovieStore/deletion(of:)``.
    public func deletion(of id: Int) -> Observable<Void> {
        catalogFeed.deletion(of: id)
    }

    public func changes(of id: Int) -> Observable<Movie> {
        feed.changes(of: id)
    }

    /// Movie `id`'s changes, then `nil` once it is deleted (here or on another instance), from the one feed (so in
    /// commit order), pausable as ``changes(of:)``. See ``MovieStore/changesAndDeletion(of:)``.
    public func changesAndDeletion(of id: Int) -> Observable<Movie?> {
        feed.changesAndDeletion(of: id)
    }

    /// The sign-in key kept in the database's `settings` table, made the first time any instance asks for it.
    ///
    /// An insert that does nothing when a key is there, then a read: of instances asking at once, the inserts after
    /// the first wait for its commit and do nothing, so all of them read the one key committed.
    public func signInKey() throws(StoreError) -> String {
        try pool.withConnection { connection throws(StoreError) in
            try connection.execute(
                "INSERT INTO settings (name, value) VALUES ('signin_key', $1) ON CONFLICT (name) DO NOTHING",
                [SignInKey.make()], "keeping the sign-in key")
            let rows = try connection.execute(
                "SELECT value FROM settings WHERE name = 'signin_key'", [], "reading the sign-in key")
            guard let key = rows.first?.first ?? nil else {
                throw StoreError(.unavailable, message: "the sign-in key was not kept")
            }
            return key
        }
    }

    /// `movies_store_info{kind="postgresql"} 1`, what the change listener did, the cache's hits and misses and the
    /// connections made.
    public func metricsExposition() -> String {
        let reads = cache.statistics
        var text = "# HELP movies_store_info The store the movies live in.\n# TYPE movies_store_info gauge\n"
        text += "movies_store_info{kind=\"postgresql\"} 1\n" + statistics.exposition()
        text += "# HELP movies_store_reads_total Reads of one movie, answered from memory or from the database.\n"
        text += "# TYPE movies_store_reads_total counter\n"
        text += "movies_store_reads_total{from=\"cache\"} \(reads.hits)\n"
        text += "movies_store_reads_total{from=\"database\"} \(reads.misses)\n"
        text += "# HELP movies_store_connections_opened_total Query connections made (a lost one is replaced).\n"
        text += "# TYPE movies_store_connections_opened_total counter\n"
        text += "movies_store_connections_opened_total \(pool.statistics.opened)\n"
        return text
    }

    /// The query connections' counts: made, lent out now and at most at once.
    var connectionStatistics: PostgreSQLConnectionPool.Statistics { pool.statistics }

    // MARK: Changes from other instances

    /// A notification's payload, `id:version:commit-micros`; one that does not parse is logged and answered with a
    /// resync. The cache drops the movie's older entry before the notification counts as received.
    private func received(_ payload: String) {
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 4 && parts[3] == "deleted"), let id = Int(parts[0]),
            let version = Int(parts[1]), let micros = Int64(parts[2])
        else {
            statistics.notificationReceived()
            logger?.log(.warning, "store.notification_unreadable", ["payload": String(payload.prefix(200))])
            resync()
            return
        }
        if parts.count == 4 {
            publishDeletion(of: id)
            statistics.notificationReceived()
            return
        }
        cache.heard(of: id, version: version)
        statistics.notificationReceived()
        guard cache.isUnpublished(id, version: version) else { return }
        do {
            guard let (movie, current) = try readMovie(id: id) else { return }
            publish(movie, version: current, committedAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        } catch {
            logger?.log(.warning, "store.change_unread", ["movie": String(id), "error": "\(error)"])
        }
    }

    /// Reads every movie's version and publishes those newer than what the screens were given: after the listening
    /// connection was lost, or a notification could not be read.
    private func resync() {
        statistics.resynced()
        // Movies published before the read and absent from it were deleted meanwhile; one created here after this
        // is not among them.
        let known = cache.publishedIDs()
        do {
            let rows = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
                try connection.execute("SELECT \(Self.columns) FROM movies", [], "resyncing")
            }
            var published = 0
            var present = Set<Int>()
            for row in rows {
                let movie = try Self.movie(from: row)
                present.insert(movie.id)
                if publish(movie, version: row[9].flatMap(Int.init) ?? 0, committedAt: nil) { published += 1 }
            }
            for id in known.subtracting(present) where publishDeletion(of: id) { published += 1 }
            logger?.log(.info, "store.resynced", ["store": address.description, "changed": String(published)])
        } catch {
            logger?.log(.warning, "store.resync_failed", ["error": "\(error)"])
        }
    }

    /// Keeps `movie` at `version` in the cache, then publishes it unless a version as new has been published; under
    /// the cache's lock (the feed's `publish` only enqueues), so a late version can never follow a newer one into
    /// the feed, and an observer told of the change reads it.
    @discardableResult
    private func publish(_ movie: Movie, version: Int, committedAt: Date?) -> Bool {
        let statistics = statistics
        return cache.committed(movie, version: version) { isNew in
            feed.publish(movie) {
                if let committedAt { statistics.delivered(after: Date().timeIntervalSince(committedAt)) }
            }
            catalogFeed.publish(isNew ? .inserted(movie) : .updated(movie))
        }
    }

    /// Forgets movie `id` and tells the catalog's observers and the movie's followers it was deleted, once whoever
    /// reports it.
    @discardableResult
    private func publishDeletion(of id: Int) -> Bool {
        cache.deleted(id) {
            catalogFeed.publish(.deleted(id: id))
            feed.publishDeletion(of: id)
        }
    }

    // MARK: Rows

    /// Movie `id` and its version as the database has them now, on a connection of the pool's.
    private func readMovie(id: Int) throws(StoreError) -> (movie: Movie, version: Int)? {
        try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
            try Self.movie(id: id, in: connection)
        }
    }

    /// The first column of the first row, as a number.
    private static func firstInteger(_ rows: [[String?]]) -> Int? {
        rows.first?.first.flatMap { $0 }.flatMap { Int($0) }
    }

    private static func movie(id: Int, in connection: PostgreSQLConnection, forUpdate: Bool = false)
        throws(StoreError) -> (movie: Movie, version: Int)?
    {
        let rows = try connection.execute(
            "SELECT \(columns) FROM movies WHERE id = $1" + (forUpdate ? " FOR UPDATE" : ""), [String(id)],
            "reading movie \(id)")
        guard let row = rows.first else { return nil }
        return (try movie(from: row), row[9].flatMap(Int.init) ?? 0)
    }

    private static func movie(from row: [String?]) throws(StoreError) -> Movie {
        let id = row[0].flatMap(Int.init) ?? 0
        return Movie(
            id: id, title: row[1] ?? "", year: row[2].flatMap(Int.init) ?? 0,
            runtimeMinutes: row[3].flatMap(Int.init) ?? 0,
            genres: try StoredList.list(from: row[4], column: "genres", id: id),
            rating: row[5].flatMap(Double.init) ?? 0, overview: row[6] ?? "",
            tips: try StoredList.list(from: row[7], column: "tips", id: id), posterUrl: row[8])
    }

    private static func values(of movie: Movie) throws(StoreError) -> [String?] {
        [
            String(movie.id), movie.title, String(movie.year), String(movie.runtimeMinutes),
            try StoredList.text(of: movie.genres),
            String(movie.rating), movie.overview, try StoredList.text(of: movie.tips), movie.posterUrl,
        ]
    }
}

/// What a PostgreSQL store's listener did, for `/metrics`.
public final class PostgreSQLStoreStatistics: Sendable {
    private let counts = Locked<(notifications: Int, resyncs: Int, deliveries: [Double])>((0, 0, []))

    func notificationReceived() { counts.withLock { $0.notifications += 1 } }
    func resynced() { counts.withLock { $0.resyncs += 1 } }

    /// Upper bounds, in seconds, of the commit-to-delivery histogram.
    static let buckets: [Double] = [0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5]

    func delivered(after seconds: Double) {
        counts.withLock { counts in
            if counts.deliveries.isEmpty { counts.deliveries = Array(repeating: 0, count: Self.buckets.count + 2) }
            if let index = Self.buckets.firstIndex(where: { seconds <= $0 }) { counts.deliveries[index] += 1 }
            counts.deliveries[Self.buckets.count] += 1
            counts.deliveries[Self.buckets.count + 1] += max(0, seconds)
        }
    }

    /// Notifications received so far.
    public var notifications: Int { counts.withLock { $0.notifications } }
    /// Resyncs done so far.
    public var resyncs: Int { counts.withLock { $0.resyncs } }

    /// The counters in the Prometheus text format.
    public func exposition() -> String {
        let (notifications, resyncs, deliveries) = counts.withLock { $0 }
        var text = "# HELP movies_store_notifications_total Change notifications received from PostgreSQL.\n"
        text += "# TYPE movies_store_notifications_total counter\nmovies_store_notifications_total \(notifications)\n"
        text += "# HELP movies_store_resyncs_total Resyncs of every movie's version (after a lost listener).\n"
        text += "# TYPE movies_store_resyncs_total counter\nmovies_store_resyncs_total \(resyncs)\n"
        let name = "movies_change_delivery_seconds"
        text += "# HELP \(name) From a write's commit to its change handed to every open screen of the movie.\n"
        text += "# TYPE \(name) histogram\n"
        var cumulative = 0.0
        for (index, bound) in Self.buckets.enumerated() {
            cumulative += deliveries.isEmpty ? 0 : deliveries[index]
            text += "\(name)_bucket{le=\"\(bound)\"} \(Int(cumulative))\n"
        }
        let count = deliveries.isEmpty ? 0 : Int(deliveries[Self.buckets.count])
        text += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
        text += "\(name)_sum \(deliveries.isEmpty ? 0 : deliveries[Self.buckets.count + 1])\n\(name)_count \(count)\n"
        return text
    }
}

// MARK: Posters

extension PostgreSQLMovieStore: MoviePosters {
    public func setPoster(id: Int, _ poster: StoredPoster) throws(StoreError) -> Movie {
        let ticket = cache.startRead()
        let result = try pool.withConnection { connection throws(StoreError) -> (Movie, version: Int, isNew: Bool) in
            try connection.inTransaction { () throws(StoreError) -> (Movie, version: Int, isNew: Bool) in
                guard let current = try Self.movie(id: id, in: connection, forUpdate: true) else {
                    throw .movieNotFound(id)
                }
                cache.read(current.movie, version: current.version, ticket: ticket)
                try connection.execute(
                    "INSERT INTO movie_posters (key, movie_id, kind, bytes) VALUES ($1, $2, $3, $4::bytea) "
                        + "ON CONFLICT (key) DO NOTHING",
                    [poster.key, String(id), poster.kind.rawValue, PostgreSQLUploadStorage.hex(poster.bytes)],
                    "keeping movie \(id)'s poster")
                var updated = current.movie
                updated.posterUrl = Self.path(key: poster.key)
                guard updated != current.movie else { return (current.movie, current.version, false) }
                let rows = try connection.execute(
                    """
                    WITH written AS (
                        UPDATE movies SET poster_url = $2, version = version + 1 WHERE id = $1 RETURNING id, version
                    )
                    SELECT version, pg_notify($3, id || ':' || version || ':'
                        || (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) FROM written
                    """, [String(id), updated.posterUrl, Self.channel], "setting movie \(id)'s poster")
                guard let version = Self.firstInteger(rows) else {
                    throw StoreError(.unavailable, message: "setting movie \(id)'s poster: no version came back")
                }
                try Self.dropPosters(of: id, but: updated.posterUrl, on: connection)
                return (updated, version, true)
            }
        }
        let (movie, version, isNew) = result
        if isNew { publish(movie, version: version, committedAt: Date()) }
        return movie
    }

    public func poster(key: String) throws(StoreError) -> StoredPoster? {
        let rows = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
            try connection.execute(
                "SELECT kind, bytes FROM movie_posters WHERE key = $1", [key], "reading a poster")
        }
        guard let row = rows.first, let kind = FileKind(stored: row[0]),
            let bytes = row[1].flatMap(PostgreSQLUploadStorage.decodeHex)
        else { return nil }
        return StoredPoster(key: key, kind: kind, bytes: bytes)
    }
}
