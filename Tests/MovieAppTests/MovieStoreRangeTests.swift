import Foundation
import Reactive
import TestSupport
import Testing

@testable import MovieApp

/// Pages of a query read by range, on every kind of store, against the same query done in memory.
@Suite("MovieStore range queries")
struct MovieStoreRangeTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Titles that tie, differ in case, hold LIKE's wildcards, and sort differently by code point than by locale.
    private static let movies: [Movie] = {
        let titles = [
            "Zebra", "apple", "Apple", "Apple", "Éclair", "Eclair", "100% Pure", "100 Pure", "snake_case", "snakeXcase",
            "Back\\slash", "Drama Queen", "Ünder", "under", "Z", "a", "B", "b", "Ä", "Mid",
        ]
        return titles.enumerated().map { index, title in
            var movie = sampleMovies(1...1)[0]
            movie.id = index + 1
            movie.title = title
            movie.genres = index % 3 == 0 ? ["Comedy"] : ["Drama", "Noir"]
            return movie
        }
    }()

    @Test(arguments: StoreKind.available)
    func readsEveryPageInTitleOrderTiesByIdAsTheQueryInMemory(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(Self.movies))
        for search in ["", "apple", "APPLE", "%", "_", "\\", "comedy", "noir", "ünder", "x", "nothing at all", " mid "]
        {
            let query = MovieQuery(search: search)
            let expected = Self.movies.filter(query.matches).sorted(by: MovieQuery.areInOrder)
            #expect(try store.count(of: query) == expected.count, "count of \(search)")
            var read: [Movie] = []
            var offset = 0
            while offset < expected.count + 7 {
                read += try store.movies(matching: query, from: offset, count: 7)
                offset += 7
            }
            #expect(read == expected, "pages of “\(search)”")
        }
        #expect(try store.movies(matching: .all, from: 3, count: 0) == [])
        #expect(try store.movies(matching: .all, from: 1000, count: 10) == [])
        #expect(
            try store.movies(matching: .all, from: 0, count: 4).map(\.title) == [
                "100 Pure", "100% Pure", "Apple", "Apple",
            ]
        )
        #expect(try store.movies(matching: .all, from: 2, count: 2).map(\.id) == [3, 4])
    }

    @Test(arguments: StoreKind.available)
    func aPageSeesCreationsUpdatesAndDeletionsAtOnce(kind: StoreKind) throws {
        let store = try kind.open(try kind.makePlace(folder), seedingFrom: try folder.catalog(Self.movies))
        let created = try store.create(
            MovieDraft(title: "0 First", year: 2000, runtimeMinutes: 9, rating: 1, overview: "O"))
        #expect(try store.movies(matching: .all, from: 0, count: 1) == [created])
        _ = try store.update(id: created.id, with: MoviePatch(title: "ÿ Last"))
        #expect(try store.movies(matching: .all, from: Self.movies.count, count: 5).map(\.id) == [created.id])
        try store.delete(id: created.id)
        #expect(try store.count(of: .all) == Self.movies.count)
    }

    /// A database made by the previous schema (no title index) gains it when opened.
    @Test func anSQLiteDatabaseOfTheFirstSchemaGainsTheTitleIndex() throws {
        let path = folder.path("old.sqlite")
        _ = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(Self.movies))
        let old = try SQLiteConnection(path: path, readOnly: false)
        try old.execute("DROP INDEX movies_by_title; PRAGMA user_version = 1;")
        #expect(try Self.indexes(in: old) == [])
        let reopened = try SQLiteMovieStore(path: path)
        #expect(try Self.indexes(in: old) == ["movies_by_title"])
        #expect(try reopened.movies(matching: .all, from: 0, count: 2).map(\.title) == ["100 Pure", "100% Pure"])
        let plan = try old.statement(
            "EXPLAIN QUERY PLAN SELECT id FROM movies WHERE ?1 = '' ORDER BY title, id LIMIT 100 OFFSET 5")
        try plan.reset(binding: [.text("")])
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(at: 3) ?? "") }
        try plan.reset()
        #expect(steps.contains { $0.contains("movies_by_title") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
    }

    private static func indexes(in connection: SQLiteConnection) throws -> [String] {
        let select = try connection.statement(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'movies' AND sql IS NOT NULL")
        try select.reset()
        var names: [String] = []
        while try select.step() { names.append(select.text(at: 0) ?? "") }
        try select.reset()
        return names
    }
}
