internal import Foundation
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
/// Queries share one connection behind a lock; a lost connection is opened again by the next query. While
/// PostgreSQL is unreachable every method throws ``StoreError`` of kind ``StoreError/Kind/unavailable`` (the API
/// answers 503, `/readyz` fails) and a write leaves nothing half-written (its transaction rolls back). Messages name
/// the host and user, never the password.
///
/// ```swift
/// let store = try PostgreSQLMovieStore(url: "postgresql://movies@db/movies", seedingFrom: "Catalog/movies.json")
/// ```
public final class PostgreSQLMovieStore: MovieStore {
    /// The schema version this program writes (the SQLite store records the same number).
    static let schemaVersion = 1
    private static let columns = "id, title, year, runtime_minutes, genres, rating, overview, tips, poster_url, version"
    static let channel = "movie_changes"

    /// Where the store connects (host and user; the password never shows).
    public var location: String { address.description }
    /// Counts of what the listener did, for `/metrics`.
    public let statistics = PostgreSQLStoreStatistics()

    private let address: PostgreSQLAddress
    private let connection: Locked<PostgreSQLConnection?>
    private let feed = MovieChangeFeed()
    /// Per movie, the newest version published to the feed.
    private let versions = Locked<[Int: Int]>([:])
    private let logger: Logger?
    private let listener: Locked<PostgreSQLChangeListener?> = Locked(nil)

    /// Connects to `url` (`postgresql://user:password@host:port/database`, or `?host=/socket/folder`), creates the
    /// schema and seeds it from `catalogPath` when it holds no movie, and starts listening for changes.
    ///
    /// - Throws: ``StoreError`` when PostgreSQL cannot be reached or refuses the credentials (naming host and user),
    ///   the schema is newer than this program, or the catalog is invalid.
    public init(url: String, seedingFrom catalogPath: String? = nil, logger: Logger? = nil) throws(StoreError) {
        guard let address = PostgreSQLAddress(url) else {
            throw StoreError(.unavailable, message: "not a postgresql:// URL")
        }
        self.address = address
        self.logger = logger
        let first = try PostgreSQLConnection(address)
        try Self.prepare(first, seedingFrom: catalogPath)
        connection = Locked(first)
        let known = try first.execute("SELECT id, version FROM movies", [], "reading the versions")
        versions.withLock { versions in
            for row in known {
                if let id = row[0].flatMap(Int.init), let v = row[1].flatMap(Int.init) { versions[id] = v }
            }
        }
        let listener = PostgreSQLChangeListener(
            address: address, channel: Self.channel,
            onNotification: { [weak self] payload in self?.received(payload) },
            onReconnect: { [weak self] in self?.resync() },
            onLoss: { [weak self] error in
                self?.logger?.log(.warning, "store.listener_lost", ["store": address.description, "error": "\(error)"])
            })
        try listener.start()
        self.listener.withLock { $0 = listener }
    }

