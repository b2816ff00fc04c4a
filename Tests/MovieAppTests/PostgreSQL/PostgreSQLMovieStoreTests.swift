import Foundation
import Reactive
import TestSupport
import Testing

@testable import MovieApp

/// `make test` starts a PostgreSQL cluster for these; without it they are disabled, and with
/// `SCREENPLAY_REQUIRE_POSTGRES=1` that is a failure.
@Suite struct PostgreSQLAvailabilityTests {
    @Test func theClusterIsThereWhenTheRunRequiresIt() {
        guard ProcessInfo.processInfo.environment["SCREENPLAY_REQUIRE_POSTGRES"] == "1" else { return }
        #expect(PostgreSQLTestServer.isAvailable, "make test starts a PostgreSQL cluster: SCREENPLAY_TEST_POSTGRES")
    }
}

@Suite(.enabled(if: PostgreSQLTestServer.isAvailable))
struct PostgreSQLMovieStoreTests {
    let folder: TemporaryFolder
    let url: String

    init() throws {
        folder = try TemporaryFolder()
        url = try PostgreSQLTestServer.makeDatabase()
    }

    @Test func aWriteOnOneInstanceReachesTheScreensOfAnother() throws {
        let writer = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let reader = try PostgreSQLMovieStore(url: url)
        let seen = Recorder<Movie>()
        let subscription = reader.changes(of: 2).subscribe(onNext: { seen.record($0) })
        defer { subscription.dispose() }
        let updated = try writer.update(id: 2, with: MoviePatch(rating: 7.25))
        #expect(seen.wait(for: 1) == [updated])
        #expect(eventually { reader.statistics.notifications >= 1 })
    }

    @Test func recordsItsSchemaVersionAndAMovieVersionThatEachWriteIncreases() throws {
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        #expect(try PostgreSQLTestServer.execute("SELECT version FROM screenplay_schema", on: url) == [["2"]])
        _ = try store.update(id: 1, with: MoviePatch(rating: 1.5))
        _ = try store.update(id: 1, with: MoviePatch(rating: 2.5))
        #expect(try PostgreSQLTestServer.execute("SELECT version FROM movies WHERE id = 1", on: url) == [["3"]])
    }

    @Test func aNotificationThatArrivesTwiceOrLateIsAppliedOnceAndTheNewestWins() throws {
        let writer = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let reader = try PostgreSQLMovieStore(url: url)
        let seen = Recorder<Movie>()
        let subscription = reader.changes(of: 1).subscribe(onNext: { seen.record($0) })
        defer { subscription.dispose() }
        let newest = try writer.update(id: 1, with: MoviePatch(rating: 3.5))
        #expect(seen.wait(for: 1) == [newest])
        // The same version again, and an older one, as a second delivery or a late one would bring them.
        try PostgreSQLTestServer.execute("SELECT pg_notify('movie_changes', '1:2:0')", on: url)
        try PostgreSQLTestServer.execute("SELECT pg_notify('movie_changes', '1:1:0')", on: url)
        #expect(eventually { reader.statistics.notifications >= 3 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(seen.recorded == [newest])
    }

    @Test func aNotificationThatDoesNotParseIsAnsweredWithAResync() throws {
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let seen = Recorder<Movie>()
        let subscription = store.changes(of: 3).subscribe(onNext: { seen.record($0) })
        defer { subscription.dispose() }
        // A write the notification of which is lost (made behind the store's back), then garbage on the channel.
        try PostgreSQLTestServer.execute(
            "UPDATE movies SET rating = 8.5, version = version + 1 WHERE id = 3", on: url)
        try PostgreSQLTestServer.execute("SELECT pg_notify('movie_changes', 'not:a:change:at all')", on: url)
        #expect(seen.wait(for: 1).map(\.rating) == [8.5])
        #expect(store.statistics.resyncs == 1)
    }

    @Test func aLostListeningConnectionReconnectsAndResyncsWhatItMissed() throws {
        let store = try PostgreSQLMovieStore(url: url, seedingFrom: try folder.catalog(sampleMovies()))
        let seen = Recorder<Movie>()
        let subscription = store.changes(of: 2).subscribe(onNext: { seen.record($0) })
        defer { subscription.dispose() }
        let killed = try PostgreSQLTestServer.execute(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%'
            """, on: url)
        #expect(killed.count == 1)
        // Written while the listener is gone: only the resync can bring it. The listener notices the loss, waits
        // its first backoff, connects, listens and reads every movie, all while the suite's other tests and the
        // PostgreSQL server share the machine's cores: once, under such load, nothing came in the usual wait.
        try PostgreSQLTestServer.execute(
            "UPDATE movies SET title = 'Missed', version = version + 1 WHERE id = 2", on: url)
        #expect(seen.wait(for: 1, seconds: 30).map(\.title) == ["Missed"])
        #expect(store.statistics.resyncs >= 1)
    }

    @Test func badCredentialsNameTheHostAndUserNeverThePassword() throws {
        let wrong = url.replacingOccurrences(
            of: #"postgres:[^@]*@"#, with: "postgres:sw0rdf1sh-not-it@", options: .regularExpression)
        #expect(wrong.contains("sw0rdf1sh-not-it"))
        do {
            _ = try PostgreSQLMovieStore(url: wrong)
            Issue.record("a wrong password connected")
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.message.contains("as postgres"))
            #expect(error.message.contains(PostgreSQLTestServer.folder ?? "?"))
            #expect(!error.message.contains("sw0rdf1sh-not-it"))
            #expect(error.message.contains("password authentication failed"))
        }
    }

    @Test func anUnreachableServerIsAClearError() throws {
        do {
            _ = try PostgreSQLMovieStore(url: "postgresql://someone:secret@/movies?host=/nonexistent-folder")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.message.contains("connecting to PostgreSQL at /nonexistent-folder:5432 as someone"))
            #expect(!error.message.contains("secret"))
        }
    }
}
