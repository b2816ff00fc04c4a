import Foundation
import MovieApp
import Testing

@Suite("SQLiteMovieStore")
struct SQLiteMovieStoreTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func createsTheFileAndItsFolderAndSeedsFromTheCatalog() throws {
        let path = folder.path("nested/deeper/movies.sqlite")
        let store = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try store.allMovies() == sampleMovies())
        #expect(try store.movie(id: 2) == sampleMovies()[1])
        #expect(try store.movie(id: 99) == nil)
    }

    @Test func seedsOnlyAnEmptyDatabase() throws {
        let path = folder.path("movies.sqlite")
        let first = try folder.catalog(sampleMovies(1...3), named: "first.json")
        let second = try folder.catalog(sampleMovies(10...14), named: "second.json")
        _ = try SQLiteMovieStore(path: path, seedingFrom: first)
        let reopened = try SQLiteMovieStore(path: path, seedingFrom: second)
        #expect(try reopened.allMovies().map(\.id) == [1, 2, 3])
    }

    @Test func keepsChangesAcrossReopening() throws {
        let path = folder.path("movies.sqlite")
        let catalog = try folder.catalog(sampleMovies())
        do {
            let store = try SQLiteMovieStore(path: path, seedingFrom: catalog)
            _ = try store.update(id: 2, with: MoviePatch(title: "Renamed", rating: 9.9))
        }
        let reopened = try SQLiteMovieStore(path: path, seedingFrom: catalog)
        var expected = sampleMovies()[1]
        expected.title = "Renamed"
        expected.rating = 9.9
        #expect(try reopened.movie(id: 2) == expected)
        #expect(try reopened.movie(id: 1) == sampleMovies()[0])
    }

    @Test func leavesADatabaseWithoutCatalogEmpty() throws {
        let store = try SQLiteMovieStore(path: folder.path("empty.sqlite"))
        #expect(try store.allMovies() == [])
    }

    @Test func usesWriteAheadLogging() throws {
        let path = folder.path("movies.sqlite")
        let store = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
        _ = try store.update(id: 1, with: MoviePatch(rating: 1.5))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func returnsAndKeepsTheUpdatedMovie() throws {
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
        let patch = try MoviePatch(json: Array(#"{"genres": ["Comedy", "Crime"], "tips": [], "year": 2020}"#.utf8))
        let updated = try store.update(id: 3, with: patch)
        var expected = sampleMovies()[2]
        expected.genres = ["Comedy", "Crime"]
        expected.tips = []
        expected.year = 2020
        #expect(updated == expected)
        #expect(try store.movie(id: 3) == expected)
        #expect(try store.allMovies().filter { $0.id != 3 } == sampleMovies().filter { $0.id != 3 })
    }

    @Test func keepsTextExactly() throws {
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
        let title = #"<script>alert("x")</script> & 'quotes' — 🎬 e\#u{301}"#
        _ = try store.update(id: 1, with: MoviePatch(title: title, overview: "Two\nlines\tand a tab."))
        #expect(try store.movie(id: 1)?.title == title)
        #expect(try store.movie(id: 1)?.overview == "Two\nlines\tand a tab.")
    }

    @Test func keepsTheNewBytesOfATextEqualToTheOldOnlyByUnicodeEquivalence() throws {
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
        _ = try store.update(id: 1, with: MoviePatch(title: "Caf\u{E9}", genres: ["Caf\u{E9}"]))
        // "é" as one code point, then as "e" and a combining accent: `String` calls them equal, the page does not.
        let updated = try store.update(id: 1, with: MoviePatch(title: "Cafe\u{301}", genres: ["Cafe\u{301}"]))
        let read = try #require(try store.movie(id: 1))
        for movie in [updated, read] {
            #expect(Array(movie.title.utf8) == Array("Cafe\u{301}".utf8))
            #expect(movie.genres.map { Array($0.utf8) } == [Array("Cafe\u{301}".utf8)])
        }
    }

    @Test func refusesToUpdateAnUnknownMovie() throws {
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
        #expect(throws: StoreError(.notFound, message: "no movie has id 42")) {
            _ = try store.update(id: 42, with: MoviePatch(rating: 5))
        }
        #expect(try store.allMovies() == sampleMovies())
    }

    @Test func keepsEveryFieldWhenTwoConnectionsUpdateTheSameMovieAtOnce() async throws {
        // Each update reads the row and writes it whole. Only a transaction that holds the write
        // lock from the read to the commit keeps one connection from overwriting the other's field.
        let path = folder.path("shared.sqlite")
        let first = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
        let second = try SQLiteMovieStore(path: path)
        let rounds = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...rounds { _ = try first.update(id: 1, with: MoviePatch(title: "Title \(round)")) }
            }
            group.addTask {
                for round in 1...rounds {
                    _ = try second.update(id: 1, with: MoviePatch(runtimeMinutes: round))
                }
            }
            try await group.waitForAll()
        }
        for store in [first, second] {
            let movie = try #require(try store.movie(id: 1))
            #expect(movie.title == "Title \(rounds)")
            #expect(movie.runtimeMinutes == rounds)
        }
    }

    @Test func answersReadsFromManyThreadsWhileWriting() async throws {
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0...100 { _ = try store.update(id: 2, with: MoviePatch(rating: Double(round) / 10)) }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 {
                        let movies = try store.allMovies()
                        #expect(movies.count == 3)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.movie(id: 2)?.rating == 10)
    }

    @Test func throwsWhenWritingToADatabaseOpenedReadOnly() throws {
        let path = folder.path("m.sqlite")
        do { _ = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies())) }
        let store = try SQLiteMovieStore(path: path, readOnly: true)
        #expect(try store.allMovies() == sampleMovies())
        let error = try #require(throws: StoreError.self) { _ = try store.update(id: 1, with: MoviePatch(rating: 0)) }
        #expect(error.kind == .unavailable)
        #expect(error.message.contains("readonly"))
        #expect(try store.update(id: 1, with: MoviePatch()) == sampleMovies()[0])
        #expect(throws: StoreError(.notFound, message: "no movie has id 9")) {
            _ = try store.update(id: 9, with: MoviePatch())
        }
        #expect(try SQLiteMovieStore(path: path).allMovies() == sampleMovies())
    }

    @Test(
        "throws when the file is not writable",
        .enabled(if: ReadOnlyFile.isSupported, "needs chmod as a user, or chattr as root"))
    func throwsWhenTheFileIsNotWritable() throws {
        let path = folder.path("m.sqlite")
        do { _ = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies())) }
        try ReadOnlyFile.protect(path)
        defer { ReadOnlyFile.release(path) }
        // The store still serves reads; writes fail with SQLite's reason.
        let store = try SQLiteMovieStore(path: path)
        #expect(try store.allMovies() == sampleMovies())
        let error = try #require(throws: StoreError.self) { _ = try store.update(id: 1, with: MoviePatch(rating: 0)) }
        #expect(error.kind == .unavailable)
        #expect(error.message.contains("readonly"))
        ReadOnlyFile.release(path)
        #expect(try SQLiteMovieStore(path: path).allMovies() == sampleMovies())
    }

    @Test func throwsWhenTheFolderCannotBeCreated() throws {
        let blocker = folder.path("a-file")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(path: blocker + "/movies.sqlite")
        }
        #expect(error.kind == .unavailable)
        #expect(error.message.contains("creating the folder"))
    }

    @Test func throwsWhenThePathIsAFolder() throws {
        let error = try #require(throws: StoreError.self) { _ = try SQLiteMovieStore(path: folder.url.path) }
        #expect(error.kind == .unavailable)
    }

    @Test func throwsWhenTheFileIsNotADatabase() throws {
        let path = folder.path("garbage.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
        }
        #expect(error.kind == .unavailable)
        #expect(error.message.contains("not a database"))
    }

    @Test func worksInMemory() throws {
        let store = try SQLiteMovieStore(path: ":memory:", seedingFrom: try folder.catalog(sampleMovies()))
        _ = try store.update(id: 1, with: MoviePatch(rating: 4.4))
        #expect(try store.movie(id: 1)?.rating == 4.4)
    }
}
