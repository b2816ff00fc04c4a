import Foundation
import Reactive
import TestSupport
import Testing

@testable import MovieApp

/// Creating and deleting movies, and the catalog change feed, on every kind of store; two stores on one place stand
/// for two instances.
@Suite("MovieStore create and delete")
struct MovieStoreCreateDeleteTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private static func draft(_ title: String = "A New Film, \"quoted\"") throws -> MovieDraft {
        try MovieDraft(
            title: title, year: 2024, runtimeMinutes: 101, genres: ["Drama"], rating: 7.46, overview: "Fresh.",
            tips: ["Watch it."])
    }

    @Test(arguments: StoreKind.available)
    func createsAMovieUnderANewIdAndKeepsItAcrossReopening(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let store = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let created = try store.create(try Self.draft())
        #expect(created.id == 4)
        #expect(created.title == "A New Film, \"quoted\"")
        #expect(created.rating == 7.5)
        #expect(created.posterUrl == nil)
        #expect(try store.movie(id: 4) == created)
        #expect(try kind.open(place).movie(id: 4) == created)
        #expect(try store.allMovies().map(\.id) == [1, 2, 3, 4])
    }

    @Test(arguments: StoreKind.available)
    func deletesAMovieOnceAndNeverGivesItsIdAgain(kind: StoreKind) throws {
        let place = try kind.makePlace(folder)
        let store = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies(1...3)))
        try store.delete(id: 3)
        #expect(try store.movie(id: 3) == nil)
        #expect(try kind.open(place).movie(id: 3) == nil)
        #expect(throws: StoreError.movieNotFound(3)) { try store.delete(id: 3) }
        #expect(throws: StoreError.movieNotFound(3)) { try store.update(id: 3, with: MoviePatch(rating: 1)) }
        #expect(throws: StoreError.movieNotFound(99)) { try store.delete(id: 99) }
        #expect(try store.allMovies().map(\.id) == [1, 2])
        // The highest id was deleted: the next movie still gets a new one, from any store on the place.
        #expect(try kind.open(place).create(try Self.draft()).id == 4)
        #expect(try store.create(try Self.draft()).id == 5)
    }

    @Test(arguments: StoreKind.available)
    func givesDistinctIdsToMoviesCreatedAtOnceOnTwoStores(kind: StoreKind) async throws {
        let place = try kind.makePlace(folder)
        let first = try kind.open(place, seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let second = try kind.open(place)
        let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
            for store in [first, second] {
                group.addTask { try (0..<10).map { _ in try store.create(try Self.draft()).id } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 20)
        #expect(Set(ids) == Set(4...23))
        #expect(try first.allMovies().count == 23)
    }

    @Test(arguments: StoreKind.available)
    func tellsTheCatalogFeedOfEachCommittedCreationUpdateAndDeletionInOrder(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let changes = Recorder<CatalogChange>()
        let deleted = Recorder<Int>()
        let subscriptions = [
            store.catalogChanges().subscribe(onNext: { change in
                // A read when told sees the change.
                if case .deleted(let id) = change, (try? store.movie(id: id)) == nil { deleted.record(id) }
                changes.record(change)
            }),
            store.deletion(of: 2).subscribe(onNext: { deleted.record(-2) }),
        ]
        defer { for subscription in subscriptions { subscription.dispose() } }
        let created = try store.create(try Self.draft())
        _ = try store.update(id: 2, with: MoviePatch(rating: sampleMovies()[1].rating))  // changes nothing
        let updated = try store.update(id: 2, with: MoviePatch(rating: 1.5))
        try store.delete(id: 2)
        #expect(changes.wait(for: 3) == [.inserted(created), .updated(updated), .deleted(id: 2)])
        #expect(Set(deleted.wait(for: 2)) == [2, -2])
    }

    /// A movie's deletion reaches the followers of that movie alone, once each, and completes them; a follower that
    /// disposed of its subscription hears nothing.
    @Test(arguments: StoreKind.available)
    func tellsADeletionToThatMoviesFollowersAloneAndCompletesThem(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let told = Recorder<String>()
        let subscriptions = [
            store.deletion(of: 2).subscribe(onNext: { told.record("2") }, onCompleted: { told.record("2 completed") }),
            store.deletion(of: 2).subscribe(onNext: { told.record("2 again") }),
            store.deletion(of: 3).subscribe(onNext: { told.record("3") }),
        ]
        defer { for subscription in subscriptions { subscription.dispose() } }
        store.deletion(of: 2).subscribe(onNext: { told.record("disposed") }).dispose()
        try store.delete(id: 2)
        #expect(told.wait(for: 3) == ["2", "2 completed", "2 again"])
        // A later deletion, told after the first (one delivery queue): movie 3's follower heard nothing meanwhile.
        let last = store.deletion(of: 1).subscribe(onNext: { told.record("1") })
        defer { last.dispose() }
        try store.delete(id: 1)
        #expect(told.wait(for: 4) == ["2", "2 completed", "2 again", "1"])
    }

    /// A movie's changes and its deletion come in one feed, in commit order: its versions, then `nil` and completion.
    /// ``MovieStore/changes(of:)`` hears the versions alone, and another movie's follower hears nothing.
    @Test(arguments: StoreKind.available)
    func followsAMoviesChangesThenItsDeletionInOneFeed(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let told = Recorder<String>()
        let subscriptions = [
            store.changesAndDeletion(of: 2).subscribe(
                onNext: { told.record($0.map { "2: \($0.rating)" } ?? "2 deleted") },
                onCompleted: { told.record("2 completed") }),
            store.changes(of: 2).subscribe(onNext: { told.record("changes of 2: \($0.rating)") }),
            store.changesAndDeletion(of: 3).subscribe(onNext: { told.record("3: \(String(describing: $0))") }),
        ]
        defer { for subscription in subscriptions { subscription.dispose() } }
        _ = try store.update(id: 2, with: MoviePatch(rating: 1.5))
        #expect(told.wait(for: 2) == ["2: 1.5", "changes of 2: 1.5"])
        try store.delete(id: 2)
        #expect(told.wait(for: 4) == ["2: 1.5", "changes of 2: 1.5", "2 deleted", "2 completed"])
        // Movie 3's follower hears of its own deletion alone, after movie 2's (one delivery queue).
        try store.delete(id: 3)
        #expect(told.wait(for: 5) == ["2: 1.5", "changes of 2: 1.5", "2 deleted", "2 completed", "3: nil"])
    }

    /// A paused follower of a movie is skipped by its deletion; resumed, it is given the deletion before `resume`
    /// returns, and completes.
    @Test(arguments: StoreKind.available)
    func aPausedFollowerIsGivenTheDeletionItMissedWhenItResumes(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let told = Recorder<String>()
        // Subscribed with an observer, the subscription is the source's own (`subscribe(onNext:)` wraps it).
        let subscription = store.changesAndDeletion(of: 2).subscribe(
            AnyObserver<Movie?> { event in
                switch event {
                case .next(let movie): told.record(movie.map { "paused: \($0.rating)" } ?? "paused: deleted")
                case .completed: told.record("paused: completed")
                case .error: told.record("paused: error")
                }
            })
        defer { subscription.dispose() }
        let pausable = try #require(subscription as? any PausableDisposable)
        pausable.pause()
        // A follower that runs tells when the feed has delivered: the paused one, on the same queue, was skipped.
        let running = store.changesAndDeletion(of: 2).subscribe(
            onNext: { told.record($0.map { "running: \($0.rating)" } ?? "running: deleted") })
        defer { running.dispose() }
        _ = try store.update(id: 2, with: MoviePatch(rating: 3.1))
        #expect(told.wait(for: 1) == ["running: 3.1"])
        try store.delete(id: 2)
        #expect(told.wait(for: 2) == ["running: 3.1", "running: deleted"])
        pausable.resume()
        // Before `resume` returns: the deletion, not the version delivered before it.
        #expect(told.recorded == ["running: 3.1", "running: deleted", "paused: deleted", "paused: completed"])
    }

    /// Another instance's creations and deletions reach this one's catalog feed and the deleted movie's followers,
    /// each once (its own notification coming back, or a resync, tells nothing twice).
    @Test(.enabled(if: PostgreSQLTestServer.isAvailable))
    func tellsAnotherInstancesCreationsAndDeletionsOnce() throws {
        let place = try StoreKind.postgresql.makePlace(folder)
        let writer = try StoreKind.postgresql.open(place, seedingFrom: try folder.catalog(sampleMovies(1...3)))
        let reader = try StoreKind.postgresql.open(place)
        #expect(try reader.movie(id: 1) != nil)  // cached: the deletion must drop it
        let changes = Recorder<CatalogChange>()
        let gone = Recorder<Int>()
        let subscriptions = [
            reader.catalogChanges().subscribe(onNext: { changes.record($0) }),
            reader.deletion(of: 1).subscribe(onNext: { gone.record(1) }),
            reader.changesAndDeletion(of: 1).subscribe(onNext: { if $0 == nil { gone.record(2) } }),
        ]
        defer { for subscription in subscriptions { subscription.dispose() } }
        let created = try writer.create(try Self.draft())
        try writer.delete(id: 1)
        #expect(changes.wait(for: 2) == [.inserted(created), .deleted(id: 1)])
        #expect(Set(gone.wait(for: 2)) == [1, 2])
        #expect(try reader.movie(id: 1) == nil)
        #expect(try reader.movie(id: created.id) == created)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(changes.recorded.count == 2)
        #expect(gone.recorded.count == 2)
    }

    @Test
    func refusesInvalidDraftsNamingTheField() throws {
        #expect(throws: MoviePatchError(field: "title", reason: "is required")) {
            try MovieDraft(json: Array(#"{"year": 2000}"#.utf8))
        }
        #expect(throws: MoviePatchError(field: "rating", reason: "must be a number from 0 to 10")) {
            try MovieDraft(
                json: Array(#"{"title": "T", "year": 2000, "runtimeMinutes": 9, "rating": 11, "overview": "O"}"#.utf8))
        }
        let idError = try #require(
            throws: MoviePatchError.self,
            performing: {
                try MovieDraft(
                    json: Array(
                        #"{"id": 7, "title": "T", "year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#
                            .utf8))
            })
        #expect(idError.field == "id")
        let minimal = try MovieDraft(
            json: Array(#"{"title": "T", "year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#.utf8))
        #expect(minimal.genres == [] && minimal.tips == [])
    }
}

/// A store that forwards to a SQLite store but for ``MovieStore/deletion(of:)`` and
/// ``MovieStore/changesAndDeletion(of:)``: it has the protocol's defaults of both.
private struct DefaultFollowingStore: ForwardingMovieStore {
    let base: SQLiteMovieStore
}

@Suite("MovieStore's default changes and deletion")
struct DefaultChangesAndDeletionTests {
    /// The default merges the movie's changes and its deletion, and completes with the deletion.
    @Test func followsAMoviesChangesThenItsDeletion() throws {
        let folder = try TemporaryFolder()
        let store = DefaultFollowingStore(
            base: try SQLiteMovieStore(
                path: folder.path("movies.sqlite"), seedingFrom: try folder.catalog(sampleMovies(1...3))))
        let told = Recorder<String>()
        let subscription = store.changesAndDeletion(of: 2).subscribe(
            onNext: { told.record($0.map { "2: \($0.rating)" } ?? "2 deleted") },
            onCompleted: { told.record("2 completed") })
        defer { subscription.dispose() }
        _ = try store.update(id: 2, with: MoviePatch(rating: 1.5))
        #expect(told.wait(for: 1) == ["2: 1.5"])
        try store.delete(id: 2)
        #expect(told.wait(for: 3) == ["2: 1.5", "2 deleted", "2 completed"])
    }
}
