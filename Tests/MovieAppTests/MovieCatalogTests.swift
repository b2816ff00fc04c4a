import Foundation
import MovieApp
import TestSupport
import Testing

@Suite("Catalog")
struct MovieCatalogTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func refusesAMissingCatalog() throws {
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: folder.path("missing.json"))
        }
        #expect(error.kind == .invalidCatalog)
        #expect(error.message.contains("missing.json"))
        // The system's words for the cause, as Foundation's localizedDescription gave them.
        #expect(error.message.hasSuffix("cannot be read (No such file or directory)"), "\(error.message)")
    }

    @Test func refusesACatalogThatIsNotOfTheForm() throws {
        let path = folder.path("wrong.json")
        try Data(#"[{"id": 1}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: path)
        }
        #expect(error.kind == .invalidCatalog)
    }

    @Test func refusesAnInvalidMovieAndSeedsNothing() throws {
        var movies = sampleMovies()
        movies[2].rating = 12
        let database = folder.path("m.sqlite")
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(path: database, seedingFrom: try folder.catalog(movies))
        }
        #expect(error.kind == .invalidCatalog)
        #expect(error.message.hasSuffix("movie at index 2: rating: must be a number from 0 to 10"))
        #expect(try SQLiteMovieStore(path: database).allMovies() == [])
    }

    @Test func refusesDuplicateIds() throws {
        let error = try #require(throws: StoreError.self) {
            _ = try SQLiteMovieStore(
                path: folder.path("m.sqlite"), seedingFrom: try folder.catalog(sampleMovies() + sampleMovies(2...2)))
        }
        #expect(error.message.hasSuffix("id 2 appears more than once"))
    }

    @Test func shipsAtLeastTwentyValidMoviesNumberedFromOne() throws {
        let catalog = repositoryRoot.appendingPathComponent("Catalog/movies.json").path
        let store = try SQLiteMovieStore(path: folder.path("m.sqlite"), seedingFrom: catalog)
        let movies = try store.allMovies()
        #expect(movies.count >= 20)
        #expect(movies.map(\.id) == Array(1...movies.count))
        #expect(Set(movies.map(\.title)).count == movies.count)
        #expect(movies.filter { $0.tips.isEmpty }.count <= 1)
        for movie in movies where !movie.tips.isEmpty {
            #expect((3...5).contains(movie.tips.count), "movie \(movie.id) has \(movie.tips.count) tips")
        }
        for movie in movies {
            let sentences = movie.overview.split(separator: ". ").count
            #expect((2...3).contains(sentences), "movie \(movie.id)'s overview has \(sentences) sentences")
        }
    }

    @Test func shipsAPosterForEveryMovie() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Catalog/movies.json"))
        let movies = try JSONDecoder().decode([String: [Movie]].self, from: data)["movies"] ?? []
        #expect(!movies.isEmpty)
        for movie in movies {
            #expect(movie.posterUrl == "/public/posters/\(movie.id).svg")
            let file = repositoryRoot.appendingPathComponent("Public/posters/\(movie.id).svg")
            let svg = try String(contentsOf: file, encoding: .utf8)
            #expect(svg.hasPrefix("<svg "))
            #expect(svg.contains(#"viewBox="0 0 400 600""#), "poster \(movie.id) is not 2:3")
            let escapedTitle = movie.title.replacingOccurrences(of: "&", with: "&amp;")
            #expect(svg.contains(escapedTitle.split(separator: " ").first ?? ""), "poster \(movie.id) lacks its title")
        }
    }

    @Test(
        "ships the posters the generator makes from the catalog",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func shipsThePostersTheGeneratorMakes() throws {
        let output = folder.path("posters")
        let generator = try ChildProcess(
            "/usr/bin/python3",
            [
                repositoryRoot.appendingPathComponent("Catalog/make_posters.py").path,
                repositoryRoot.appendingPathComponent("Catalog/movies.json").path, output,
            ], standardOutput: .discard)
        #expect(generator.wait() == .exited(0))
        let generated = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        let shipped = try FileManager.default.contentsOfDirectory(
            atPath: repositoryRoot.appendingPathComponent("Public/posters").path
        ).filter { $0.hasSuffix(".svg") }.sorted()
        #expect(generated == shipped)
        for name in generated {
            let fresh = try Data(contentsOf: URL(fileURLWithPath: output).appendingPathComponent(name))
            let committed = try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/posters/\(name)"))
            #expect(fresh == committed, "Public/posters/\(name) is stale: run python3 Catalog/make_posters.py")
        }
    }

    @Test func encodesEveryKeyIncludingAMissingPoster() throws {
        var movie = sampleMovies(1...1)[0]
        movie.posterUrl = nil
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(movie)) as? [String: Any]
        #expect(
            Set(object?.keys.map { $0 } ?? [])
                == ["id", "title", "year", "runtimeMinutes", "genres", "rating", "overview", "tips", "posterUrl"])
        #expect(object?["posterUrl"] is NSNull)
        #expect(try JSONDecoder().decode(Movie.self, from: JSONEncoder().encode(movie)) == movie)
    }
}
