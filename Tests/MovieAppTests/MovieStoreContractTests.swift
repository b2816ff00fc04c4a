import Foundation
import Reactive
import TestSupport
import Testing

@testable import MovieApp

/// A store to test: SQLite in a temporary file, or PostgreSQL in a database of its own on the test cluster. Two
/// stores opened on the same place stand for two instances sharing one database.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    /// The kinds this run can test: PostgreSQL when `make test` started its cluster.
    static var available: [StoreKind] { PostgreSQLTestServer.isAvailable ? allCases : [.sqlite] }

    /// Whether `read` holds, on a store that reads another store's commit of a moment ago: at once on SQLite (every
    /// read checks the file's data version); on PostgreSQL once the commit's notification has arrived (the reading
    /// instance answers movies it has read from memory until a notification says they changed; the notification's
    /// arrival is what `aChangeOnAnotherInstanceIsNeverReadStaleOnceItsNotificationIsReceived` pins down).
    func seesAnotherInstancesCommit(_ read: () throws -> Bool) throws -> Bool {
        switch self {
        case .sqlite: try read()
        case .postgresql: eventually { (try? read()) == true }
        }
    }

    /// A new, empty place for a database, and a way to open stores on it.
    func makePlace(_ folder: TemporaryFolder) throws -> String {
        switch self {
        case .sqlite: folder.path("movies-\(UUID().uuidString).sqlite")
        case .postgresql: try PostgreSQLTestServer.makeDatabase()
        }
    }

    func open(_ place: String, seedingFrom catalog: String? = nil) throws -> any MovieStore {
        switch self {
        case .sqlite: try SQLiteMovieStore(path: place, seedingFrom: catalog)
        case .postgresql: try PostgreSQLMovieStore(url: place, seedingFrom: catalog)
        }
    }
}

