import Primitives

/// The movies a PostgreSQL store has read, kept exact by the store's own commits and the `NOTIFY` feed of every
/// other instance's, and the version of each movie last published to the change feed. Thread-safe.
///
/// Why a cache: a page reads its movie, and one round trip to PostgreSQL a page costs more than the page's
/// rendering (Benchmarks/History/27-postgresql-reads.md). It holds at most one entry a movie of the database.
///
/// Invariants, each kept under one lock:
/// - An entry's version is never older than the newest version this store has heard of for its movie: committed
///   here (``committed(_:version:publish:)``), announced by a notification (``heard(of:version:)``, before the
///   notification counts as received) or read. A notification drops an older entry, so once it is received no read
///   answers the version before it.
/// - A read fills the cache only with the generation it started in (``startRead()``) and a version at least as new
///   as the newest heard of: a read that began before a notification, or before the listener was lost, never stores
///   the older row it read.
/// - While the listener is down notifications may be missed: ``listenerLost()`` empties the cache and reads go to
///   the database until ``listenerBack()`` (which empties it again, since the loss may have been noticed late).
/// - Versions reach the change feed in increasing order, each once, and a movie's entry is updated before its
///   version is published, so an observer that reads the store when told of a change reads that change or a newer.
final class PostgreSQLMovieCache: Sendable {
    /// Where a read started: the generation it may fill.
    struct ReadTicket: Sendable {
        fileprivate let generation: Int
    }

    /// Reads answered from the cache and from the database, for tests and `/metrics`.
    struct Statistics: Sendable, Equatable {
        var hits = 0
        var misses = 0
    }

    private struct State {
        var entries: [Int: (movie: Movie, version: Int)] = [:]
        /// Per movie, the newest version heard of: committed, announced or read.
        var newest: [Int: Int] = [:]
        /// Per movie, the newest version handed to the change feed.
        var published: [Int: Int] = [:]
        /// Changes when the cache is emptied for a lost listener: reads begun before must not fill it.
        var generation = 0
        var isListening = true
        var statistics = Statistics()
    }

    private let state = Locked(State())

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// The movies the cache holds now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Records each movie's version as published: what the screens already have when the store starts.
    func start(publishedVersions versions: [Int: Int]) {
        state.withLock { state in
            state.published.merge(versions) { max($0, $1) }
            state.newest.merge(versions) { max($0, $1) }
        }
    }

    /// The cached movie with `id`, or nil (a miss, counted) when it must be read, with the ticket to fill it with.
    func movie(id: Int) -> (movie: Movie?, ticket: ReadTicket) {
        state.withLock { state in
            if state.isListening, let entry = state.entries[id] {
                state.statistics.hits += 1
                return (entry.movie, ReadTicket(generation: state.generation))
            }
            state.statistics.misses += 1
            return (nil, ReadTicket(generation: state.generation))
        }
    }

    /// A ticket for a read of the database that may fill the cache.
    func startRead() -> ReadTicket {
        state.withLock { ReadTicket(generation: $0.generation) }
    }

    /// Keeps `movie` as read at `version` if nothing newer was heard of since the read started.
    func read(_ movie: Movie, version: Int, ticket: ReadTicket) {
        state.withLock { state in
            guard state.isListening, ticket.generation == state.generation,
                version >= state.newest[movie.id] ?? 0, version > state.entries[movie.id]?.version ?? 0
            else { return }
            state.newest[movie.id] = version
            state.entries[movie.id] = (movie, version)
        }
    }

    /// A notification announced `version` of movie `id`: an older entry is dropped at once, before the row is read.
    func heard(of id: Int, version: Int) {
        state.withLock { state in
            guard version > state.newest[id] ?? 0 else { return }
            state.newest[id] = version
            if let entry = state.entries[id], entry.version < version { state.entries[id] = nil }
        }
    }

    /// Whether `version` of movie `id` is newer than the one the screens were given.
    func isUnpublished(_ id: Int, version: Int) -> Bool {
        state.withLock { version > $0.published[id] ?? 0 }
    }

    /// `movie` at `version` was committed (here or, read after its notification, elsewhere): updates its entry, then,
    /// unless a version as new was published, calls `publish` (which must only enqueue) under the lock, so a late
    /// version can never follow a newer one into the feed. Answers whether it published.
    /// `publish` is told whether the movie is new to this store's screens (no version of it published before: a
    /// creation, here or elsewhere).
    @discardableResult
    func committed(_ movie: Movie, version: Int, publish: (_ isNew: Bool) -> Void) -> Bool {
        state.withLock { state in
            if version >= state.newest[movie.id] ?? 0 {
                state.newest[movie.id] = version
                if state.isListening, version > state.entries[movie.id]?.version ?? 0 {
                    state.entries[movie.id] = (movie, version)
                }
            }
            guard version > state.published[movie.id] ?? 0 else { return false }
            let isNew = state.published[movie.id] == nil
            state.published[movie.id] = version
            publish(isNew)
            return true
        }
    }

    /// Movie `id` was deleted (here or elsewhere): its entry goes, and no version of it is ever kept or published
    /// again. Calls `publish` (which must only enqueue) under the lock the first time it hears of the deletion;
    /// answers whether it did.
    @discardableResult
    func deleted(_ id: Int, publish: () -> Void) -> Bool {
        state.withLock { state in
            state.entries[id] = nil
            state.newest[id] = .max
            guard state.published[id] != .max else { return false }
            state.published[id] = .max
            publish()
            return true
        }
    }

    /// The ids of the movies whose versions were published and that are not known to be deleted: what a resync
    /// checks are still there.
    func publishedIDs() -> Set<Int> {
        state.withLock { state in Set(state.published.compactMap { $0.value == .max ? nil : $0.key }) }
    }

    /// The listener lost its connection: what it misses from now on could make any entry stale.
    func listenerLost() {
        state.withLock { state in
            state.entries = [:]
            state.generation += 1
            state.isListening = false
        }
    }

    /// The listener listens again (before the store resyncs): entries from before are dropped, reads fill anew.
    func listenerBack() {
        state.withLock { state in
            state.entries = [:]
            state.generation += 1
            state.isListening = true
        }
    }
}