    deinit {
        listener.withLock { $0 }?.stop()
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

    public func allMovies() throws(StoreError) -> [Movie] {
        try withConnection { connection throws(StoreError) in
            try connection.execute("SELECT \(Self.columns) FROM movies ORDER BY id", [], "reading the movies")
                .map { row throws(StoreError) in try Self.movie(from: row) }
        }
    }

    public func movie(id: Int) throws(StoreError) -> Movie? {
        try withConnection { connection throws(StoreError) in try Self.movie(id: id, in: connection)?.movie }
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
        let result = try withConnection { connection throws(StoreError) -> (Movie, version: Int)? in
            try connection.inTransaction { () throws(StoreError) -> (Movie, version: Int)? in
                guard let current = try Self.movie(id: id, in: connection, forUpdate: true) else {
                    throw .movieNotFound(id)
                }
                if let expected, current.movie != expected { throw .changedMeanwhile(id) }
                let updated = patch.applied(to: current.movie)
                guard updated != current.movie else { return nil }
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
                return (updated, version)
            }
        }
        guard let (movie, version) = result else {
            guard let movie = try self.movie(id: id) else { throw .movieNotFound(id) }
            return movie
        }
        // Taken after the commit, as a receiving instance's is (the commit's clock time, in the notification).
        publish(movie, version: version, committedAt: Date())
        return movie
    }

    public func changes(of id: Int) -> Observable<Movie> {
        Observable.create { [feed] observer in
            let feedObserver = PostgreSQLFeedObserver(observer: observer)
            let token = feed.observe(id) { movie in feedObserver.observer.onNext(movie) }
            return MovieChangeSubscription(feed: feed, token: token)
        }
    }

    /// The sign-in key kept in the database's `settings` table, made the first time any instance asks for it.
    ///
    /// An insert that does nothing when a key is there, then a read: of instances asking at once, the inserts after
    /// the first wait for its commit and do nothing, so all of them read the one key committed.
    public func signInKey() throws(StoreError) -> String {
        try withConnection { connection throws(StoreError) in
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

    /// `movies_store_info{kind="postgresql"} 1` and what the change listener did.
    public func metricsExposition() -> String {
        "# HELP movies_store_info The store the movies live in.\n# TYPE movies_store_info gauge\n"
            + "movies_store_info{kind=\"postgresql\"} 1\n" + statistics.exposition()
    }

    // MARK: Changes from other instances

    /// A notification's payload, `id:version:commit-micros`; one that does not parse is logged and answered with a
    /// resync.
    private func received(_ payload: String) {
        statistics.notificationReceived()
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let id = Int(parts[0]), let version = Int(parts[1]), let micros = Int64(parts[2])
        else {
            logger?.log(.warning, "store.notification_unreadable", ["payload": String(payload.prefix(200))])
            resync()
            return
        }
        guard version > (versions.withLock { $0[id] } ?? 0) else { return }
        do {
            guard
                let (movie, current) = try withConnection({ connection throws(StoreError) in
                    try Self.movie(id: id, in: connection)
                })
            else { return }
            publish(movie, version: current, committedAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        } catch {
            logger?.log(.warning, "store.change_unread", ["movie": String(id), "error": "\(error)"])
        }
    }

    /// Reads every movie's version and publishes those newer than what the screens were given: after the listening
    /// connection was lost, or a notification could not be read.
    private func resync() {
        statistics.resynced()
        do {
            let rows = try withConnection { connection throws(StoreError) in
                try connection.execute("SELECT \(Self.columns) FROM movies", [], "resyncing")
            }
            var published = 0
            for row in rows {
                let movie = try Self.movie(from: row)
                if publish(movie, version: row[9].flatMap(Int.init) ?? 0, committedAt: nil) { published += 1 }
            }
            logger?.log(.info, "store.resynced", ["store": address.description, "changed": String(published)])
        } catch {
            logger?.log(.warning, "store.resync_failed", ["error": "\(error)"])
        }
    }

    /// Publishes `movie` at `version` unless a version as new has been published; under the versions' lock, so a
    /// late version can never follow a newer one into the feed.
    @discardableResult
    private func publish(_ movie: Movie, version: Int, committedAt: Date?) -> Bool {
        let statistics = statistics
        return versions.withLock { versions in
            guard version > versions[movie.id] ?? 0 else { return false }
            versions[movie.id] = version
            feed.publish(movie) {
                if let committedAt { statistics.delivered(after: Date().timeIntervalSince(committedAt)) }
            }
            return true
        }
    }

    // MARK: Rows

    /// Runs `body` on the query connection, connecting first when there is none; a connection found lost after a
    /// failure is dropped, so the next call connects again.
    private func withConnection<T>(_ body: (PostgreSQLConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.withLock { connection throws(StoreError) in
            if connection?.isConnected != true { connection = try PostgreSQLConnection(address) }
            guard let open = connection else { throw StoreError(.unavailable, message: "no connection") }
            do throws(StoreError) {
                return try body(open)
            } catch {
                if !open.isConnected { connection = nil }
                throw error
            }
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

/// A subscriber of ``PostgreSQLMovieStore/changes(of:)`` as the change feed holds it: called only on the feed's
/// serial delivery queue, one movie at a time (the same contract as the SQLite store's).
private struct PostgreSQLFeedObserver: @unchecked Sendable {
    let observer: AnyObserver<Movie>
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