/// The ``MovieStore`` contract, run against every kind of store.
@Suite("MovieStore contract")
struct MovieStoreContractTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test(arguments: StoreKind.available)
    func seedsAnEmptyDatabaseFromTheCatalogOnlyOnce(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let store = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies(1...3), named: "a.json"))
        #expect(try store.allMovies() == sampleMovies(1...3))
        #expect(try store.movie(id: 2) == sampleMovies()[1])
        #expect(try store.movie(id: 99) == nil)
        let reopened = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies(10...14), named: "b.json"))
        #expect(try reopened.allMovies().map(\.id) == [1, 2, 3])
    }

    /// A read until enough hands over the movies in the order asked (nil for an unknown id) and stops where told.
    @Test(arguments: StoreKind.available)
    func readsMoviesInOrderUntilTheReaderHasEnough(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies(1...3)))
        var seen: [Movie?] = []
        try store.movies(ids: [3, 99, 1, 2]) { movie in
            seen.append(movie)
            return seen.count < 3
        }
        #expect(seen == [sampleMovies()[2], nil, sampleMovies()[0]])
    }

    @Test(arguments: StoreKind.available)
    func returnsAndKeepsTheUpdatedMovieAcrossReopening(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let catalog = try folder.catalog(sampleMovies())
        let store = try kind.open(place, seedingFrom: catalog)
        let updated = try store.update(id: 2, with: MoviePatch(title: "Renamed ‘é’ <b>&amp;", rating: 9.9))
        var expected = sampleMovies()[1]
        expected.title = "Renamed ‘é’ <b>&amp;"
        expected.rating = 9.9
        #expect(updated == expected)
        #expect(try store.movie(id: 2) == expected)
        #expect(try kind.open(place).movie(id: 2) == expected)
    }

    /// The edit form's version check: a save that started from an older version of the movie changes nothing.
    @Test(arguments: StoreKind.available)
    func refusesAConditionalUpdateWhenTheMovieChangedSinceAndChangesNothing(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let store = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies()))
        let original = try #require(try store.movie(id: 1))
        let other = try kind.open(place)
        let theirs = try other.update(id: 1, with: MoviePatch(title: "Theirs"))
        #expect(throws: StoreError.changedMeanwhile(1)) {
            try store.update(id: 1, with: MoviePatch(title: "Mine"), ifUnchangedSince: original)
        }
        #expect(try store.movie(id: 1) == theirs)
        let mine = try store.update(id: 1, with: MoviePatch(title: "Mine"), ifUnchangedSince: theirs)
        #expect(mine.title == "Mine")
        #expect(try kind.seesAnotherInstancesCommit { try other.movie(id: 1)?.title == "Mine" })
    }

    /// Two edit forms opened on the same version and saved at once, on two instances: the check and the write are one
    /// step, so exactly one save wins and the other is told the movie changed, every round.
    @Test(arguments: StoreKind.available)
    func ofTwoConcurrentConditionalUpdatesFromTheSameVersionExactlyOneSucceeds(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let first = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies()))
        let second = try kind.open(place)
        for round in 1...200 {
            let original = try #require(try first.movie(id: 1))
            let outcomes = TestMutex<[String?]>([])
            let stores = [("first", first), ("second", second)]
            DispatchQueue.concurrentPerform(iterations: stores.count) { index in
                let (name, store) = stores[index]
                let title: String?
                do {
                    let patch = try MoviePatch(title: "\(name) \(round)")
                    title = try store.update(id: 1, with: patch, ifUnchangedSince: original).title
                } catch let error as StoreError where error.kind == .conflict {
                    title = nil
                } catch {
                    title = "failed: \(error)"
                }
                outcomes.withLock { $0.append(title) }
            }
            let winners = outcomes.withLock { $0 }.compactMap { $0 }
            #expect(winners.count == 1, "round \(round): \(winners)")
            #expect(try first.movie(id: 1)?.title == winners.first)
            #expect(try second.movie(id: 1)?.title == winners.first)
        }
    }

    /// The sign-in key is made once and kept: a store opened again on the same place, and one opened meanwhile (a
    /// second instance), give the same key.
    @Test(arguments: StoreKind.available)
    func keepsOneSignInKeyForEveryStoreOnThePlace(kind: StoreKind) async throws {
        let place = try kind.makePlace(folder)
        let stores = [try kind.open(place, seedingFrom: try folder.catalog(sampleMovies())), try kind.open(place)]
        // Both ask at once, before any key exists.
        let keys = try await withThrowingTaskGroup(of: String.self) { group in
            for store in stores { group.addTask { try store.signInKey() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        #expect(key.utf8.count >= 32)
        #expect(try kind.open(place).signInKey() == key)
        // Another place has a key of its own.
        #expect(try kind.open(try kind.makePlace(folder), seedingFrom: nil).signInKey() != key)
    }

    @Test(arguments: StoreKind.available)
    func refusesToUpdateAnUnknownMovieAndChangesNothing(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies()))
        #expect(throws: StoreError.movieNotFound(42)) { try store.update(id: 42, with: MoviePatch(rating: 1)) }
        #expect(try store.allMovies() == sampleMovies())
    }

    @Test(arguments: StoreKind.available)
    func keepsEveryFieldWhenTwoInstancesUpdateTheSameMovieAtOnce(kind: StoreKind) async throws {
        let place = try kind.makePlace(folder)
        let first = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies()))
        let second = try kind.open(place)
        let rounds = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...rounds { _ = try first.update(id: 1, with: MoviePatch(title: "Title \(round)")) }
            }
            group.addTask {
                for round in 1...rounds { _ = try second.update(id: 1, with: MoviePatch(runtimeMinutes: round)) }
            }
            try await group.waitForAll()
        }
        // Each store wrote one of the fields last and reads the other's last write from the other instance: both
        // fields' last values, once that commit is seen (a lost update never shows them).
        for store in [first, second] {
            #expect(
                try kind.seesAnotherInstancesCommit {
                    let movie = try store.movie(id: 1)
                    return movie?.title == "Title \(rounds)" && movie?.runtimeMinutes == rounds
                })
            let movie = try #require(try store.movie(id: 1))
            #expect(movie.title == "Title \(rounds)")
            #expect(movie.runtimeMinutes == rounds)
        }
    }

    @Test(arguments: StoreKind.available)
    func deliversOnlyThatMoviesCommittedChangesAndNothingForAPatchThatChangesNothing(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies()))
        let second = Recorder<Movie>()
        let third = Recorder<Movie>()
        let subscriptions = [
            store.changes(of: 2).subscribe(onNext: { second.record($0) }),
            store.changes(of: 3).subscribe(onNext: { third.record($0) }),
        ]
        defer { for subscription in subscriptions { subscription.dispose() } }
        _ = try store.update(id: 2, with: MoviePatch(rating: sampleMovies()[1].rating))
        let updated = try store.update(id: 2, with: MoviePatch(rating: 4.5))
        #expect(second.wait(for: 1) == [updated])
        Thread.sleep(forTimeInterval: 0.1)
        #expect(second.recorded == [updated])
        #expect(third.recorded.isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func letsObserversReadTheStoreAndEndsWithTheLastCommittedStateUnderConcurrentWrites(kind: StoreKind) async throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies()))
        let seen = Recorder<(delivered: Movie, read: Movie?)>()
        let subscription = store.changes(of: 1).subscribe(onNext: { movie in
            seen.record((movie, try? store.movie(id: 1)))
        })
        defer { subscription.dispose() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 1...10 {
                        _ = try store.update(id: 1, with: MoviePatch(year: 2000 + writer * 10 + round))
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(try store.movie(id: 1))
        #expect(eventually { seen.recorded.last?.delivered == final })
        #expect(seen.recorded.allSatisfy { $0.read != nil })
    }
}
