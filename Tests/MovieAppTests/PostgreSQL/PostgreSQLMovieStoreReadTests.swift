import Foundation
import TestSupport
import Testing

@testable import MovieApp

/// A PostgreSQL store's reads: answered from memory, never stale once a change's notification is received, and run
/// side by side on a pool of connections that replaces a lost one.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
struct PostgreSQLMovieStoreReadTests {
    let folder: TemporaryFolder
    let url: String

    init() throws {
        folder = try TemporaryFolder()
        url = try PostgreSQLTestServer.makeDatabase()
    }

    /// Spins, without sleeping, until `condition` holds (or a deadline passes, so a broken store fails the test
    /// instead of hanging it): the read that follows comes as soon after the notification as a thread can make it.
    private func spin(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            sched_yield()
        }
        return true
    }

    @Test func aChangeOnAnotherInstanceIsNeverReadStaleOnceItsNotificationIsReceived() throws {
        let writer = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let reader = try PostgreSQLMovieStore(url: url)
        #expect(try reader.movie(id: 2) == sampleMovies()[1])
        let hitsBefore = reader.cache.statistics.hits
        #expect(try reader.movie(id: 2) == sampleMovies()[1])
        #expect(reader.cache.statistics.hits == hitsBefore + 1, "the second read comes from memory")
        for round in 1...20 {
            let received = reader.statistics.notifications
            let updated = try writer.update(id: 2, with: MoviePatch(rating: Double(round) / 4))
            #expect(spin { reader.statistics.notifications > received })
            // From the moment the notification counts as received, no read answers the movie as it was.
            for _ in 1...20 { #expect(try reader.movie(id: 2) == updated) }
        }
        let reads = reader.cache.statistics
        #expect(reads.hits > reads.misses, "the reads after a notification come from memory once it is read again")
    }

    @Test func aReadThatStartedBeforeANotificationNeverKeepsTheOlderRow() {
        let cache = PostgreSQLMovieCache()
        let old = sampleMovies()[0]
        cache.start(publishedVersions: [1: 1])
        let ticket = cache.startRead()
        cache.heard(of: 1, version: 2)
        cache.read(old, version: 1, ticket: ticket)
        #expect(cache.movie(id: 1).movie == nil)
        // The row as the notification announced it is kept, and a late read of the older one does not replace it.
        var renamed = old
        renamed.title = "Renamed"
        cache.read(renamed, version: 2, ticket: cache.startRead())
        cache.read(old, version: 1, ticket: ticket)
        #expect(cache.movie(id: 1).movie == renamed)
    }

    @Test func aReadThatStartedBeforeTheListenerWasLostKeepsNothing() {
        let cache = PostgreSQLMovieCache()
        let movie = sampleMovies()[0]
        let ticket = cache.startRead()
        cache.listenerLost()
        cache.read(movie, version: 1, ticket: cache.startRead())
        #expect(cache.count == 0, "nothing is kept while notifications may be missed")
        cache.listenerBack()
        cache.read(movie, version: 1, ticket: ticket)
        #expect(cache.count == 0)
        cache.read(movie, version: 1, ticket: cache.startRead())
        #expect(cache.movie(id: 1).movie == movie)
    }

    /// Reads from many threads wait on PostgreSQL together, each on a connection of its own, no more than the pool's
    /// size: counted in PostgreSQL, while a table lock holds every one of them.
    @Test func concurrentReadsRunOnSeveralConnectionsAtOnce() throws {
        let store = try PostgreSQLMovieStore(
            url: url, seedingFrom: try folder.catalog(sampleMovies()), connections: 4)
        let address = try #require(PostgreSQLAddress(url))
        let blocker = try PostgreSQLConnection(address)
        try blocker.execute("BEGIN", [], "a test's transaction")
        try blocker.execute("LOCK TABLE movies IN ACCESS EXCLUSIVE MODE", [], "a test's lock")
        let results = TestMutex<[Result<Int, StoreError>]>([])
        let finished = DispatchGroup()
        for _ in 1...6 {
            finished.enter()
            Thread.detachNewThread {
                let result = Result { () throws(StoreError) -> Int in try store.allMovies().count }
                results.withLock { $0.append(result) }
                finished.leave()
            }
        }
        let waiting = { () -> Int in
            let rows = try? PostgreSQLTestServer.execute(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                """, on: url)
            return rows?.first?.first?.flatMap { Int($0) } ?? 0
        }
        #expect(eventually(within: 10) { waiting() == 4 }, "four reads wait in PostgreSQL at once")
        #expect(store.connectionStatistics.inUse == 4)
        try blocker.execute("COMMIT", [], "a test's commit")
        finished.wait()
        #expect(results.withLock { $0.map { try? $0.get() } } == Array(repeating: 3, count: 6))
        #expect(store.connectionStatistics.peakInUse == 4)
        #expect(store.connectionStatistics.opened == 4)
    }

    @Test func aLostQueryConnectionIsReplaced() throws {
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        #expect(try store.allMovies().count == 3)
        let opened = store.connectionStatistics.opened
        let killed = try PostgreSQLTestServer.execute(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'movies' AND pid <> pg_backend_pid()
                AND query NOT LIKE 'LISTEN%'
            """, on: url)
        #expect(killed.count == 1)
        #expect(try store.allMovies().count == 3, "the read runs again on a new connection")
        #expect(store.connectionStatistics.opened == opened + 1)
        let updated = try store.update(id: 1, with: MoviePatch(rating: 6.5))
        #expect(try store.movie(id: 1) == updated)
    }

    /// Rows changed while nothing could tell the store (no notification, or one it cannot have received) are read
    /// anew once the listener has lost its connection and listens again: the cache keeps nothing across it.
    @Test func theListenersReconnectDropsWhatTheCacheKept() throws {
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        #expect(try store.movie(id: 1) == sampleMovies()[0])
        #expect(try store.movie(id: 2) == sampleMovies()[1])
        // Behind the store's back: movie 1 without a new version, movie 2 with one, neither notified.
        try PostgreSQLTestServer.execute("UPDATE movies SET title = 'Behind its back' WHERE id = 1", on: url)
        try PostgreSQLTestServer.execute(
            "UPDATE movies SET title = 'Missed', version = version + 1 WHERE id = 2", on: url)
        #expect(try store.movie(id: 1) == sampleMovies()[0], "no notification: the cache answers")
        let killed = try PostgreSQLTestServer.execute(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%'
            """, on: url)
        #expect(killed.count == 1)
        #expect(eventually(within: 10) { store.statistics.resyncs >= 1 })
        #expect(try store.movie(id: 1)?.title == "Behind its back")
        #expect(try store.movie(id: 2)?.title == "Missed")
    }
}
